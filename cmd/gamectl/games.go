package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

func init() {
	commands["games"] = command{summary: "list the games on the game definition: seats, seat options, modes, ruleset numbers", run: runGames}
}

const gamesUsage = `usage: gamectl games

Lists each game on the game definition (docs/games.md) with its seats, seat
options, the modes the functions serve it in and those gamectl play and
sim play it in (a game whose hidden parts cannot be trustless says why),
its ruleset numbers (their paths, defaults and ranges, for --rules files
and sweeps), its moves and its bots ("gamectl sim --game NAME --bot LIST"). The dungeon, the reference
game, is listed as the definition plays it (an adapter over its engine,
games/dungeon); "gamectl sim", with or without "--game dungeon", still plays
it through its own pipeline and flags (--bots, --classes, sweeps, the search
bot mcts:N: docs/sim.md), as does every other command without --game.
`

func runGames(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("games", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, gamesUsage) }
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	local := joinModes(match.Modes)
	for _, def := range registry.All() {
		served := table.Modes(def)
		refusal := table.TrustlessRefusal(def)
		if def.Name() == dungeonName {
			// The dungeon is served by its own service (service/), in every mode.
			served, refusal = []rng.Mode{rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair, rng.ModeTrustless}, ""
		}
		modes := joinModes(served) + " (served by the functions; gamectl play and sim: " + local + ")"
		if refusal != "" {
			modes += "\n  not trustless: " + def.Name() + " " + refusal
		}
		writeGame(stdout, def, modes)
	}
	return nil
}

// joinModes lists modes, comma-separated.
func joinModes(modes []rng.Mode) string {
	out := make([]string, len(modes))
	for i, m := range modes {
		out[i] = string(m)
	}
	return strings.Join(out, ", ")
}

func writeGame(w io.Writer, def game.Definition, modes string) {
	s := def.Seats()
	fmt.Fprintf(w, "%s\n  seats: %d to %d (default %d)\n", def.Name(), s.Min, s.Max, s.Default)
	if len(s.Options) == 0 {
		fmt.Fprintln(w, "  seat options: none")
	}
	for _, o := range s.Options {
		fmt.Fprintf(w, "  seat option %s: %s\n", o.Name, strings.Join(o.Values, ", "))
	}
	fmt.Fprintf(w, "  modes: %s\n  ruleset numbers:\n", modes)
	for _, p := range def.Params() {
		kind := "number"
		if p.Integer {
			kind = "whole number"
		}
		fmt.Fprintf(w, "    %s = %g (%s, %g to %g): %s\n", p.Path, p.Default, kind, p.Min, p.Max, p.Doc)
	}
	fmt.Fprintln(w, "  moves:")
	for _, k := range def.Kinds() {
		var args []string
		for _, a := range k.Args {
			args = append(args, fmt.Sprintf("%s %d..%d", a.Name, a.Min, a.Max))
		}
		name := k.Name
		if len(args) > 0 {
			name += " {" + strings.Join(args, ", ") + "}"
		}
		fmt.Fprintf(w, "    %s: %s\n", name, k.Doc)
	}
	fmt.Fprintf(w, "  bots: %s\n", strings.Join(match.BotNames(def), ", "))
	for _, st := range def.Styles() {
		if st.Param != "" {
			fmt.Fprintf(w, "    %s:%s (%s %d to %d, default %d): %s\n", st.Name, st.Param, st.Param, st.Min, st.Max, st.Default, st.Doc)
		} else {
			fmt.Fprintf(w, "    %s: %s\n", st.Name, st.Doc)
		}
	}
}

// The registry is wired into gamectl here alone: the other commands ask
// these.
var (
	lookupGame  = registry.Lookup
	dungeonName = registry.Dungeon
)
