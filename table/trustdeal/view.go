package trustdeal

import (
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// View is what every reader of the hand sees: the passes, the keys
// published, the moves, the game's public part, the wait (never a staged
// key or reveal: only who staged), and once done the record's reveals and
// the settlement.
type View struct {
	Phase    Phase
	Deadline int64
	// NextSeat is the seat whose pass the deal awaits (-1 after both
	// passes).
	NextSeat int
	Passes   []*mentalpoker.PassMessage
	Keys     []*mentalpoker.KeyMessage
	Moves    []game.Move
	Opened   []match.OpenedCard
	ToMove   int
	Legal    []game.Move
	Public   string
	// Pending is the move waiting for the keys of positions Open; Staged
	// the seats that have staged theirs (or, in PhaseReveal, revealed).
	Pending *game.Move
	Open    []int
	Staged  []int
	// Reveals, Forfeit and Payoffs once done; Refused then the pass
	// refused as a proven cheat, the forfeit's evidence (the record's),
	// if any (CheckCheat checks it).
	Reveals []*mentalpoker.RevealMessage
	Forfeit *match.DealForfeit
	Payoffs []float64
	Refused *mentalpoker.PassMessage `json:",omitempty"`
}

// View returns the public view.
func (s *Server) View() *View {
	_, next := s.tb.Next()
	st := s.m.State()
	v := &View{Phase: s.phase, Deadline: s.deadline, NextSeat: next, Passes: slices.Clone(s.rec.Passes),
		Keys: slices.Clone(s.rec.Keys), Moves: slices.Clone(s.rec.Moves), Opened: slices.Clone(s.rec.Opened),
		ToMove: st.ToMove(), Public: string(st.AppendPublic(nil)), Open: slices.Clone(s.want)}
	if s.phase == PhasePlay && v.ToMove != game.Nobody {
		v.Legal = st.Legal(v.ToMove, nil)
	}
	if s.pending != nil {
		mv := *s.pending
		v.Pending = &mv
	}
	for seat := range s.cfg.Keys {
		if s.staged[seat] != nil || s.phase == PhaseReveal && s.reveals[seat] != nil {
			v.Staged = append(v.Staged, seat)
		}
	}
	if s.phase == PhaseDone {
		v.Reveals, v.Forfeit, v.Payoffs, v.Refused = slices.Clone(s.rec.Reveals), s.rec.Forfeit, slices.Clone(s.rec.Payoffs), s.rec.Refused
	}
	return v
}

// ServerState returns what the server's game state holds for each seat
// (its private part) and its secret part, for tests that check the
// server never holds a card before the game opens it.
func (s *Server) ServerState() (private []string, secret string) {
	st := s.m.State()
	for seat := range s.cfg.Keys {
		private = append(private, string(st.AppendPrivate(nil, seat)))
	}
	return private, string(st.AppendSecret(nil))
}

// Held returns every key the server holds, published or staged (the
// twin table's), for tests: with the passes, all it could open a card
// with.
func (s *Server) Held() []*mentalpoker.KeyMessage {
	out := slices.Clone(s.rec.Keys)
	for seat := range s.cfg.Keys {
		out = append(out, s.staged[seat]...)
	}
	return out
}

// sizeProbe is a game.Dealer that only notes a deck's size.
type sizeProbe struct{ n int }

func (p *sizeProbe) DealPrivate(n int, _ []int, _ rng.Tag, _ *rng.Ctx) {
	p.n = n
	panic(rng.Refusal)
}

func (p *sizeProbe) DrawCard(_ string, n, _, _ int, _ rng.Tag, _ *rng.Ctx) int {
	p.n = n
	panic(rng.Refusal)
}

func (p *sizeProbe) OpenPublic(string, []int) []int { panic(rng.Refusal) }
