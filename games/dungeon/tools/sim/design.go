package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// DesignName names the way a run assigns classes and bot policies to seats.
// It is recorded in results.json (merging refuses shards of another design)
// and changes whenever the assignment of any game changes.
const DesignName = "balanced-rotation/2"

// The design: which class and which bot policy each seat of game i plays.
// It is a function of the game index and the configuration only (never of
// the seed or of the worker), so any game can be rebuilt on its own and any
// shard plays its games exactly as the whole run does.
//
// With C classes in rotation (4 for --classes mixed, 1 when --classes fixes
// them) and L entries in the --bots list, game i is split as
//
//	r = i mod C, k = i div C, u = k mod L, v = k div L
//
// and seat j (0-based) plays
//
//	class  Classes[(r + j) mod C]             (or --classes[j] when fixed)
//	bot    Bots[(j + u + digit_j(v)) mod L]   digit_j(v): the j-th base-L digit of v
//
// so that:
//
//   - in every block of C·L consecutive games starting at a multiple of C·L,
//     each seat plays each class with each bot exactly once: class, bot and
//     seat are balanced against each other (no factor is aliased with
//     another), whatever the number of players;
//   - over C·L^(P+1) games (128 for 4 players and two bots) every
//     combination of the seats' bots occurs with every class rotation, so no
//     class is always played beside the same opponents' policies;
//   - with --classes mixed and at most 4 players, a game never repeats a
//     class.
//
// The only aliasing left is the one the options force: when --classes fixes
// each seat's class, class and seat are the same factor (see Aliases).

// classCycle returns C, the number of classes the design rotates.
func (c *Config) classCycle() int64 {
	if c.Classes != nil {
		return 1
	}
	return int64(len(engine.Classes))
}

// Block returns the number of games in one balanced block (C·L): a run of
// a multiple of it has every (seat, class, bot) combination equally often.
func (c *Config) Block() int64 { return c.classCycle() * int64(max(len(c.Bots), 1)) }

// seating returns the seats and the policy names of game i (see the design
// above). seats and names are reused buffers; pool, if not nil, keeps the
// worker's search bots (one per seat and name) from game to game.
func (c *Config) seating(i int64, seats []bot.Seat, names []string, pool policyPool) ([]bot.Seat, []string) {
	seats, names = seats[:0], names[:0]
	cc, l := c.classCycle(), int64(len(c.Bots))
	r, k := i%cc, i/cc
	u, v := k%l, k/l
	for j := 0; j < c.Players; j++ {
		var cl engine.Class
		if c.Classes != nil {
			cl = c.Classes[j]
		} else {
			cl = engine.Classes[(r+int64(j))%cc]
		}
		digit := v % l
		v /= l
		name := c.Bots[(int64(j)+u+digit)%l]
		seats = append(seats, bot.Seat{Class: cl, Policy: pool.get(j, name)})
		names = append(names, name)
	}
	return seats, names
}

// DescribeDesign says in words how the run assigns seats, classes and bots,
// for the report and the terminal.
func (c *Config) DescribeDesign() string {
	var b strings.Builder
	if c.Classes == nil {
		fmt.Fprintf(&b, "Classes rotate over the seats: in game i, seat j plays the ((i + j) mod 4)-th of %s. ", joinClasses(engine.Classes))
	} else {
		fmt.Fprintf(&b, "Every game seats the same classes: %s (seat 0 first). ", joinClasses(c.Classes))
	}
	if distinct(c.Bots) == 1 {
		fmt.Fprintf(&b, "Every seat plays the %s bot, so no bot effect is measured. ", c.Bots[0])
	} else {
		fmt.Fprintf(&b, "Bot policies (%s) are dealt so that every %d consecutive games each seat plays each class with each policy once, and over longer runs every combination of the seats' policies occurs. ",
			strings.Join(c.Bots, ", "), c.Block())
	}
	b.WriteString("Turn order is rolled in each game, so position is not assigned.")
	return b.String()
}

// Aliases returns a warning for each pair of factors the options force
// together, and for a run too short to balance them; none for the defaults.
func (c *Config) Aliases() []string {
	var out []string
	if c.Classes != nil && distinct(classStrings(c.Classes)) > 1 {
		out = append(out, "--classes fixes the class of each seat, so class and seat are aliased: "+
			"\"win rate by class\" and \"win rate by seat\" measure the same thing and neither effect can be told apart from the other. "+
			"Use --classes mixed to separate them.")
	}
	if c.Games < c.Block() && (c.Classes == nil || distinct(c.Bots) > 1) {
		out = append(out, fmt.Sprintf("The run's %d games are fewer than one balanced block (%d games): "+
			"classes, bots and seats are not yet balanced against each other. Run at least %d games.", c.Games, c.Block(), c.Block()))
	}
	return out
}

func distinct(xs []string) int {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	return len(seen)
}

func classStrings(cs []engine.Class) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

func joinClasses(cs []engine.Class) string { return strings.Join(classStrings(cs), ", ") }

// policyPool keeps a worker's search bots, one per seat and name: a search
// bot is a seat's memory and stream, reused from game to game (each game
// gives it a new stream). The built-in policies are values, made afresh.
type policyPool map[poolKey]policy.Policy

type poolKey struct {
	seat int
	name string
}

// get returns the policy of the name for seat j (validated names only).
func (pp policyPool) get(j int, name string) policy.Policy {
	if pp == nil || !IsSearcher(name) {
		p, _ := bot.ByName(name) // validated
		return p
	}
	k := poolKey{j, name}
	p, ok := pp[k]
	if !ok {
		p, _ = bot.ByName(name)
		pp[k] = p
	}
	return p
}

// IsSearcher reports whether the bot name is a search bot (mcts:N), which
// draws from a stream of its own.
func IsSearcher(name string) bool { return strings.HasPrefix(name, "mcts:") }

// searchers reports whether any of the bots is a search bot.
func searchers(bots []string) bool { return slices.ContainsFunc(bots, IsSearcher) }

// BotSeed returns the bot seed of game i of a run seeded with seed: the
// search bots of that game draw from bot.StreamFor(BotSeed(seed, i),
// seat). It is the first 16 bytes of SHA-256("fairboard/bot-seed/v1",
// seed, i), in hex: a seed of its own, from which neither the run's seed
// nor the game's seed ("seed#i") can be computed, so a bot holding its
// stream learns nothing of the game's dice or deck orders.
func BotSeed(seed string, i int64) string {
	h := sha256.New()
	h.Write([]byte("fairboard/bot-seed/v1\x00"))
	h.Write([]byte(seed))
	h.Write([]byte{0})
	h.Write([]byte(strconv.FormatInt(i, 10)))
	return hex.EncodeToString(h.Sum(nil)[:16])
}
