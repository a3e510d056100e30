package commitreveal

import (
	"errors"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// TestRoundOutOfOrder tries every call in every phase it is not allowed in.
func TestRoundOutOfOrder(t *testing.T) {
	deck := rng.NewDeck()
	srv, _ := NewServerRoundSeed(testSeed(5), deck)
	cli, _ := NewClientRound(srv.Commitment(), deck)
	if srv.Phase() != PhaseCommitted || cli.Phase() != PhaseCommitted || !srv.IsServer() || cli.IsServer() {
		t.Fatal("bad start")
	}
	wantPhase := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrPhase) {
			t.Errorf("%s: %v, want ErrPhase", what, err)
		}
	}
	// Committed: no reveal, no dealt order, no final seed yet.
	wantPhase("server Reveal before client seed", second(srv.Reveal()))
	wantPhase("server Dealt before client seed", second(srv.Dealt()))
	wantPhase("client AcceptReveal before client seed", cli.AcceptReveal(testSeed(5)))
	wantPhase("server FinalSeed before reveal", second(srv.FinalSeed()))
	wantPhase("server CheckDealt before client seed", srv.CheckDealt(deck))
	// Wrong side.
	wantPhase("client Reveal", second(cli.Reveal()))
	wantPhase("server AcceptReveal", srv.AcceptReveal(testSeed(5)))
	// A bad client seed is refused without moving on.
	if err := srv.SetClientSeed(nil); !errors.Is(err, ErrInput) || srv.Phase() != PhaseCommitted {
		t.Fatalf("empty client seed: %v, phase %s", err, srv.Phase())
	}
	for _, r := range []*Round{srv, cli} {
		if err := r.SetClientSeed([]byte("cs")); err != nil {
			t.Fatal(err)
		}
		wantPhase("second SetClientSeed", r.SetClientSeed([]byte("other")))
	}
	// ClientSeeded: the server deals, the client cannot see the order yet.
	dealt, err := srv.Dealt()
	if err != nil {
		t.Fatal(err)
	}
	wantPhase("client Dealt before reveal", second(cli.Dealt()))
	wantPhase("client FinalSeed before reveal", second(cli.FinalSeed()))
	seed, err := srv.Reveal()
	if err != nil {
		t.Fatal(err)
	}
	wantPhase("second Reveal", second(srv.Reveal()))
	if err := cli.AcceptReveal(seed); err != nil {
		t.Fatal(err)
	}
	wantPhase("second AcceptReveal", cli.AcceptReveal(seed))
	wantPhase("SetClientSeed after reveal", cli.SetClientSeed([]byte("x")))
	fsS, err1 := srv.FinalSeed()
	fsC, err2 := cli.FinalSeed()
	if err1 != nil || err2 != nil || fsS != fsC {
		t.Fatalf("final seeds %x %v / %x %v", fsS, err1, fsC, err2)
	}
	if err := cli.CheckDealt(dealt); err != nil {
		t.Fatal(err)
	}
	dealt[0], dealt[1] = dealt[1], dealt[0]
	if err := cli.CheckDealt(dealt); !errors.Is(err, ErrShuffleMismatch) {
		t.Fatalf("swapped claim: %v", err)
	}
	if again, _ := srv.Dealt(); again[0] == dealt[0] {
		t.Fatal("Dealt returned the round's own slice")
	}
	if srv.Phase() != PhaseRevealed || cli.Phase() != PhaseRevealed || cli.Failure() != nil {
		t.Fatalf("end phases %s %s", srv.Phase(), cli.Phase())
	}
}

// TestRoundCopiesInputs: changing the caller's deck or seeds afterwards
// does not change the round.
func TestRoundCopiesInputs(t *testing.T) {
	deck, seed, cs := rng.NewDeck(), testSeed(2), []byte("cs")
	srv, _ := NewServerRoundSeed(seed, deck)
	_ = srv.SetClientSeed(cs)
	before, _ := srv.Dealt()
	deck[0], seed[0], cs[0] = "zz", 0xff, 'x'
	after, _ := srv.Dealt()
	revealed, _ := srv.Reveal()
	if before[0] != after[0] || revealed[0] != 2 || srv.Deck()[0] != "AS" {
		t.Fatal("round shares memory with its caller")
	}
	if err := VerifyReveal(srv.Commitment(), revealed, rng.NewDeck()); err != nil {
		t.Fatal(err)
	}
}

func TestPhaseString(t *testing.T) {
	for p, want := range map[Phase]string{PhaseCommitted: "committed", PhaseClientSeeded: "client-seeded",
		PhaseRevealed: "revealed", PhaseFailed: "failed", 0: "Phase(0)"} {
		if p.String() != want {
			t.Errorf("%d: %q", int(p), p.String())
		}
	}
}
