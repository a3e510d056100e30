package match

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// TagBotRandom is the tag of the random bot's pick among the legal moves.
const TagBotRandom rng.Tag = "bot.random.pick"

// Bot chooses a move for the seat the game awaits, among the state's own
// legal list for that seat (never empty).
type Bot interface {
	Name() string
	Choose(st game.State, seat int, legal []game.Move) game.Move
}

// Random picks uniformly among the game's listed legal moves, drawing
// from its own stream (rng.ChooseOne, TagBotRandom), never the game's.
type Random struct{ s *rng.Stream }

// NewRandom returns the random bot over s.
func NewRandom(s *rng.Stream) *Random { return &Random{s} }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose returns a uniformly chosen element of legal.
func (r *Random) Choose(_ game.State, _ int, legal []game.Move) game.Move {
	m, _, err := rng.ChooseOne(r.s, legal, TagBotRandom, nil)
	if err != nil {
		panic("match: the random bot was given no legal move")
	}
	return m
}

// styleBot is a game's heuristic style as a Bot.
type styleBot struct {
	name string
	p    game.Policy
}

func (b styleBot) Name() string { return b.name }
func (b styleBot) Choose(st game.State, seat int, legal []game.Move) game.Move {
	return b.p.Choose(st, seat, legal)
}

// BotNames lists the bots of def: "random", the search bot "mcts:N"
// (every game has both), then each style as NAME or NAME:N. The strategy
// bot "cfr:DIR", which every game has too but which needs a file that
// "gamectl solve --out DIR" wrote, is not listed.
func BotNames(def game.Definition) []string {
	names := []string{"random", "mcts:N"}
	for _, s := range def.Styles() {
		n := s.Name
		if s.Param != "" {
			n += ":" + s.Param
		}
		names = append(names, n)
	}
	return names
}

// CheckBot reports whether name is a bot of def (see NewBot), naming the
// known ones if not. A cfr:DIR bot's strategy is read and checked for
// def, not for a ruleset: CheckBotRules does that too.
func CheckBot(def game.Definition, name string) error {
	if name == "random" {
		return nil
	}
	if _, ok, err := mctsName(name); ok {
		return err
	}
	if dir, ok, err := cfrName(name); ok {
		if err != nil {
			return err
		}
		if _, err := LoadStrategy(def, dir); err != nil {
			return fmt.Errorf("bot %s: %w", name, err)
		}
		return nil
	}
	_, err := styleOf(def, name)
	return err
}

// CheckBotRules is CheckBot for a game under r (nil: the default): a
// cfr:DIR bot's strategy must also have been solved under r.
func CheckBotRules(def game.Definition, r game.Ruleset, name string) error {
	if dir, ok, err := cfrName(name); ok && err == nil {
		_, err := newCFRBot(def, r, name, dir, nil)
		return err
	}
	return CheckBot(def, name)
}

// NewBot returns def's bot called name: "random" (drawing from s), the
// search bot "mcts:N" with N simulations a move, 1 to MCTSMax (drawing
// from s, which it must not share: NewMCTS; "mcts" without N is refused),
// the strategy bot "cfr:DIR" (CFRBot, drawing from s, which it must not
// share; its strategy for def's default ruleset: NewBotRules for
// another), or a style, "NAME" or "NAME:N" with N in the style's range
// (its default when omitted). An unknown name or a bad N is an error
// naming the known bots; a strategy that cannot be read or is for
// another game or ruleset is an error naming its file and the problem.
func NewBot(def game.Definition, name string, s *rng.Stream) (Bot, error) {
	return NewBotRules(def, nil, name, s)
}

// NewBotRules is NewBot for a game under r (nil: the default ruleset).
func NewBotRules(def game.Definition, r game.Ruleset, name string, s *rng.Stream) (Bot, error) {
	if dir, ok, err := cfrName(name); ok {
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, fmt.Errorf("the strategy bot needs a stream")
		}
		return newCFRBot(def, r, name, dir, s)
	}
	if name == "random" {
		if s == nil {
			return nil, fmt.Errorf("the random bot needs a stream")
		}
		return NewRandom(s), nil
	}
	if n, ok, err := mctsName(name); ok {
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, fmt.Errorf("the search bot needs a stream")
		}
		return NewMCTS(n, s), nil
	}
	p, err := styleOf(def, name)
	if err != nil {
		return nil, err
	}
	return styleBot{name, p}, nil
}

func styleOf(def game.Definition, name string) (game.Policy, error) {
	base, arg, hasArg := strings.Cut(name, ":")
	for _, st := range def.Styles() {
		if st.Name != base {
			continue
		}
		n := st.Default
		switch {
		case hasArg && st.Param == "":
			return nil, fmt.Errorf("bot %q: %s takes no parameter", name, st.Name)
		case hasArg:
			v, err := strconv.Atoi(arg)
			if err != nil || v < st.Min || v > st.Max {
				return nil, fmt.Errorf("bot %q: %s must be a whole number in [%d, %d]", name, st.Param, st.Min, st.Max)
			}
			n = v
		}
		return st.New(n), nil
	}
	return nil, fmt.Errorf("unknown bot %q for %s (known: %s)", name, def.Name(), strings.Join(BotNames(def), ", "))
}
