package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/reducers"
)

func init() {
	commands["play"] = command{"play a whole game with bots (seeded, crypto or fair) and print its log", runPlay}
}

// runPlay plays a game: players are uids p1..pN seated 0..N-1 (p1 owns the
// room); classes default to the rotation warrior, monk, duelist, scout;
// bots default to cautious for every seat. The game is played as a server
// plays it (bot.Runner.PlayWith), in the mode given.
func runPlay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", stderr)
	mode := fs.String("mode", "seeded", "rng mode: seeded, crypto or fair")
	seed := fs.String("seed", "", "seed of the game's sfc32 stream (seeded mode, required there)")
	serverSeed := fs.String("server-seed-hex", "", "crypto and fair modes: the server seed, 64 lower-case hex digits (default: from crypto/rand)")
	entropy := fs.String("entropy", "", "fair mode: comma-separated hex contribution per seat, 0 to 64 bytes each (empty for none)")
	exportPath := fs.String("export", "", "write the finished game's fairboard-export/v1 to this file")
	players := fs.Int("players", 4, "number of players, p1..pN seated 0..N-1")
	classes := fs.String("classes", "", "comma-separated classes per seat (default: warrior,monk,duelist,scout rotation)")
	bots := fs.String("bots", "", "comma-separated bot policy per seat, or one for all (default cautious)")
	rulesFile := fs.String("rules", "", "ruleset JSON file (default: the embedded GAME_RULES.md values)")
	asJSON := fs.Bool("json", false, "print one JSON object a line instead of text")
	auditOut := fs.String("audit-out", "", "write every RNG audit entry, one JSON object a line, to this file")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := playConfig(*mode, *seed, *serverSeed, *entropy, *players)
	if err != nil {
		return err
	}
	rules, _, err := loadRulesFile(*rulesFile)
	if err != nil {
		return err
	}
	n := *players
	if n < rules.MinPlayers || n > rules.MaxPlayers {
		return usagef("--players %d: the ruleset allows %d..%d", n, rules.MinPlayers, rules.MaxPlayers)
	}
	seats := make([]bot.Seat, n)
	cls := bot.DefaultClasses(n)
	if *classes != "" {
		list := strings.Split(*classes, ",")
		if len(list) != n {
			return usagef("--classes names %d classes for %d players", len(list), n)
		}
		for i, c := range list {
			cls[i] = engine.Class(strings.TrimSpace(c))
			if !cls[i].Valid() {
				return usagef("--classes: unknown class %q (known: warrior, monk, duelist, scout)", c)
			}
		}
	}
	names := []string{"cautious"}
	if *bots != "" {
		names = strings.Split(*bots, ",")
	}
	if len(names) != 1 && len(names) != n {
		return usagef("--bots names %d bots for %d players (give one, or one per player)", len(names), n)
	}
	for i := range seats {
		p, err := bot.ByName(strings.TrimSpace(names[min(i, len(names)-1)]))
		if err != nil {
			return usagef("--bots: %v", err)
		}
		seats[i] = bot.Seat{Class: cls[i], Policy: p}
	}
	var rec *audit.Recorder
	if *auditOut != "" {
		rec = audit.New(audit.KeepAll())
		cfg.Auditor = rec
	}
	r := bot.NewRunner(engine.New(rules, reducers.Table()))
	r.Record = *exportPath != ""
	g := &engine.Game{}
	if err := r.PlayWith(g, cfg, seats); err != nil {
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
		if err := writeAudit(*auditOut, rec); err != nil {
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

func writeAudit(path string, rec *audit.Recorder) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, e := range rec.All() {
		b, err := json.Marshal(e)
		if err != nil {
			f.Close()
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
