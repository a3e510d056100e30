// Package playcmd is the dungeon's "gamectl play" (without --game, or with
// --game dungeon): one whole game of the dungeon's bots, played as a server
// plays it in any rng mode (bot.Runner), its public log printed. gamectl
// reaches it through the tools' wiring (games/registry/tools), never by
// importing a game.
package playcmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/internal/cli"
	"github.com/fairboard/fairboard/rng"
)

// Tool returns the tool for the command path ("play"), or nil.
func Tool(command string) func(args []string, stdout, stderr io.Writer) error {
	if command == "play" {
		return Run
	}
	return nil
}

var playUsage = `usage: gamectl play [--mode seeded|crypto|fair|trustless] [--seed S] [--players 4]
                   [--classes LIST] [--bots LIST] [--rules FILE] [--json]
                   [--audit-out FILE] [--export FILE]
       gamectl play --game NAME ... (another game: see "gamectl help games")

Plays one whole game with bots, as a server plays it, and prints its public
log, one event a line. Players are p1..pN, seated 0..N-1 (p1 owns the room).
Game i of "gamectl sim --seed S" is "gamectl play --seed 'S#i'" with that
game's classes and bots (the sim's report prints the exact command).

  --mode MODE      seeded (the sfc32 stream of --seed, replayable), crypto,
                   fair (see --server-seed-hex and --entropy) or trustless
                   (each seat its own client: a fresh hash chain and Ed25519
                   key, a replica of the game it checks before it reveals)
  --classes LIST   one class per seat, of: ` + strings.Join(engine.ClassNames(), ", ") + `
                   (default: ` + strings.Join(engine.ClassNames(), ",") + ` over the seats in turn)
  --bots LIST      bot policies, of: ` + strings.Join(bot.Names, ", ") + `
                   dealt over the seats in turn: seat j plays the (j mod len)-th,
                   so "cautious,aggressive" alternates and one name plays every
                   seat; at most one per seat (default: cautious). mcts:N is
                   the search bot, N simulations per decision (docs/sim.md)
  --bot-seed S     the search bots' own seed: seat j draws from the stream of
                   "S/seat<j>", never from the game's seed or stream (default
                   "` + bot.DefaultBotSeed + `"; "gamectl sim" prints each game's)

flags:
`

// Run is "gamectl play" for the dungeon (args without --game): players
// are uids p1..pN seated 0..N-1 (p1 owns the room); classes default to
// the rotation warrior, monk, duelist, scout; bots default to cautious for
// every seat. The game is played as a server plays it
// (bot.Runner.PlayWith), in the mode given. Errors are internal/cli's: a
// cli.UsageError (exit 2) for bad flags or output paths, any other (exit
// 1) for a game that could not be played or written.
func Run(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("play", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, playUsage); fs.PrintDefaults() }
	mode := fs.String("mode", "seeded", "rng mode: seeded, crypto, fair or trustless")
	seed := fs.String("seed", "", "seed of the game's sfc32 stream (seeded mode, required there)")
	serverSeed := fs.String("server-seed-hex", "", "crypto and fair modes: the server seed, 64 lower-case hex digits (default: from crypto/rand)")
	entropy := fs.String("entropy", "", "fair mode: comma-separated hex contribution per seat, 0 to 64 bytes each (empty for none); with --openings, 32 bytes each")
	openings := fs.Bool("openings", false, "fair mode: each seat commits to its contribution at join and opens it before the start (default contributions: 32 bytes from crypto/rand)")
	exportPath := fs.String("export", "", "write the finished game's fairboard-export/v1 to this file")
	players := fs.Int("players", 4, "number of players, p1..pN seated 0..N-1, within the ruleset's minPlayers..maxPlayers")
	classes := fs.String("classes", "", "comma-separated class of each seat (see above)")
	bots := fs.String("bots", "cautious", "comma-separated bot policies, dealt over the seats in turn (see above)")
	rulesFile := fs.String("rules", "", "ruleset JSON file (default: the embedded GAME_RULES.md values)")
	botSeed := fs.String("bot-seed", bot.DefaultBotSeed, "the search bots' seed, independent of the game's (see above)")
	asJSON := fs.Bool("json", false, "print one JSON object a line instead of text")
	auditOut := fs.String("audit-out", "", "write every RNG audit entry, one JSON object a line, to this file")
	if err := cli.ParseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := playConfig(*mode, *seed, *serverSeed, *entropy, *players)
	if err != nil {
		return err
	}
	if *openings {
		if err := withOpenings(&cfg, *players); err != nil {
			return err
		}
	}
	if cfg.Create.Seed != "" {
		if _, err := rng.SeedSFC32(cfg.Create.Seed); err != nil {
			return cli.Usagef("--seed: %v", err)
		}
	}
	rules, err := loadRulesFile(*rulesFile)
	if err != nil {
		return err
	}
	n := *players
	if n < rules.MinPlayers || n > rules.MaxPlayers {
		return cli.Usagef("--players %d: the ruleset allows %d..%d", n, rules.MinPlayers, rules.MaxPlayers)
	}
	seats, err := playSeats(n, *classes, *bots)
	if err != nil {
		return err
	}
	if _, err := bot.StreamFor(*botSeed, 0); err != nil || *botSeed == "" {
		return cli.Usagef("--bot-seed %q: want a non-empty seed of valid UTF-8", *botSeed)
	}
	// The output files are checked before the game is played.
	var rec *audit.Recorder
	var auditFile *cli.PendingFile
	if *auditOut != "" {
		if auditFile, err = cli.ReserveFile("--audit-out", *auditOut); err != nil {
			return err
		}
		defer auditFile.Discard() // a no-op once committed
		rec = audit.New(audit.KeepAll())
		cfg.Auditor = rec
	}
	if *exportPath != "" {
		f, err := cli.ReserveFile("--export", *exportPath)
		if err != nil {
			return err
		}
		f.Discard() // writeExport writes the path itself
	}
	r := bot.NewRunner(engine.NewReference(rules))
	r.Record = *exportPath != ""
	r.BotSeed = *botSeed
	g := &engine.Game{}
	if rng.Mode(*mode) == rng.ModeTrustless {
		tc := bot.TrustlessConfig{GameID: cfg.Create.GameID}
		if rec != nil {
			tc.Auditor = rec
		}
		if _, err := r.PlayTrustless(g, tc, seats); err != nil {
			return err
		}
	} else if err := r.PlayWith(g, cfg, seats); err != nil {
		return err
	}
	events := r.Events()
	w := bufio.NewWriter(stdout)
	var buf []byte
	for i := range events {
		if *asJSON {
			buf = events[i].AppendJSON(buf[:0])
		} else {
			buf = appendText(buf[:0], &events[i])
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if rec != nil {
		if err := cli.WriteJSONLines(auditFile, rec.All()); err != nil {
			return err
		}
	}
	if g.Public.Phase != engine.PhaseFinished {
		return fmt.Errorf("the game did not finish")
	}
	if *exportPath != "" {
		return writeExport(*exportPath, g, rules, r.Actions(), events)
	}
	return nil
}

// playSeats builds the seats of an n-player game from --classes (one class
// per seat, or "" for the rotation) and --bots (a list dealt over the seats
// in turn: seat j plays names[j % len(names)]).
func playSeats(n int, classes, bots string) ([]bot.Seat, error) {
	cls := policy.DefaultClasses(n)
	if classes != "" {
		list := strings.Split(classes, ",")
		if len(list) != n {
			return nil, cli.Usagef("--classes names %d classes for %d players (give one per seat)", len(list), n)
		}
		for i, c := range list {
			cls[i] = engine.Class(strings.TrimSpace(c))
			if !cls[i].Valid() {
				return nil, cli.Usagef("--classes: unknown class %q (known: %s)", c, strings.Join(engine.ClassNames(), ", "))
			}
		}
	}
	names := strings.Split(bots, ",")
	if len(names) > n {
		return nil, cli.Usagef("--bots names %d policies for %d players (at most one per seat; a shorter list is dealt over the seats in turn)", len(names), n)
	}
	seats := make([]bot.Seat, n)
	for i := range seats {
		p, err := bot.ByName(strings.TrimSpace(names[i%len(names)]))
		if err != nil {
			return nil, cli.Usagef("--bots: %v", err)
		}
		seats[i] = bot.Seat{Class: cls[i], Policy: p}
	}
	return seats, nil
}

// appendText renders an event as one readable line: "#seq Type k=v ...",
// the fields of its JSON form in the same order.
func appendText(b []byte, e *engine.Event) []byte {
	js := e.AppendJSON(nil)
	b = append(b, '#')
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, ' ')
	b = append(b, e.Type.String()...)
	// Walk the JSON object in order (a map would lose it).
	dec := json.NewDecoder(strings.NewReader(string(js)))
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		if k == "seq" || k == "type" {
			continue
		}
		b = append(b, ' ')
		b = append(b, fmt.Sprint(k)...)
		b = append(b, '=')
		s := string(v)
		if uq, err := strconv.Unquote(s); err == nil {
			s = uq
		}
		b = append(b, s...)
	}
	return b
}
