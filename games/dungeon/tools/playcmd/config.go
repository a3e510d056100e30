package playcmd

import (
	"os"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/internal/cli"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// loadRulesFile reads and validates the ruleset at path, or returns the
// embedded default when path is "". The error names the file and every
// problem found, and is a usage error (exit 2).
func loadRulesFile(path string) (*engine.Ruleset, error) {
	if path == "" {
		return engine.DefaultRules(), nil
	}
	r, err := engine.ReadRulesFile(path)
	if err != nil {
		return nil, cli.UsageError{Err: err}
	}
	return r, nil
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
			return cfg, cli.Usagef("--seed is required in seeded mode")
		}
		if serverSeed != "" || entropy != "" {
			return cfg, cli.Usagef("--server-seed-hex and --entropy are for crypto and fair games, not seeded ones")
		}
		cfg.Create.Seed, cfg.Create.GameID = seed, "bot-"+seed
		return cfg, nil
	case rng.ModeCrypto, rng.ModeFair:
	case rng.ModeTrustless:
		if seed != "" || serverSeed != "" || entropy != "" {
			return cfg, cli.Usagef("--seed, --server-seed-hex and --entropy are not for trustless games: their randomness comes from the seats' hash chains")
		}
		return cfg, nil
	default:
		return cfg, cli.Usagef("--mode %q: want seeded, crypto, fair or trustless", mode)
	}
	if seed != "" {
		return cfg, cli.Usagef("--seed is for seeded games; a %s game's seed comes from --server-seed-hex", mode)
	}
	if serverSeed == "" {
		var err error
		if serverSeed, err = fair.NewServerSeed(); err != nil {
			return cfg, err
		}
	} else if _, err := fair.ParseServerSeed(serverSeed); err != nil {
		return cfg, cli.Usagef("--server-seed-hex: %v", err)
	}
	cfg.Create.ServerSeed = serverSeed
	if entropy == "" {
		return cfg, nil
	}
	if rng.Mode(mode) != rng.ModeFair {
		return cfg, cli.Usagef("--entropy is for fair games only")
	}
	list := strings.Split(entropy, ",")
	if len(list) > players {
		return cfg, cli.Usagef("--entropy gives %d contributions for %d players", len(list), players)
	}
	for i, h := range list {
		if _, err := fair.ParseEntropy(h); err != nil {
			return cfg, cli.Usagef("--entropy: seat %d: %v", i, err)
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
		return cli.Usagef("--openings is for fair games")
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
		return cli.Usagef("--openings: --entropy gives %d contributions for %d players (one of 32 bytes per seat)", len(cfg.Entropy), players)
	}
	for i, h := range cfg.Entropy {
		if _, err := fair.ParseContribution(h); err != nil {
			return cli.Usagef("--entropy: seat %d: %v", i, err)
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
		return cli.Usagef("--export: %v", err)
	}
	return nil
}
