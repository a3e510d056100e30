package sim

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

// Ruleset is a ruleset with where it came from, for the results' record.
type Ruleset struct {
	Rules  *engine.Ruleset
	Source string // a file name, or "embedded default"
}

// Config is one simulation run.
type Config struct {
	Games   int64  // games in the whole run (all shards): > 0
	Seed    string // game i plays seed GameSeed(Seed, i)
	Players int    // within the ruleset's MinPlayers..MaxPlayers
	// Classes gives seat i the class Classes[i] (len == Players); nil means
	// "mixed": the classes rotate over the seats (see the design in
	// design.go), so each class plays each seat equally often.
	Classes []engine.Class
	// Bots are the policies the design deals to the seats (see design.go):
	// each class and each seat meets each entry equally often. A name
	// given twice plays twice as many seats.
	Bots    []string
	Workers int // goroutines; results do not depend on it

	Shard, Shards int // this run plays slice Shard (0-based) of Shards

	A Ruleset  // the ruleset
	B *Ruleset // a second ruleset played on the same seeds, or nil

	// PerGame, if not nil, receives players.csv under ruleset A: a header,
	// then one row per player-game, in game order whatever the number of
	// workers (see PlayersHeader). PerGameB is the same under ruleset B.
	PerGame, PerGameB io.Writer

	// Full plays every game with the whole public log and the shuffle
	// commitments, as a real game does. By default a simulation plays
	// leanly (engine.Dispatcher.Lean): it logs only the events its tally
	// reads and commits no shuffle. The results are the same either way.
	Full bool

	// Precision, if > 0, stops the run as soon as it is precise enough:
	// the games are played in batches of PrecisionBatch game indices, in
	// order, and the run stops at the end of the first batch after which
	// every headline measure's 95% interval has a half-width of at most
	// Precision (a fraction: 0.01 is one percentage point; see Precise).
	// Games is then the ceiling. Only the results decide where it stops,
	// so the same configuration always plays the same games.
	Precision float64

	// From, if > 0, starts the run at game index From instead of 0: the
	// run plays games From..Games-1 (not sharded). A tool that grows runs
	// in steps (sensitivity) plays each step so.
	From int64

	// Records, if not nil, receives a summary of every game played:
	// Records[i] for game i (len(Records) >= Games).
	Records []GameRecord
}

// GameRecord is what a paired analysis needs of one game: its length, the
// winner's class (an index into engine.Classes) and turn-order position
// (0-based), -1 for none, and the number of seats of each class.
type GameRecord struct {
	Rounds      int32
	WinnerClass int8
	WinnerPos   int8
	Failed      bool
	ClassSeats  [4]uint8
}

// GameSeed returns the seed of game i of a run seeded with seed: "seed#i".
// `gamectl play --seed 'seed#i'` replays that game.
func GameSeed(seed string, i int64) string { return seed + "#" + strconv.FormatInt(i, 10) }

// Range returns the game indices [lo, hi) of the configured shard: shard I
// of N plays the I-th of N contiguous slices of 0..Games-1.
func (c *Config) Range() (lo, hi int64) {
	if c.From > 0 {
		return c.From, c.Games
	}
	n := int64(max(c.Shards, 1))
	i := int64(c.Shard)
	return c.Games * i / n, c.Games * (i + 1) / n
}

// Validate checks the configuration and returns an error naming the first
// problem.
func (c *Config) Validate() error {
	if _, err := rng.SeedSFC32(GameSeed(c.Seed, 0)); err != nil {
		return fmt.Errorf("--seed: %w", err)
	}
	switch {
	case c.Games <= 0:
		return fmt.Errorf("--games must be at least 1, not %d", c.Games)
	case c.A.Rules == nil:
		return fmt.Errorf("no ruleset")
	case c.Players < c.A.Rules.MinPlayers || c.Players > c.A.Rules.MaxPlayers:
		return fmt.Errorf("--players %d is outside the ruleset's %d..%d", c.Players, c.A.Rules.MinPlayers, c.A.Rules.MaxPlayers)
	case c.Players > MaxSeats:
		return fmt.Errorf("--players %d is more than the %d seats a simulation tracks", c.Players, MaxSeats)
	case c.B != nil && (c.Players < c.B.Rules.MinPlayers || c.Players > c.B.Rules.MaxPlayers):
		return fmt.Errorf("--players %d is outside the compared ruleset's %d..%d", c.Players, c.B.Rules.MinPlayers, c.B.Rules.MaxPlayers)
	case c.Classes != nil && len(c.Classes) != c.Players:
		return fmt.Errorf("--classes names %d classes for %d players", len(c.Classes), c.Players)
	case len(c.Bots) == 0:
		return fmt.Errorf("--bots names no policy")
	case c.Workers < 1:
		return fmt.Errorf("--workers must be at least 1, not %d", c.Workers)
	case c.Shards < 1 || c.Shard < 0 || c.Shard >= c.Shards:
		return fmt.Errorf("shard %d/%d: want 0 <= I < N", c.Shard, c.Shards)
	case c.From < 0 || c.From >= c.Games || (c.From > 0 && c.Shards != 1):
		return fmt.Errorf("from game %d: want 0 <= from < %d games, unsharded", c.From, c.Games)
	case c.Precision < 0 || math.IsNaN(c.Precision) || c.Precision >= 1:
		return fmt.Errorf("--precision must be above 0 and below 100 percentage points")
	case c.Precision > 0 && c.Shards != 1:
		return fmt.Errorf("--precision decides the number of games from the results, which shards do not share: run it unsharded")
	case c.Records != nil && int64(len(c.Records)) < c.Games:
		return fmt.Errorf("records: %d for %d games", len(c.Records), c.Games)
	case int64(c.Shards) > c.Games:
		return fmt.Errorf("shard %d/%d: %d games cannot be split into %d shards (some would play no game); use at most %d shards", c.Shard, c.Shards, c.Games, c.Shards, c.Games)
	}
	for _, cl := range c.Classes {
		if !cl.Valid() {
			return fmt.Errorf("unknown class %q (want one of warrior, monk, duelist, scout)", cl)
		}
	}
	for _, b := range c.Bots {
		if _, err := bot.ByName(b); err != nil {
			return err
		}
	}
	return nil
}
