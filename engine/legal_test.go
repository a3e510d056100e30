package engine_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/session"
)

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

// legalGame is one game of the test: its create action (by owner, "p1"
// if empty), the players' fair contributions, classes and built-in
// policies.
type legalGame struct {
	create  engine.Action
	owner   string
	entropy []string
	classes []engine.Class
	pols    []bot.Policy
	// unopened (a fair game with openings): one more player joins, never
	// opens, and is removed by the owner once the deadline has passed.
	unopened bool
	// sparse, if > 1, checks a trustless game in play fully in its first
	// round and then at one state in sparse (see TestLegalActionsProtocols).
	sparse int
}

// play plays the game as a server would (a fresh stream per action,
// session.StreamFor, saved after it; the clock one second further at
// each action), checking the enumeration before every action, the
// lobby's and each reveal included, and once the game is over. Every
// action is sent as an honest sender sends it (fill). Seat j chooses
// uniformly among the listed turn actions with probability 1/2, else as
// the built-in policy pols[j] would; the choices are drawn from a test
// stream seeded by name, so that a game can be played again with the
// same choices. In a trustless game the seats reveal each round in turn,
// seat index mod n first, each the reveal the enumeration lists for it.
func (lc *legalCheck) play(lg legalGame, name string) *engine.Game {
	t := lc.t
	t.Helper()
	lc.reached = map[string]int{}
	clear(lc.chains)
	lc.now = 1_000_000
	pick, err := rng.NewSeeded("legal-pick-" + name)
	require.NoError(t, err)
	g := &engine.Game{}
	owner := lg.owner
	if owner == "" {
		owner = bot.UID(0)
	}
	apply := func(a engine.Action, entropy string) {
		t.Helper()
		lc.now += 1000
		a = lc.fill(g, a)
		a.Entropy += entropy
		lc.now = max(lc.now, a.At)
		s := lc.stream(g, &a)
		if _, err := lc.eng.Dispatch(g, &a, s, nil); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
		if s != nil {
			require.NoError(t, g.SaveStream(s))
		}
	}
	lc.check(g) // the game not yet created: nothing is listed or accepted
	create := lg.create
	create.Kind, create.Actor = engine.ActCreate, owner
	apply(create, "")
	trust := g.Public.RNG.Mode == rng.ModeTrustless
	n := len(lg.classes)
	if lg.unopened {
		n++
	}
	for i := range n {
		lc.check(g)
		uid := bot.UID(i)
		if trust {
			ch, err := trustless.NewChain(g.Public.GameID, uint32(i), g.Public.Trustless.ChainLength, secret("chain", uid))
			require.NoError(t, err)
			lc.chains[uid] = ch
		}
		a := engine.Action{Kind: engine.ActJoin, Actor: uid, Seat: i, Class: engine.Classes[i%4], KeepSmokeBomb: i%3 == 2}
		if i < len(lg.classes) {
			a.Class = lg.classes[i]
		}
		entropy := ""
		if i < len(lg.entropy) {
			entropy = lg.entropy[i]
		}
		apply(a, entropy)
	}
	if f := g.Public.Fairness; f != nil && f.Openings {
		for i := range len(lg.classes) {
			lc.check(g)
			apply(engine.Action{Kind: engine.ActOpen, Actor: bot.UID(i)}, "")
		}
		if lg.unopened {
			lc.check(g)
			apply(engine.Action{Kind: engine.ActRemoveSeat, Actor: owner, Target: bot.UID(n - 1)}, "")
		}
	}
	lc.check(g)
	apply(engine.Action{Kind: engine.ActStart, Actor: owner}, "")
	for k := 0; g.Public.Phase != engine.PhaseFinished; k++ {
		require.Less(t, k, 20000, "the game did not finish")
		p := &g.Public
		if lg.sparse <= 1 || p.Phase == engine.PhaseLobby || p.Round <= 1 || k%lg.sparse == 0 {
			lc.check(g)
		}
		if trust && p.Trustless.Pending != nil {
			apply(lc.nextReveal(p), "")
			continue
		}
		uid := p.Awaiting
		_, seat := p.Player(uid)
		turn := lc.list(p, lc.rules, uid, engine.TurnKinds, nil)
		require.NotEmpty(t, turn, "the game awaits %s, who has nothing to do", uid)
		var a engine.Action
		if pick.Uint32(rng.TagTestOnly, nil)%2 == 0 {
			i, err := pick.UniformInt(0, int64(len(turn)-1), rng.TagTestOnly, nil)
			require.NoError(t, err)
			a = turn[i]
		} else {
			a = lg.pols[seat].Choose(p, lc.rules, uid)
		}
		apply(a, "")
	}
	lc.check(g) // finished: nothing is listed or accepted
	require.Equal(t, engine.PhaseFinished, g.Public.Phase)
	return g
}

// nextReveal returns the reveal the enumeration lists for the first seat,
// from the pending index mod n on, that has not revealed the round.
func (lc *legalCheck) nextReveal(p *engine.Public) engine.Action {
	t := p.Trustless
	for k := range t.Seats {
		uid := t.Seats[(int(t.Pending.Index)+k)%len(t.Seats)].UID
		if as := lc.list(p, lc.rules, uid, engine.KindsOf(engine.ActReveal), nil); len(as) > 0 {
			require.Len(lc.t, as, 1)
			return as[0]
		}
	}
	lc.t.Fatalf("round %d is pending but no seat has a reveal listed", t.Pending.Index)
	return engine.Action{}
}

// legalWants are the (phase, step, kind) the test requires to have been
// listed and checked at least once: every branch of the enumeration.
var legalWants = []string{
	"lobby//join", "lobby//start", "lobby//abandon",
	"playing/manage/useItem", "playing/manage/dropItem", "playing/manage/endManage", "playing/manage/abandon",
	"playing/preDuel/offerDuel", "playing/preDuel/skipDuel",
	"playing/moveOrSleep/move", "playing/moveOrSleep/sleep",
	"playing/combat/resolveCombatRound",
	"playing/duel/resolveDuelRound", "playing/duel/reroll", "playing/duel/declineReroll",
	"playing/bracket/reroll", "playing/bracket/declineReroll",
	"playing/capacity/discard",
}

// TestLegalActionsAgreeWithDispatch plays whole games, seeded and fair,
// of 2 to 6 players, half of the decisions random among the listed ones,
// and before every action compares the enumeration with what Dispatch
// accepts from every actor. Then, for each branch of the enumeration the
// games did not reach (a re-roll in the end-game bracket is rare), it
// searches for a game that reaches it, playing without checking, and
// plays that game again checked: every branch is tested.
func TestLegalActionsAgreeWithDispatch(t *testing.T) {
	lc := newLegalCheck(t, engine.DefaultRules())
	games := 12
	if testing.Short() {
		games = 5
	}
	for i := range games {
		n := 2 + i%5
		lg := legalGame{classes: make([]engine.Class, n), pols: make([]bot.Policy, n),
			create: engine.Action{GameID: "legal", Mode: "seeded", Seed: fmt.Sprint("legal-", i)}}
		for j := range n {
			lg.classes[j] = engine.Classes[(i+j)%4]
			lg.pols[j] = []bot.Policy{bot.Cautious{}, bot.Aggressive{}}[(i+j)%2]
		}
		if i%4 == 3 {
			seed, err := fair.NewServerSeed()
			require.NoError(t, err)
			lg.create = engine.Action{GameID: "legal", Mode: "fair", ServerSeed: seed}
			lg.entropy = []string{"", "c0ffee", "AB"}
		}
		lc.play(lg, fmt.Sprint(i))
	}
	for _, want := range legalWants {
		if lc.seen[want] > 0 {
			continue
		}
		// Duelists only, so that any bracket has a re-roll to decide.
		lg := legalGame{classes: []engine.Class{engine.ClassDuelist, engine.ClassDuelist, engine.ClassDuelist},
			pols: []bot.Policy{bot.Cautious{}, bot.Aggressive{}, bot.Cautious{}}}
		found := ""
		for k := 0; k < 5000 && found == ""; k++ {
			name := fmt.Sprint("edge-", k)
			lg.create = engine.Action{GameID: "legal", Mode: "seeded", Seed: name}
			lc.off = true
			lc.play(lg, name)
			lc.off = false
			if lc.reached[want] > 0 {
				found = name
			}
		}
		require.NotEmpty(t, found, "no game of the search reached %s", want)
		lc.play(lg, found)
		require.Positive(t, lc.reached[want], "%s reached unchecked but not checked", want)
	}
	t.Logf("%d states checked; listed: %v", lc.states, lc.seen)
	for _, want := range legalWants {
		require.Positive(t, lc.seen[want], "no state listed %s", want)
	}
}

// protocolWants are the (mode: phase, kind) the protocol test requires to
// have been listed and checked at least once (see legalCheck.count).
var protocolWants = []string{
	"trustless: lobby/join", "trustless: lobby/start", "trustless: lobby/abandon",
	"trustless: playing/endManage", "trustless: playing/move", "trustless: playing/abandon",
	"pending: lobby/reveal", "pending: lobby/abort", "pending: lobby/abandon",
	"pending: playing/reveal", "pending: playing/abort", "pending: playing/abandon",
	"openings: lobby/join", "openings: lobby/open", "openings: lobby/removeSeat",
	"openings: lobby/start", "openings: lobby/abandon", "openings: playing/move",
}

// protocolGames returns the games of n players of TestLegalActionsProtocols:
// a trustless game (its owner without a seat for n = 3) and a fair game
// with openings (with one more player who never opens, if there is a seat
// for it), and the names their choices are seeded by.
func protocolGames(n int) (tg, og legalGame, tname, oname string) {
	tg = legalGame{classes: make([]engine.Class, n), pols: make([]bot.Policy, n), sparse: 12,
		create: engine.Action{GameID: fmt.Sprint("legal-trustless-", n), Mode: "trustless", ChainLength: testChain}}
	for j := range n {
		tg.classes[j] = engine.Classes[(n+j)%4]
		tg.pols[j] = []bot.Policy{bot.Cautious{}, bot.Aggressive{}}[(n+j)%2]
	}
	if n == 3 {
		tg.owner = "host"
	}
	og = tg
	seed := sha256.Sum256([]byte(fmt.Sprint("legal-openings-", n)))
	og.owner, og.sparse, og.unopened = "", 0, n < engine.DefaultRules().MaxPlayers
	og.create = engine.Action{GameID: fmt.Sprint("legal-openings-", n), Mode: "fair", ServerSeed: hex.EncodeToString(seed[:]), Openings: true}
	return tg, og, fmt.Sprint("trustless-", n), fmt.Sprint("openings-", n)
}

// TestLegalActionsProtocols plays trustless games and fair games with
// openings, of 2 to 6 players, as TestLegalActionsAgreeWithDispatch plays
// the others, with every action signed, revealed or opened with real
// keys, chains and contributions (legalCheck.fill): before every action,
// each reveal included, what Dispatch accepts from every actor is exactly
// what is listed. A trustless game with an action pending lists only the
// reveals, the abort and the owner's abandon; one game's owner has no
// seat (it signs nothing). Each game with openings of fewer than 6 players
// seats one more player that never opens, whom the owner removes at the
// deadline. In a trustless game every candidate of a seated player is
// signed, and checked if it gets that far (0.1 to 0.4 ms each on this
// loaded 2-core machine: checking every state of the five games takes
// nearly two minutes), so a trustless game is checked at every state of
// its lobby and its first round (the rounds pending there included), and
// then at one state in 12, pending or not; a game with openings at every
// state.
func TestLegalActionsProtocols(t *testing.T) {
	lc := newLegalCheck(t, engine.DefaultRules())
	last := 6
	if testing.Short() {
		last = 3
	}
	for n := 2; n <= last; n++ {
		tg, og, tname, oname := protocolGames(n)
		lc.play(tg, tname)
		lc.play(og, oname)
	}
	t.Logf("%d states checked; listed: %v", lc.states, lc.seen)
	for _, want := range protocolWants {
		require.Positive(t, lc.seen[want], "no state listed %s", want)
	}
}

// catchT is a legalT that keeps the first failure and stops the check
// there (a panic that catch recovers): the positive controls' reporter.
type catchT struct{ msg string }

func (c *catchT) Errorf(format string, args ...any) {
	if c.msg == "" {
		c.msg = fmt.Sprintf(format, args...)
	}
}
func (c *catchT) FailNow() { panic(c) }
func (c *catchT) Fatalf(format string, args ...any) {
	c.Errorf(format, args...)
	c.FailNow()
}
func (*catchT) Helper()             {}
func (*catchT) Logf(string, ...any) {}

// catch runs f and reports whether it failed.
func (c *catchT) catch(f func()) (failed bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != any(c) {
				panic(r)
			}
			failed = true
		}
	}()
	f()
	return false
}

// turnsWhilePending is LegalActions as it was before the trustless mode:
// it lists the awaited player's turn actions while a round is pending.
func turnsWhilePending(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action {
	buf = engine.LegalActions(p, r, uid, kinds, buf)
	if t := p.Trustless; t != nil && t.Pending != nil && kinds&engine.TurnKinds != 0 {
		q, tq := *p, *t
		tq.Pending = nil
		q.Trustless = &tq
		buf = append(buf, engine.LegalActions(&q, r, uid, kinds&engine.TurnKinds, nil)...)
	}
	return buf
}

// withoutReveals lists no reveal.
func withoutReveals(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action {
	return engine.LegalActions(p, r, uid, kinds&^engine.KindsOf(engine.ActReveal), buf)
}

// joinsAfterOpening lists the joins of a game with openings after the
// first opening as before it.
func joinsAfterOpening(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action {
	join := engine.KindsOf(engine.ActJoin)
	f := p.Fairness
	if f == nil || f.OpenDeadline == 0 || kinds&join == 0 {
		return engine.LegalActions(p, r, uid, kinds, buf)
	}
	q, fq := *p, *f
	fq.OpenDeadline = 0
	q.Fairness = &fq
	buf = engine.LegalActions(&q, r, uid, join, buf)
	return append(buf, engine.LegalActions(p, r, uid, kinds&^join, nil)...)
}

// The positive controls of TestLegalActionsProtocols: its check, on its
// own 2-player games (which pass it there), catches an enumeration that
// still lists turn actions while a round is pending, one that leaves the
// reveals out, and one that lists joins after the first opening.
func TestLegalActionsProtocolsControls(t *testing.T) {
	tg, og, tname, oname := protocolGames(2)
	for _, c := range []struct {
		name string
		list func(*engine.Public, *engine.Ruleset, string, engine.KindSet, []engine.Action) []engine.Action
		game legalGame
		seed string
		want []string
	}{
		{"turns while pending", turnsWhilePending, tg, tname, []string{"is refused in playing/", "is pending its reveal round"}},
		{"no reveals", withoutReveals, tg, tname, []string{"Kind:reveal", "is accepted in lobby/ but not listed"}},
		{"joins after the first opening", joinsAfterOpening, og, oname, []string{"Kind:join", "is refused in lobby/", "the openings have begun"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ct := &catchT{}
			lc := newLegalCheck(ct, engine.DefaultRules())
			lc.list = c.list
			require.True(t, ct.catch(func() { lc.play(c.game, c.seed) }), "the check passed a broken enumeration")
			t.Log(ct.msg)
			for _, w := range c.want {
				require.Contains(t, ct.msg, w)
			}
		})
	}
}

// Lobby states the whole games above pass through only in part: a full
// table, a seated player, the owner alone, a game never created.
func TestLegalActionsLobbyEdges(t *testing.T) {
	rules := engine.DefaultRules()
	lc := newLegalCheck(t, rules)
	eng := lc.eng
	g := &engine.Game{}
	_, err := eng.Dispatch(g, &engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "edges", Mode: "seeded", Seed: "edges"}, nil, nil)
	require.NoError(t, err)
	lc.check(g)
	// The owner alone: it may join any seat; it may not start yet.
	as := engine.LegalActions(&g.Public, rules, "p1", engine.AllKinds, nil)
	require.Len(t, as, rules.MaxPlayers*len(engine.Classes)*2+1)
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p1", Seat: 0, Class: engine.ClassWarrior}, as[0])
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p1", Seat: 0, Class: engine.ClassWarrior, KeepSmokeBomb: true}, as[1])
	require.Equal(t, engine.Action{Kind: engine.ActAbandon, Actor: "p1"}, as[len(as)-1])
	// Seats taken out of order, to the last one.
	for i, seat := range []int{3, 0, 5, 1, 2, 4} {
		s, err := session.Stream(g)
		require.NoError(t, err)
		_, err = eng.Dispatch(g, &engine.Action{Kind: engine.ActJoin, Actor: bot.UID(i), Seat: seat, Class: engine.Classes[i%4]}, s, nil)
		require.NoError(t, err)
		require.NoError(t, g.SaveStream(s))
		lc.check(g)
	}
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p9", engine.AllKinds, nil), "a full table takes no join")
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, {Kind: engine.ActAbandon, Actor: "p1"}},
		engine.LegalActions(&g.Public, rules, "p1", engine.AllKinds, nil))
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p2", engine.AllKinds, nil))
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: engine.ServerActor}},
		engine.LegalActions(&g.Public, rules, engine.ServerActor, engine.AllKinds, nil), "the server's sweep may abandon")
	// Only the kinds asked for.
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: "p1"}},
		engine.LegalActions(&g.Public, rules, "p1", engine.KindsOf(engine.ActAbandon, engine.ActMove), nil))
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p1", engine.TurnKinds, nil))
	// A game never created lists nothing.
	require.Empty(t, engine.LegalActions(&engine.Public{}, rules, "p1", engine.AllKinds, nil))
}

// The order and form of a turn's list, on states written by hand: items
// in inventory order, potions only for useItem, targets in seat order.
func TestLegalActionsOrder(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Current: "p2", Step: engine.StepManage,
		Players: []engine.Player{
			{UID: "p1", Seat: 0, Pos: 4},
			{UID: "p2", Seat: 1, Pos: 4, Items: []string{"t1-dagger-1", "t2-gpotion-2", "t1-smoke-1", "t1-potion-3"}},
			{UID: "p3", Seat: 2, Pos: 5},
			{UID: "p4", Seat: 3, Pos: 4},
		}}
	a := func(k engine.ActionKind, arg string) engine.Action {
		out := engine.Action{Kind: k, Actor: "p2"}
		if k == engine.ActOfferDuel {
			out.Target = arg
		} else {
			out.CardID = arg
		}
		return out
	}
	require.Equal(t, []engine.Action{
		a(engine.ActUseItem, "t2-gpotion-2"), a(engine.ActUseItem, "t1-potion-3"),
		a(engine.ActDropItem, "t1-dagger-1"), a(engine.ActDropItem, "t2-gpotion-2"), a(engine.ActDropItem, "t1-smoke-1"), a(engine.ActDropItem, "t1-potion-3"),
		a(engine.ActEndManage, ""),
	}, engine.LegalActions(p, rules, "p2", engine.AllKinds, nil))
	require.Empty(t, engine.LegalActions(p, rules, "p1", engine.TurnKinds, nil), "only the awaited player decides")
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: "p1"}}, engine.LegalActions(p, rules, "p1", engine.AllKinds, nil))

	p.Step = engine.StepPreDuel
	require.Equal(t, []engine.Action{a(engine.ActOfferDuel, "p1"), a(engine.ActOfferDuel, "p4"), a(engine.ActSkipDuel, "")},
		engine.LegalActions(p, rules, "p2", engine.AllKinds, nil))
	p.Step = engine.StepCapacity
	as := engine.LegalActions(p, rules, "p2", engine.AllKinds, nil)
	require.Len(t, as, 4)
	for i, id := range p.Players[1].Items {
		require.Equal(t, a(engine.ActDiscard, id), as[i])
	}
	p.Step = engine.StepDuel
	p.Duel = &engine.Duel{Challenger: "p2", Target: "p4"}
	require.Equal(t, []engine.Action{a(engine.ActDuelRound, "")}, engine.LegalActions(p, rules, "p2", engine.TurnKinds, nil))
	p.Duel.Rolled = true
	require.Equal(t, []engine.Action{a(engine.ActReroll, ""), a(engine.ActDeclineReroll, "")}, engine.LegalActions(p, rules, "p2", engine.TurnKinds, nil))
	p.Step, p.Duel.Rolled = engine.StepBracket, false
	require.Empty(t, engine.LegalActions(p, rules, "p2", engine.TurnKinds, nil), "a bracket match's rounds are fought by the engine")
}

// The protocols' lists, on states written by hand: a trustless round
// pending, the same game with none, and a fair lobby with openings before,
// during and after the openings.
func TestLegalActionsProtocolForms(t *testing.T) {
	rules := engine.DefaultRules()
	var digest, tr engine.Hash32
	for i := range digest {
		digest[i], tr[i] = 0xab, 0x0c
	}
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Current: "p2", Step: engine.StepMoveOrSleep,
		RNG:     engine.RNGInfo{Mode: rng.ModeTrustless},
		Players: []engine.Player{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 1}, {UID: "p3", Seat: 3}},
		Trustless: &engine.Trustless{ChainLength: 100, NextIndex: 7,
			Seats: []engine.TrustSeat{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 1}, {UID: "p3", Seat: 3}},
			Pending: &engine.Pending{Index: 7, Digest: digest, Transcript: tr, Deadline: 9000,
				Action:  engine.Action{Kind: engine.ActMove, Actor: "p2"},
				Reveals: []engine.RevealMark{{UID: "p3", Seat: 3}}}}}
	list := func(uid string, kinds engine.KindSet) []engine.Action {
		return engine.LegalActions(p, rules, uid, kinds, nil)
	}
	reveal := func(uid string, seat int) engine.Action {
		return engine.Action{Kind: engine.ActReveal, Actor: uid, Seat: seat, Index: 7,
			Digest: strings.Repeat("ab", 32), Transcript: strings.Repeat("0c", 32)}
	}
	abort := func(uid string) engine.Action { return engine.Action{Kind: engine.ActAbort, Actor: uid} }
	abandon := func(uid string) engine.Action { return engine.Action{Kind: engine.ActAbandon, Actor: uid} }
	// Pending: no move for the awaited player; the reveals of the seats
	// that have not revealed, the abort for anyone, the owner's abandon.
	require.Equal(t, []engine.Action{reveal("p2", 1), abort("p2")}, list("p2", engine.AllKinds))
	require.Equal(t, []engine.Action{abandon("p1"), reveal("p1", 0), abort("p1")}, list("p1", engine.AllKinds))
	require.Equal(t, []engine.Action{abort("p3")}, list("p3", engine.AllKinds), "p3 has revealed")
	require.Equal(t, []engine.Action{abort("")}, list("", engine.AllKinds))
	require.Equal(t, []engine.Action{abort(engine.ServerActor)}, list(engine.ServerActor, engine.AllKinds), "no sweep while a round is pending")
	require.Empty(t, list("p2", engine.TurnKinds))
	require.Equal(t, []engine.Action{reveal("p1", 0), abort("p1")}, list("p1", engine.ProtocolKinds))
	require.Equal(t, []engine.Action{abandon("p1")}, list("p1", engine.AllKinds&^engine.ProtocolKinds))
	// No round pending: the game's decisions, and no protocol action.
	p.Trustless.Pending = nil
	require.Equal(t, []engine.Action{{Kind: engine.ActMove, Actor: "p2"}, {Kind: engine.ActSleep, Actor: "p2"}}, list("p2", engine.AllKinds))
	require.Equal(t, []engine.Action{abandon(engine.ServerActor)}, list(engine.ServerActor, engine.AllKinds))
	require.Empty(t, list("", engine.AllKinds))
	// A trustless game without its protocol state: Dispatch refuses all.
	p.Trustless = nil
	require.Empty(t, list("p1", engine.AllKinds))

	// A fair lobby with openings, nobody opened yet: joins for the free
	// seats (1, 2, 4, 5), open for each seat, no start, no removal.
	p = &engine.Public{Phase: engine.PhaseLobby, Owner: "p1", RNG: engine.RNGInfo{Mode: rng.ModeFair},
		Players: []engine.Player{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 3}},
		Fairness: &engine.Fairness{Openings: true, DeadlineMs: 60_000,
			Seats: []engine.FairSeat{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 3}}}}
	open := engine.Action{Kind: engine.ActOpen, Actor: "p1"}
	as := list("p9", engine.AllKinds)
	require.Len(t, as, 4*len(engine.Classes)*2)
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p9", Seat: 1, Class: engine.ClassWarrior}, as[0])
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p9", Seat: 5, Class: engine.Classes[len(engine.Classes)-1], KeepSmokeBomb: true}, as[len(as)-1])
	require.Equal(t, []engine.Action{abandon("p1"), open}, list("p1", engine.AllKinds))
	require.Equal(t, []engine.Action{{Kind: engine.ActOpen, Actor: "p2"}}, list("p2", engine.AllKinds))
	// p1 has opened: the seats are fixed, p2 may be removed after the
	// deadline (At, the sender's).
	p.Fairness.Seats[0].Opened, p.Fairness.OpenDeadline = true, 65_000
	require.Empty(t, list("p9", engine.AllKinds), "no join after the first opening")
	require.Equal(t, []engine.Action{abandon("p1"), {Kind: engine.ActRemoveSeat, Actor: "p1", Target: "p2"}}, list("p1", engine.AllKinds))
	require.Equal(t, []engine.Action{{Kind: engine.ActOpen, Actor: "p2"}}, list("p2", engine.AllKinds))
	// Every seat has opened: the owner may start.
	p.Fairness.Seats[1].Opened = true
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, abandon("p1")}, list("p1", engine.AllKinds))
	require.Empty(t, list("p2", engine.AllKinds))
	// The same lobby without openings: entropy at join, no open.
	p.Fairness.Openings = false
	p.Fairness.Seats[1].Opened = false
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, abandon("p1")}, list("p1", engine.AllKinds))
	require.Len(t, list("p9", engine.AllKinds), 4*len(engine.Classes)*2)
}

// A reveal's digest and transcript are made once: a buffer that lists the
// same round again allocates nothing.
func TestLegalActionsRevealAllocatesOnce(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p1", Step: engine.StepManage,
		RNG:     engine.RNGInfo{Mode: rng.ModeTrustless},
		Players: []engine.Player{{UID: "p1", Items: []string{"t1-dagger-1"}}, {UID: "p2", Seat: 1}},
		Trustless: &engine.Trustless{Seats: []engine.TrustSeat{{UID: "p1"}, {UID: "p2", Seat: 1}},
			Pending: &engine.Pending{Index: 3, Digest: engine.Hash32{1}, Transcript: engine.Hash32{2}}}}
	buf := make([]engine.Action, 0, 16)
	require.Equal(t, 2.0, testing.AllocsPerRun(1, func() {
		p.Trustless.Pending.Digest[0]++ // a new round each time
		p.Trustless.Pending.Transcript[0]++
		buf = engine.LegalActions(p, rules, "p1", engine.AllKinds, buf)
	}))
	require.Zero(t, testing.AllocsPerRun(100, func() {
		buf = engine.LegalActions(p, rules, "p1", engine.AllKinds, buf)
	}))
	require.Equal(t, engine.Action{Kind: engine.ActReveal, Actor: "p1", Index: 3,
		Digest: p.Trustless.Pending.Digest.String(), Transcript: p.Trustless.Pending.Transcript.String()}, buf[1])
}

// The enumeration writes into the caller's buffer: with room, a decision
// allocates nothing.
func TestLegalActionsAllocatesNothing(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Awaiting: "p1", Step: engine.StepManage,
		Players: []engine.Player{{UID: "p1", Items: []string{"t1-dagger-1", "t1-potion-1"}}}}
	buf := make([]engine.Action, 0, 16)
	allocs := testing.AllocsPerRun(100, func() {
		buf = engine.LegalActions(p, rules, "p1", engine.TurnKinds, buf)
	})
	require.Zero(t, allocs)
	require.Len(t, buf, 4)
}

func TestKindSet(t *testing.T) {
	protocol := []engine.ActionKind{engine.ActReveal, engine.ActAbort, engine.ActOpen, engine.ActRemoveSeat}
	for i, k := range engine.ActionKinds {
		require.Equal(t, engine.KindSet(1)<<i, engine.KindsOf(k), k)
		require.True(t, engine.AllKinds.Has(k) == (k != engine.ActCreate), k)
		require.Equal(t, slices.Contains(protocol, k), engine.ProtocolKinds.Has(k), k)
		turn := !slices.Contains(append([]engine.ActionKind{engine.ActCreate, engine.ActJoin, engine.ActStart, engine.ActAbandon}, protocol...), k)
		require.Equal(t, turn, engine.TurnKinds.Has(k), k)
	}
	require.Zero(t, engine.KindsOf("dance"))
	require.False(t, engine.AllKinds.Has("dance"))
}

// BenchmarkLegalActions times one decision's list with a reused buffer:
// a manage step with four items, and a trustless round pending (the
// owner's abandon, its reveal and the abort).
func BenchmarkLegalActions(b *testing.B) {
	rules := engine.DefaultRules()
	manage := &engine.Public{Phase: engine.PhasePlaying, Awaiting: "p1", Step: engine.StepManage,
		Players: []engine.Player{{UID: "p1", Items: []string{"t1-dagger-1", "t2-gpotion-2", "t1-smoke-1", "t1-potion-3"}}}}
	pending := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Step: engine.StepMoveOrSleep,
		RNG:     engine.RNGInfo{Mode: rng.ModeTrustless},
		Players: []engine.Player{{UID: "p1"}, {UID: "p2", Seat: 1}},
		Trustless: &engine.Trustless{Seats: []engine.TrustSeat{{UID: "p1"}, {UID: "p2", Seat: 1}},
			Pending: &engine.Pending{Index: 3, Digest: engine.Hash32{1}, Transcript: engine.Hash32{2}}}}
	for _, c := range []struct {
		name string
		p    *engine.Public
	}{{"manage", manage}, {"pending", pending}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]engine.Action, 0, 16)
			b.ReportAllocs()
			for b.Loop() {
				buf = engine.LegalActions(c.p, rules, "p1", engine.AllKinds, buf)
			}
		})
	}
}

// A buffer whose actions a caller changed (an ID, a version, a signature
// or a fair join's entropy set in place) gives the same list: the
// enumeration writes every field of the slots it reuses.
func TestLegalActionsReusesADirtyBuffer(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p2", Awaiting: "p1", Step: engine.StepPreDuel,
		Players: []engine.Player{{UID: "p1", Pos: 3, Items: []string{"t1-potion-1"}}, {UID: "p2", Seat: 1, Pos: 3}}}
	dirty := func(n int) []engine.Action {
		buf := make([]engine.Action, n, 16)
		for i := range buf {
			buf[i] = engine.Action{Kind: engine.ActJoin, Actor: "x", ID: "a1", Version: 7, At: 9, GameID: "g", Mode: "fair", Seed: "s",
				Audit: true, ChainLength: 5, DeadlineMs: 6, Openings: true, ServerSeed: "ff", Seat: 3, Class: engine.ClassMonk,
				KeepSmokeBomb: true, Entropy: "ab", EntropyCommitment: "cd", ChainHead: "ef", PublicKey: "01", Signature: "23",
				Index: 4, Link: "45", Digest: "67", Transcript: "89", Target: "p9", CardID: "c"}
		}
		return buf
	}
	want := engine.LegalActions(p, rules, "p1", engine.AllKinds, nil)
	require.Equal(t, want, engine.LegalActions(p, rules, "p1", engine.AllKinds, dirty(4)))
	buf := dirty(16)
	for i := range buf {
		buf[i].Version = uint64(i + 1)
	}
	p.Step = engine.StepManage
	want = engine.LegalActions(p, rules, "p1", engine.AllKinds, nil)
	require.Equal(t, want, engine.LegalActions(p, rules, "p1", engine.AllKinds, buf))
	// Each field alone, in a trustless round's list.
	p.RNG.Mode = rng.ModeTrustless
	p.Trustless = &engine.Trustless{Seats: []engine.TrustSeat{{UID: "p1"}, {UID: "p2", Seat: 1}},
		Pending: &engine.Pending{Index: 3, Digest: engine.Hash32{1}, Transcript: engine.Hash32{2}}}
	for _, uid := range []string{"p1", "p2"} {
		want = engine.LegalActions(p, rules, uid, engine.AllKinds, nil)
		require.Len(t, want, map[string]int{"p1": 2, "p2": 3}[uid]) // the owner p2's abandon, a reveal, the abort
		for f := range reflect.TypeFor[engine.Action]().NumField() {
			buf := dirty(3)
			clean := make([]engine.Action, 3)
			for i := range buf {
				reflect.ValueOf(&clean[i]).Elem().Field(f).Set(reflect.ValueOf(buf[i]).Field(f))
			}
			require.Equal(t, want, engine.LegalActions(p, rules, uid, engine.AllKinds, clean), "field %s", reflect.TypeFor[engine.Action]().Field(f).Name)
		}
	}
}
