package engine_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/rng/trustless"
)

// The legal-actions check: every listed action dispatches and every candidate not listed is refused.

// legalT is what the check reports to: the test, or a catchT in the
// positive controls.
type legalT interface {
	require.TestingT
	Helper()
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// legalCheck compares an enumeration (engine.LegalActions, or a broken
// variant in the positive controls) with Dispatch on one game: every
// listed action is accepted (on a copy of the game, with its stream) once
// the fields left to its sender are filled in as an honest sender does
// (fill), and every other candidate action Dispatch is offered, filled in
// the same way, is refused. The candidates are every kind with the values
// of the fields it reads: as a card, each card a player holds, each card
// of a discard pile or an enemy on the table, a card still in a draw pile,
// "" and an unknown id; as a target (a duel's, a removed seat's), each
// seated uid, "" and an unknown uid; in the lobby, each seat from -1 to
// maxPlayers with each class (and "" and an unknown class) and either
// KeepSmokeBomb for a join (in play, one join); for a reveal, each seat
// from -1 to maxPlayers at each index from 0 to the pending one + 1 with
// the pending round's digest and transcript, and the actor's seat and the
// pending index with another digest, another transcript or none. Actors
// are the awaited player, the owner, another seated player (each in
// turn), one who is not seated, the server (engine.ServerActor) and "".
type legalCheck struct {
	t     legalT
	eng   *engine.Engine
	rules *engine.Ruleset
	buf   []engine.Action
	cands []engine.Action
	// list is the enumeration under test.
	list func(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action
	// off plays without checking (the search for a game that reaches a
	// state), still counting what is listed in reached.
	off bool
	// seen counts, by "phase/step/kind", the actions listed in the states
	// checked, and by "mode: phase/kind" those of trustless games (mode
	// "trustless", or "pending" while a round is) and of fair games with
	// openings ("openings"); reached the same in the game being played.
	seen, reached map[string]int
	// states counts the states checked.
	states int

	// The sender's side (fill): its clock, each uid's signing key and, in
	// the trustless game being played, each seated uid's chain.
	now    int64
	keys   map[string]ed25519.PrivateKey
	chains map[string]*trustless.Chain
	sigs   map[string]string
}

func newLegalCheck(t legalT, rules *engine.Ruleset) *legalCheck {
	return &legalCheck{t: t, eng: engine.NewReference(rules), rules: rules, list: engine.LegalActions,
		seen: map[string]int{}, reached: map[string]int{}, keys: map[string]ed25519.PrivateKey{}, chains: map[string]*trustless.Chain{}, sigs: map[string]string{}}
}

// secret returns the test's 32-byte secret of uid for a purpose: its key's
// seed, its contribution, its chain's secret.
func secret(purpose, uid string) [32]byte {
	return sha256.Sum256([]byte("fairboard/legal-test/" + purpose + "\x00" + uid))
}

// key returns uid's signing key.
func (lc *legalCheck) key(uid string) ed25519.PrivateKey {
	k, ok := lc.keys[uid]
	if !ok {
		seed := secret("key", uid)
		k = ed25519.NewKeyFromSeed(seed[:])
		lc.keys[uid] = k
	}
	return k
}

// contribution returns uid's 32-byte contribution to a fair game with
// openings, in hex.
func contribution(uid string) string {
	c := secret("contribution", uid)
	return hex.EncodeToString(c[:])
}

// fill returns a as an honest sender sends it, filling in what
// engine.LegalActions leaves to the sender: Version (the game's), At (the
// test's clock; one past the deadline for an abort or a removeSeat), a
// fair join's commitment to the actor's contribution (with openings), an
// open's contribution, a trustless join's chain head (the actor's real
// chain if it has one in this game, else any 32 bytes) and public key, a
// reveal's link (the actor's chain's, for the index asked) and, in a
// trustless game, the signature by the actor's key of every action of a
// seated actor and of every join. A fair join's Entropy is left as it is.
func (lc *legalCheck) fill(g *engine.Game, a engine.Action) engine.Action {
	p := &g.Public
	a.Version, a.At = p.Version, lc.now
	f, t := p.Fairness, p.Trustless
	openings := f != nil && f.Openings
	if p.RNG.Mode != rng.ModeTrustless {
		t = nil
	}
	switch a.Kind {
	case engine.ActJoin:
		if openings {
			c, err := fair.ParseContribution(contribution(a.Actor))
			require.NoError(lc.t, err)
			h := fair.ContributionCommitment(p.GameID, uint32(a.Seat), c)
			a.EntropyCommitment = hex.EncodeToString(h[:])
		}
		if t != nil {
			head := secret("head", a.Actor)
			if ch := lc.chains[a.Actor]; ch != nil {
				head = ch.Head()
			}
			a.ChainHead = hex.EncodeToString(head[:])
			a.PublicKey = hex.EncodeToString(lc.key(a.Actor).Public().(ed25519.PublicKey))
		}
	case engine.ActOpen:
		if openings {
			a.Entropy = contribution(a.Actor)
		}
	case engine.ActRemoveSeat:
		if openings && f.OpenDeadline != 0 {
			a.At = f.OpenDeadline + 1
		}
	case engine.ActAbort:
		if t != nil && t.Pending != nil {
			a.At = t.Pending.Deadline + 1
		}
	case engine.ActReveal:
		if t == nil {
			return a // refused in any other game: no chain, nothing to sign
		}
		var link [32]byte
		if ch := lc.chains[a.Actor]; ch != nil && a.Index >= 1 && a.Index <= ch.Len() {
			var err error
			link, err = ch.Link(a.Index)
			require.NoError(lc.t, err)
		}
		a.Link = hex.EncodeToString(link[:])
		digest, _ := engine.ParseHash32(a.Digest, "digest")
		tr, _ := engine.ParseHash32(a.Transcript, "transcript")
		msg := trustless.RevealMessage(p.GameID, a.Index, (*[32]byte)(&digest), (*[32]byte)(&tr))
		a.Signature = lc.sign(a.Actor, msg)
		return a
	}
	if t == nil || a.Actor == "" {
		return a
	}
	if ts, _ := t.Seat(a.Actor); ts != nil || a.Kind == engine.ActJoin {
		msg, err := engine.ActionMessage(p.GameID, &a)
		require.NoError(lc.t, err)
		a.Signature = lc.sign(a.Actor, msg)
	}
	return a
}

// sign returns uid's signature of msg in hex. The signatures of the state
// being checked are kept: a reveal's message names no seat, so the
// candidate reveals of an actor share a few messages.
func (lc *legalCheck) sign(uid string, msg []byte) string {
	k := uid + "\x00" + string(msg)
	sig, ok := lc.sigs[k]
	if !ok {
		sig = hex.EncodeToString(ed25519.Sign(lc.key(uid), msg))
		lc.sigs[k] = sig
	}
	return sig
}

// candidates returns the actions of uid that the check offers Dispatch,
// in canonical form (the fields left to the sender zero).
func (lc *legalCheck) candidates(g *engine.Game, uid string) []engine.Action {
	r := lc.rules
	out := lc.cands[:0]
	ids := []string{"", "no-such-card"}
	for _, p := range g.Public.Players {
		ids = append(ids, p.Items...)
	}
	for _, d := range g.Public.Decks {
		ids = append(ids, d.Discard...)
		if len(d.Pile) > 0 { // a trustless game's public pile
			ids = append(ids, d.Pile[0])
		}
	}
	if cb := g.Public.Combat; cb != nil {
		for _, e := range cb.Enemies {
			ids = append(ids, e.CardID)
		}
	}
	for _, d := range g.Secret.Decks {
		if len(d.Cards) > 0 {
			ids = append(ids, d.Cards[0])
		}
	}
	targets := []string{"", "nobody"}
	for _, p := range g.Public.Players {
		targets = append(targets, p.UID)
	}
	classes := []engine.Class{"", "bard"}
	classes = append(classes, engine.Classes...)
	for _, k := range engine.ActionKinds {
		a := engine.Action{Kind: k, Actor: uid}
		switch k {
		case engine.ActCreate:
			// Create is never listed: it is refused on a created game,
			// and a game not yet created is not one to list actions of.
			if g.Public.Phase != engine.PhaseNone {
				a.GameID, a.Mode, a.Seed = "again", "seeded", "again"
				out = append(out, a)
			}
		case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
			for _, id := range ids {
				a.CardID = id
				out = append(out, a)
			}
		case engine.ActOfferDuel, engine.ActRemoveSeat:
			for _, u := range targets {
				a.Target = u
				out = append(out, a)
			}
		case engine.ActJoin:
			if g.Public.Phase != engine.PhaseLobby {
				a.Seat, a.Class = len(g.Public.Players), engine.ClassMonk
				out = append(out, a)
				continue
			}
			for seat := -1; seat <= r.MaxPlayers; seat++ {
				for _, c := range classes {
					for _, keep := range []bool{false, true} {
						a.Seat, a.Class, a.KeepSmokeBomb = seat, c, keep
						out = append(out, a)
					}
				}
			}
		case engine.ActReveal:
			out = lc.revealCandidates(g, a, out)
		default:
			out = append(out, a)
		}
	}
	lc.cands = out
	return out
}

// revealCandidates appends the reveals of a.Actor the check offers.
func (lc *legalCheck) revealCandidates(g *engine.Game, a engine.Action, out []engine.Action) []engine.Action {
	var next uint32 = 1
	var digest, tr engine.Hash32
	mine := 0
	if t := g.Public.Trustless; t != nil {
		next = t.NextIndex
		if pd := t.Pending; pd != nil {
			digest, tr = pd.Digest, pd.Transcript
		}
		if ts, _ := t.Seat(a.Actor); ts != nil {
			mine = ts.Seat
		}
	}
	a.Digest, a.Transcript = digest.String(), tr.String()
	// 0, the last index, the next and the one after
	indices := []uint32{0, next - 1, next, next + 1}
	if next == 1 {
		indices = indices[1:]
	}
	for seat := -1; seat <= lc.rules.MaxPlayers; seat++ {
		for _, v := range indices {
			a.Seat, a.Index = seat, v
			out = append(out, a)
		}
	}
	other := engine.Hash32(sha256.Sum256([]byte("another")))
	a.Seat, a.Index = mine, next
	for _, dt := range [][2]string{{other.String(), tr.String()}, {digest.String(), other.String()}, {"", ""}} {
		a.Digest, a.Transcript = dt[0], dt[1]
		out = append(out, a)
	}
	return out
}

// actors returns the uids the check asks about on p, each once.
func (lc *legalCheck) actors(p *engine.Public) []string {
	uids := []string{"", "stranger", engine.ServerActor, p.Owner, p.Awaiting}
	if n := len(p.Players); n > 0 {
		uids = append(uids, p.Players[(lc.states+int(p.Version))%n].UID)
	}
	out := uids[:0]
	for _, u := range uids {
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// stream returns the stream a server dispatches a on g with
// (session.StreamFor), nil for a game not yet created.
func (lc *legalCheck) stream(g *engine.Game, a *engine.Action) *rng.Stream {
	if g.Public.Phase == engine.PhaseNone {
		return nil
	}
	s, err := session.StreamFor(g, a)
	require.NoError(lc.t, err)
	return s
}

// count records a listed action in seen and reached.
func (lc *legalCheck) count(p *engine.Public, a *engine.Action, checked bool) {
	keys := [2]string{string(p.Phase) + "/" + string(p.Step) + "/" + string(a.Kind)}
	switch {
	case p.Trustless != nil && p.Trustless.Pending != nil:
		keys[1] = "pending: " + string(p.Phase) + "/" + string(a.Kind)
	case p.Trustless != nil:
		keys[1] = "trustless: " + string(p.Phase) + "/" + string(a.Kind)
	case p.Fairness != nil && p.Fairness.Openings:
		keys[1] = "openings: " + string(p.Phase) + "/" + string(a.Kind)
	}
	for _, k := range keys {
		if k == "" {
			continue
		}
		lc.reached[k]++
		if checked {
			lc.seen[k]++
		}
	}
}

// check compares the enumeration with Dispatch for the actors on g, whose
// generator state is saved in it (SaveStream).
func (lc *legalCheck) check(g *engine.Game) {
	t := lc.t
	t.Helper()
	p := &g.Public
	if lc.off {
		lc.buf = lc.list(p, lc.rules, p.Awaiting, engine.AllKinds, lc.buf)
		for i := range lc.buf {
			lc.count(p, &lc.buf[i], false)
		}
		return
	}
	lc.states++
	clear(lc.sigs)
	phase, step := p.Phase, p.Step // as they were: a wrongly accepted candidate changes them
	// One stream for every candidate but a trustless reveal (StreamFor
	// makes the closing reveal's): a refusal draws nothing from it.
	s := lc.stream(g, &engine.Action{})
	var seq uint64
	if s != nil {
		seq = s.Seq()
	}
	before, err := g.Hash()
	require.NoError(t, err)
	for _, uid := range lc.actors(p) {
		lc.buf = lc.list(p, lc.rules, uid, engine.AllKinds, lc.buf)
		legal := slices.Clone(lc.buf)
		for i := range legal {
			a := lc.fill(g, legal[i])
			require.Equal(t, uid, a.Actor)
			lc.count(p, &legal[i], true)
			c := g.Clone()
			if _, err := lc.eng.Dispatch(c, &a, lc.stream(c, &a), nil); err != nil {
				t.Fatalf("listed %+v is refused in %s/%s: %v", legal[i], phase, step, err)
			}
		}
		// Every other candidate must be refused: a refusal leaves the game
		// as it was, so they are tried on g itself.
		for _, c := range lc.candidates(g, uid) {
			if slices.Contains(legal, c) {
				continue
			}
			a := lc.fill(g, c)
			cs := s
			if a.Kind == engine.ActReveal && p.RNG.Mode == rng.ModeTrustless {
				cs = lc.stream(g, &a)
			}
			if _, err := lc.eng.Dispatch(g, &a, cs, nil); err == nil {
				t.Fatalf("%+v is accepted in %s/%s but not listed (listed: %v)", c, phase, step, kindsOf(legal))
			}
		}
	}
	after, err := g.Hash()
	require.NoError(t, err)
	require.Equal(t, before, after)
	if s != nil {
		require.Equal(t, seq, s.Seq())
	}
}

func kindsOf(as []engine.Action) []string {
	var out []string
	for _, a := range as {
		out = append(out, fmt.Sprintf("%s(%s%s)", a.Kind, a.CardID, a.Target))
	}
	return out
}
