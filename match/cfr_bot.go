package match

import (
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// TagBotCFR is the tag of a cfr:DIR bot's draw among its moves.
const TagBotCFR rng.Tag = "bot.cfr.pick"

// CFRBot is the bot cfr:DIR: it plays the strategy that "gamectl solve
// --out DIR" wrote (DIR/strategy.json): at its seat's information state
// (AppendInfoKey) it draws a move with the table's probabilities, one
// Float01 from its own stream (TagBotCFR). A state whose key is not in
// the table, or whose legal moves are not the table's, has no fallback:
// Choose returns the first legal move and Err says which state, and the
// game driver (Play, Simulate) stops the game with that error.
type CFRBot struct {
	name string
	st   *Strategy
	s    *rng.Stream
	key  []byte
	err  error
}

// cfrName parses "cfr:DIR": ok false when name is not a cfr bot's.
func cfrName(name string) (dir string, ok bool, err error) {
	dir, ok = strings.CutPrefix(name, "cfr:")
	if !ok {
		if name != "cfr" {
			return "", false, nil
		}
		dir = ""
	}
	if dir == "" {
		return "", true, fmt.Errorf("bot %q: the strategy bot is cfr:DIR, DIR a directory that \"gamectl solve --out DIR\" wrote", name)
	}
	return dir, true, nil
}

// newCFRBot loads name's strategy for def, checks it against r (nil:
// the default) and returns the bot over s (nil: the bot can only give
// its probabilities, Probs).
func newCFRBot(def game.Definition, r game.Ruleset, name, dir string, s *rng.Stream) (*CFRBot, error) {
	st, err := LoadStrategy(def, dir)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", name, err)
	}
	if r == nil {
		r = def.DefaultRuleset()
	}
	if err := st.CheckRules(r); err != nil {
		return nil, fmt.Errorf("bot %s: %w", name, err)
	}
	return &CFRBot{name: name, st: st, s: s}, nil
}

// Name returns "cfr:DIR".
func (b *CFRBot) Name() string { return b.name }

// Err returns the first state Choose could not play from its table, nil
// if none.
func (b *CFRBot) Err() error { return b.err }

// Probs returns the table's probabilities at seat's key over legal, in
// legal's order; an error if the key is absent or its moves are not
// legal's.
func (b *CFRBot) Probs(seat int, key string, legal []game.Move) ([]float64, error) {
	is, ok := b.st.Info(seat, []byte(key))
	if !ok {
		return nil, fmt.Errorf("bot %s: seat %d's information state %q is not in %s (a strategy of another version of the game?)", b.name, seat, key, b.st.Path)
	}
	if len(is.Moves) != len(legal) {
		return nil, fmt.Errorf("bot %s: seat %d at %q: the table has %d moves, the game lists %d", b.name, seat, key, len(is.Moves), len(legal))
	}
	p := make([]float64, len(legal))
	for i, m := range legal {
		a := moveIndex(is.Moves, m)
		if a < 0 {
			return nil, fmt.Errorf("bot %s: seat %d at %q: the legal move %s is not in the table", b.name, seat, key, m.Kind)
		}
		p[i] = is.Probs[a]
	}
	return p, nil
}

// Choose draws a move from the table at seat's information state.
func (b *CFRBot) Choose(st game.State, seat int, legal []game.Move) game.Move {
	b.key = st.AppendInfoKey(b.key[:0], seat)
	p, err := b.Probs(seat, string(b.key), legal)
	if err != nil {
		if b.err == nil {
			b.err = err
		}
		return legal[0]
	}
	u := b.s.Float01(TagBotCFR, nil)
	a, acc := 0, 0.0
	for i, x := range p {
		if x > 0 {
			a, acc = i, acc+x
			if u < acc {
				break
			}
		}
	}
	return legal[a]
}
