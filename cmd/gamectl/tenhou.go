package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fairboard/fairboard/rng/tenhou"
)

func init() {
	commands["tenhou"] = command{"reproduce a round of Tenhou's published wall shuffle", runTenhou}
}

const tenhouUsage = `usage: gamectl tenhou --seed BASE64 [--round K]

Prints round K (1-based) of a Tenhou game as one JSON line:
  {"wall":[...136 tile ids 0..135, dealt from the last...],"dice":[a,b]}
with the dice 0-based (rnd[135] %% 6, rnd[136] %% 6). BASE64 is the game
seed, with or without the log's "mt19937ar-sha512-n288-base64," prefix.

flags:
`

// tenhouOut is the JSON line of "gamectl tenhou".
type tenhouOut struct {
	Wall []int  `json:"wall"`
	Dice [2]int `json:"dice"`
}

func runTenhou(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tenhou", stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, tenhouUsage); fs.PrintDefaults() }
	seedText := fs.String("seed", "", "the game seed (base64 of 624 little-endian words)")
	round := fs.Int("round", 1, "the round, counting every shuffle from 1")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if *seedText == "" {
		return usagef("--seed is required")
	}
	if *round < 1 {
		return usagef("--round must be >= 1, not %d", *round)
	}
	seed, err := tenhou.ParseSeed(*seedText)
	if err != nil {
		return usagef("--seed: %v", err)
	}
	r, err := tenhou.RoundOf(seed, *round)
	if err != nil {
		return usagef("--round: %v", err)
	}
	out, err := json.Marshal(tenhouOut{Wall: r.Wall(), Dice: r.Dice()})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}
