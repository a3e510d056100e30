package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/export"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	verifypage "github.com/fairboard/fairboard/web/verify"
)

func init() {
	commands["verify"] = command{"verify a game's export (fairboard-export/v1): a finished game, or a trustless game at any point", runVerify}
}

// runVerify checks one export: exit 0 with a one-line summary, 1 naming the
// first divergence, 2 for a file that cannot be read or is not an export.
func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gamectl verify FILE\n\nChecks a fairboard-export/v1 file (gamectl play --export, or the exportGame\ncallable): commitments, seeds, a replay of every action, every shuffle;\nin a trustless game every link, signature and draw, at any point of play.\nFILE may also be a game record (fairboard-game/v1: exportGame of a finished\ntable game such as Pig or Kuhn poker, or gamectl play --game NAME --record),\nchecked as gamectl replay checks it: its moves replayed from its seed or\nits draws, its log, audit entries and final state compared.\nExit 0: verified; 1: the first divergence; 2: not a readable export.")
	}
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give exactly one export file")
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return usagef("cannot read the export: %v", err)
	}
	if match.IsRecord(data) {
		return replayRecord(fs.Arg(0), data, stdout)
	}
	rep, err := export.Verify(data)
	var fe *export.FormatError
	var d *export.Divergence
	switch {
	case errors.As(err, &fe):
		return usageError{Err: fmt.Errorf("%s: %w", fs.Arg(0), err)}
	case errors.As(err, &d):
		return exitError{Code: 1, Err: fmt.Errorf("%s: %w", fs.Arg(0), err)}
	case err != nil:
		return err
	}
	_, err = fmt.Fprintln(stdout, rep.Summary())
	return err
}

// mountVerifyPage adds the export verifier page (web/verify) at /verify/
// to gamectl serve's mux.
func mountVerifyPage(m *http.ServeMux) *http.ServeMux {
	m.Handle("/verify/", http.StripPrefix("/verify", verifypage.Handler()))
	return m
}

// playConfig checks play's mode flags and returns the game's set-up: a
// seeded game needs --seed; crypto and fair games take --server-seed-hex
// (from crypto/rand when not given); only fair games take --entropy, one
// hex contribution per seat at most.
func playConfig(mode, seed, serverSeed, entropy string, players int) (bot.Config, error) {
	var cfg bot.Config
	cfg.Create = engine.Action{Mode: mode, GameID: "bot-" + mode}
	switch rng.Mode(mode) {
	case rng.ModeSeeded:
		if seed == "" {
			return cfg, usagef("--seed is required in seeded mode")
		}
		if serverSeed != "" || entropy != "" {
			return cfg, usagef("--server-seed-hex and --entropy are for crypto and fair games, not seeded ones")
		}
		cfg.Create.Seed, cfg.Create.GameID = seed, "bot-"+seed
		return cfg, nil
	case rng.ModeCrypto, rng.ModeFair:
	case rng.ModeTrustless:
		if seed != "" || serverSeed != "" || entropy != "" {
			return cfg, usagef("--seed, --server-seed-hex and --entropy are not for trustless games: their randomness comes from the seats' hash chains")
		}
		return cfg, nil
	default:
		return cfg, usagef("--mode %q: want seeded, crypto, fair or trustless", mode)
	}
	if seed != "" {
		return cfg, usagef("--seed is for seeded games; a %s game's seed comes from --server-seed-hex", mode)
	}
	if serverSeed == "" {
		var err error
		if serverSeed, err = fair.NewServerSeed(); err != nil {
			return cfg, err
		}
	} else if _, err := fair.ParseServerSeed(serverSeed); err != nil {
		return cfg, usagef("--server-seed-hex: %v", err)
	}
	cfg.Create.ServerSeed = serverSeed
	if entropy == "" {
		return cfg, nil
	}
	if rng.Mode(mode) != rng.ModeFair {
		return cfg, usagef("--entropy is for fair games only")
	}
	list := strings.Split(entropy, ",")
	if len(list) > players {
		return cfg, usagef("--entropy gives %d contributions for %d players", len(list), players)
	}
	for i, h := range list {
		if _, err := fair.ParseEntropy(h); err != nil {
			return cfg, usagef("--entropy: seat %d: %v", i, err)
		}
	}
	cfg.Entropy = list
	return cfg, nil
}

// withOpenings makes cfg a fair game with openings: every seat commits to
// a 32-byte contribution (--entropy's, or one from crypto/rand) at join
// and opens it before the start.
func withOpenings(cfg *bot.Config, players int) error {
	if rng.Mode(cfg.Create.Mode) != rng.ModeFair {
		return usagef("--openings is for fair games")
	}
	cfg.Create.Openings = true
	if len(cfg.Entropy) == 0 {
		for range players {
			c, err := fair.NewContribution()
			if err != nil {
				return err
			}
			cfg.Entropy = append(cfg.Entropy, c)
		}
		return nil
	}
	if len(cfg.Entropy) != players {
		return usagef("--openings: --entropy gives %d contributions for %d players (one of 32 bytes per seat)", len(cfg.Entropy), players)
	}
	for i, h := range cfg.Entropy {
		if _, err := fair.ParseContribution(h); err != nil {
			return usagef("--entropy: seat %d: %v", i, err)
		}
	}
	return nil
}

// writeExport writes the finished game's export to path.
func writeExport(path string, g *engine.Game, rules *engine.Ruleset, actions []engine.Action, events []engine.Event) error {
	x, err := export.Build(g, rules, actions, events)
	if err != nil {
		return err
	}
	b, err := x.Encode()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return usagef("--export: %v", err)
	}
	return nil
}
