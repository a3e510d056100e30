package matchtest

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// CheckReset plays each of cfgs (lean, seeded) twice, move by move: on
// one match that match.Match.Reset carries from game to game, and on a
// fresh match.New. Every seat plays the bot named bot (match.NewBot, on
// the stream of the config's seed + "/bots", one per side). It returns an
// error naming the first game and move where the two differ: the seat
// awaited, its legal moves, a move one refuses, or at the end the
// outcome, the positions or the public part (public, or AppendPublic
// when nil: a game whose quiet state leaves records out of its public
// part passes the part it keeps).
func CheckReset(def game.Definition, cfgs []match.Config, bot string, public func(game.State) []byte) error {
	if public == nil {
		public = func(st game.State) []byte { return st.AppendPublic(nil) }
	}
	var kept *match.Match
	for g, cfg := range cfgs {
		fresh, err := match.New(def, cfg)
		if err != nil {
			return fmt.Errorf("game %d: New: %w", g, err)
		}
		if kept == nil {
			kept, err = match.New(def, cfg)
		} else {
			err = kept.Reset(cfg)
		}
		if err != nil {
			return fmt.Errorf("game %d: Reset: %w", g, err)
		}
		bf, err1 := botOf(def, bot, cfg.Seed)
		bk, err2 := botOf(def, bot, cfg.Seed)
		if err := cmpErr(err1, err2); err != nil {
			return err
		}
		var lf, lk []game.Move
		for n := 0; ; n++ {
			a, b := fresh.State().ToMove(), kept.State().ToMove()
			if a != b {
				return fmt.Errorf("game %d (%s), move %d: New awaits seat %d, Reset %d", g, cfg.Seed, n, a, b)
			}
			if a == game.Nobody {
				break
			}
			lf, lk = fresh.State().Legal(a, lf), kept.State().Legal(a, lk)
			if !slices.Equal(lf, lk) {
				return fmt.Errorf("game %d (%s), move %d: legal moves %v after New, %v after Reset", g, cfg.Seed, n, lf, lk)
			}
			if len(lf) == 0 {
				return fmt.Errorf("game %d (%s), move %d: seat %d has no legal move", g, cfg.Seed, n, a)
			}
			mf, mk := bf.Choose(fresh.State(), a, lf), bk.Choose(kept.State(), a, lk)
			if mf != mk {
				return fmt.Errorf("game %d (%s), move %d: the bot chose %v after New, %v after Reset", g, cfg.Seed, n, mf, mk)
			}
			_, err1 := fresh.Apply(mf)
			_, err2 := kept.Apply(mk)
			if err := cmpErr(err1, err2); err != nil {
				return fmt.Errorf("game %d (%s), move %d: %w", g, cfg.Seed, n, err)
			}
		}
		of, ok := fresh.State().Outcome(), kept.State().Outcome()
		if !slices.Equal(of.Winners, ok.Winners) || !slices.Equal(of.Payoffs, ok.Payoffs) {
			return fmt.Errorf("game %d (%s): outcome %+v after New, %+v after Reset", g, cfg.Seed, of, ok)
		}
		for s := range cfg.Seats {
			if fresh.Position(s) != kept.Position(s) {
				return fmt.Errorf("game %d (%s): seat %d's position %d after New, %d after Reset", g, cfg.Seed, s, fresh.Position(s), kept.Position(s))
			}
		}
		if pf, pk := public(fresh.State()), public(kept.State()); !bytes.Equal(pf, pk) {
			return fmt.Errorf("game %d (%s): the public part differs after Reset:\nNew:   %s\nReset: %s", g, cfg.Seed, pf, pk)
		}
	}
	return nil
}

func botOf(def game.Definition, name, seed string) (match.Bot, error) {
	s, err := rng.NewSeeded(seed + "/bots")
	if err != nil {
		return nil, err
	}
	return match.NewBot(def, name, s)
}

// cmpErr is nil when both are nil, else an error saying which failed.
func cmpErr(a, b error) error {
	switch {
	case a == nil && b == nil:
		return nil
	case a != nil && b != nil:
		return fmt.Errorf("both refused: %v / %v", a, b)
	case a != nil:
		return fmt.Errorf("New's side refused: %w", a)
	default:
		return fmt.Errorf("Reset's side refused: %w", b)
	}
}
