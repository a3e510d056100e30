package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

const playGameUsage = `usage: gamectl play --game NAME [--mode seeded|crypto] [--seed S] [--players P]
                   [--bots LIST] [--bot-seed S] [--rules FILE] [--json]
                   [--audit-out FILE] [--record FILE]

Plays one whole game of a game on the game definition ("gamectl games" lists
them) with bots, and prints its public log, one event a line
("#SEQ Type field=value ..."; with --json, {"seq":N,"type":"T",...}), then,
in text, the result ("result: seat 0 (p1) won; payoffs 1, 0"). Players are
p1..pN, seated 0..N-1. Game i of "gamectl sim --game NAME --seed S" is
"gamectl play --game NAME --seed 'S#i'" with the same --bots (for a game
without seat options). Without
--game, "gamectl play" plays the dungeon as it always has; "--game dungeon"
is the same.

  --mode MODE    seeded (the sfc32 stream of --seed, replayable by anyone who
                 knows it) or crypto (crypto/rand; no --seed)
  --bots LIST    the bots, comma-separated, dealt over the seats in turn (seat
                 j plays the (j mod len)-th): "random" (uniform over the
                 game's listed legal moves), "mcts:N" (information-set
                 Monte Carlo tree search, N simulations a move, 1 to
                 1000000), "cfr:DIR" (the strategy "gamectl solve --out
                 DIR" wrote; it draws from "S/seat<j>" as the search bot)
                 or one of the game's styles
  --bot-seed S   the random bots' stream, and "S/seat<j>" the search bot of
                 seat j's (default "SEED/bots" in seeded mode, as the
                 simulation's; crypto/rand in crypto mode)
  --record FILE  the game's record (fairboard-game/v1: setup, moves in their
                 canonical bytes, a crypto game's draws, log, audit entries,
                 final state's hash), which "gamectl replay FILE" replays
  A game whose seats pick options deals each option's values over the seats
  in turn (seat j takes the (j mod len)-th value), as the simulation deals
  its game 0.

flags:
`

// runGamePlay is "gamectl play --game NAME": a game on the definition.
func runGamePlay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, playGameUsage); fs.PrintDefaults() }
	name := fs.String("game", "", "the game (see \"gamectl games\")")
	mode := fs.String("mode", "seeded", "rng mode: seeded or crypto")
	seed := fs.String("seed", "", "seed of the game's sfc32 stream (seeded mode, required there)")
	players := fs.Int("players", 0, "seats, within the game's range (default: the game's default)")
	bots := fs.String("bots", "random", "bots, comma-separated, dealt over the seats in turn (see above)")
	botSeed := fs.String("bot-seed", "", "the bots' seed (see above)")
	rules := fs.String("rules", "", "ruleset JSON file of the game (default: its default ruleset)")
	asJSON := fs.Bool("json", false, "print one JSON object a line instead of text")
	auditOut := fs.String("audit-out", "", "write every RNG audit entry, one JSON object a line, to this file")
	recordOut := fs.String("record", "", "write the game's record (fairboard-game/v1, for \"gamectl replay\") to this file")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	def, err := lookupGame(*name)
	if err != nil {
		return usageError{Err: err}
	}
	cfg := match.PlayConfig{Config: match.Config{Mode: rng.Mode(*mode)}, Bots: cli.SplitList(*bots), BotSeed: *botSeed}
	switch cfg.Mode {
	case rng.ModeSeeded:
		if *seed == "" {
			return usagef("--seed is required in seeded mode")
		}
		if _, err := rng.SeedSFC32(*seed); err != nil {
			return usagef("--seed: %v", err)
		}
		cfg.Seed = *seed
	case rng.ModeCrypto:
		if *seed != "" {
			return usagef("--seed is for seeded mode: a crypto game draws from crypto/rand")
		}
	default:
		return usagef("--mode %q: %s plays seeded or crypto", *mode, def.Name())
	}
	if *botSeed != "" {
		if _, err := rng.SeedSFC32(*botSeed); err != nil {
			return usagef("--bot-seed: %v", err)
		}
	}
	n := *players
	if n == 0 {
		n = def.Seats().Default
	}
	if s := def.Seats(); n < s.Min || n > s.Max {
		return usagef("--players %d: %s takes %d to %d", n, def.Name(), s.Min, s.Max)
	}
	cfg.Seats = match.DealOptions(def, 0, n)
	if len(cfg.Bots) == 0 {
		return usagef("--bots needs at least one bot (%s)", strings.Join(match.BotNames(def), ", "))
	}
	if len(cfg.Bots) > n {
		return usagef("--bots names %d bots for %d players (at most one per seat; a shorter list is dealt over the seats in turn)", len(cfg.Bots), n)
	}
	for _, b := range cfg.Bots {
		if err := match.CheckBot(def, b); err != nil {
			return usagef("--bots: %v", err)
		}
	}
	if cfg.Rules, err = gameRules(def, *rules); err != nil {
		return err
	}
	// The output files are checked before the game is played.
	var rec *audit.Recorder
	var auditFile, recordFile *pendingFile
	if *auditOut != "" {
		if auditFile, err = reserveFile("--audit-out", *auditOut); err != nil {
			return err
		}
		defer auditFile.discard() // a no-op once committed
		rec = audit.New(audit.KeepAll())
	}
	if *recordOut != "" {
		if recordFile, err = reserveFile("--record", *recordOut); err != nil {
			return err
		}
		defer recordFile.discard()
	}
	var entries []rng.Entry
	cfg.Auditor = rng.AuditorFunc(func(e rng.Entry) {
		entries = append(entries, e)
		if rec != nil {
			rec.Record(e)
		}
	})
	m, names, err := match.Play(def, cfg)
	if m == nil {
		return usageError{Err: err}
	}
	if werr := writeGameLog(stdout, def, m, names, *asJSON, err == nil); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("the game could not be played to its end: %w", err)
	}
	if rec != nil {
		if err := writeAudit(auditFile, rec); err != nil {
			return err
		}
	}
	if recordFile != nil {
		r, err := match.NewRecord(m, entries)
		if err != nil {
			return err
		}
		b, err := json.MarshalIndent(r, "", " ")
		if err != nil {
			return err
		}
		if _, err := recordFile.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("writing %s: %w", recordFile.path, err)
		}
		return recordFile.commit()
	}
	return nil
}

// writeGameLog prints m's public log (the events addressed to every
// seat), numbered from 1, and in text, when over, the result line.
func writeGameLog(stdout io.Writer, def game.Definition, m *match.Match, bots []string, asJSON, over bool) error {
	w := bufio.NewWriter(stdout)
	types := def.EventTypes()
	var b []byte
	for i, e := range m.Events() {
		if e.To != game.All {
			continue
		}
		b = game.AppendEventJSON(b[:0], types, i+1, e)
		if !asJSON {
			b = jsonLineText(b)
		}
		w.Write(append(b, '\n'))
	}
	if over && !asJSON {
		o := m.State().Outcome()
		var who []string
		for _, s := range o.Winners {
			who = append(who, fmt.Sprintf("seat %d (p%d, %s)", s, s+1, bots[s]))
		}
		won := "nobody won"
		if len(who) > 0 {
			won = strings.Join(who, " and ") + " won"
		}
		pay := make([]string, len(o.Payoffs))
		for i, p := range o.Payoffs {
			pay[i] = strconv.FormatFloat(p, 'g', -1, 64)
		}
		fmt.Fprintf(w, "result: %s; payoffs %s\n", won, strings.Join(pay, ", "))
	}
	return w.Flush()
}

// jsonLineText turns one {"seq":N,"type":"T","k":v,...} line of
// game.AppendEventJSON (integer values only) into "#N T k=v ...".
func jsonLineText(js []byte) []byte {
	s := strings.TrimSuffix(strings.TrimPrefix(string(js), "{"), "}")
	var out []byte
	for i, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, ":")
		k, _ = strconv.Unquote(k)
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		}
		switch i {
		case 0:
			out = append(append(out, '#'), v...)
		case 1:
			out = append(append(out, ' '), v...)
		default:
			out = append(append(append(append(out, ' '), k...), '='), v...)
		}
	}
	return out
}
