package engine

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// These tests drive Dispatch's own checks with a handler table written
// here, so that each check is seen alone: which code it gives, that it
// comes before the handler (the handler is never called), in which order
// the checks run, and what a successful dispatch records. The real game's
// handlers are checked against the same guards in guards_test.go.

// probe is a handler table that counts calls and, on success, draws one
// die and emits one event, as a real handler does.
type probe struct {
	calls  int
	reject *Error // returned instead of acting, if set
}

func (pr *probe) handle(c *Ctx, a *Action) error {
	pr.calls++
	if pr.reject != nil {
		return pr.reject
	}
	if a.Kind == ActCreate {
		c.P.Phase, c.P.RulesHash = PhaseLobby, c.Rules.Hash()
		c.P.RNG.Mode = rng.ModeSeeded
		c.Emit(Event{Type: EvGameCreated, UID: a.Actor})
		return nil
	}
	d, err := c.RNG.Dice(6, rng.TagTestOnly, nil)
	if err != nil {
		return err
	}
	e := c.Add(EvDiceRolled)
	e.Who, e.Sides, e.Value = a.Actor, 6, d.Value
	return nil
}

func (pr *probe) table() Table {
	t := Table{}
	for _, k := range ActionKinds {
		t[k] = pr.handle
	}
	return t
}

// lobbyGame returns a game in its lobby under DefaultRules, at version 3
// after action "a3", with seeded rng seq 5, and a stream that continues it.
func lobbyGame(t *testing.T) (*Game, *rng.Stream) {
	t.Helper()
	g := &Game{}
	p := &g.Public
	p.GameID, p.Owner, p.RulesHash = "g1", "p1", DefaultRules().Hash()
	p.Phase, p.Version, p.LastActionID, p.LogSeq = PhaseLobby, 3, "a3", 4
	p.RNG = RNGInfo{Mode: rng.ModeSeeded, Seq: 5}
	g.Secret.Seed = "guards"
	s, err := rng.NewSeeded("guards", rng.WithSeq(5))
	if err != nil {
		t.Fatal(err)
	}
	return g, s
}

// dispatchers returns Engine.Dispatch and a Dispatcher's Dispatch on the
// same engine: every test runs on both.
func dispatchers(e *Engine) map[string]func(*Game, *Action, *rng.Stream, []Event) ([]Event, error) {
	d := e.NewDispatcher()
	return map[string]func(*Game, *Action, *rng.Stream, []Event) ([]Event, error){
		"Engine":     e.Dispatch,
		"Dispatcher": d.Dispatch,
	}
}

// TestDispatchGuards: each of Dispatch's checks, alone, on a game that
// passes every other check; the handler must not run and the game, the
// stream and the event buffer must be exactly as they were.
func TestDispatchGuards(t *testing.T) {
	other, err := LoadRules(bytes.Replace(DefaultRulesJSON(), []byte(`"maxHp": 10`), []byte(`"maxHp": 11`), 1))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		code Code
		// prepare breaks one thing: the game, the action or the stream.
		prepare func(g *Game, a *Action, s **rng.Stream)
	}{
		{"not created", CodeNotCreated, func(g *Game, a *Action, s **rng.Stream) { *g = Game{} }},
		{"another ruleset", CodeRulesMismatch, func(g *Game, a *Action, s **rng.Stream) { g.Public.RulesHash = other.Hash() }},
		{"no ruleset hash", CodeRulesMismatch, func(g *Game, a *Action, s **rng.Stream) { g.Public.RulesHash = "" }},
		{"version ahead", CodeStaleVersion, func(g *Game, a *Action, s **rng.Stream) { a.Version = 4 }},
		{"version behind", CodeStaleVersion, func(g *Game, a *Action, s **rng.Stream) { a.Version = 2 }},
		{"version 1", CodeStaleVersion, func(g *Game, a *Action, s **rng.Stream) { a.Version = 1 }},
		{"last action again", CodeDuplicateAction, func(g *Game, a *Action, s **rng.Stream) { a.ID = "a3" }},
		{"finished", CodeGameOver, func(g *Game, a *Action, s **rng.Stream) { g.Public.Phase = PhaseFinished }},
		{"unknown kind", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Kind = "teleport" }},
		{"empty kind", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Kind = "" }},
		{"kind in the wrong case", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Kind = "Move" }},
		{"serverSeed on a move", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.ServerSeed = strings.Repeat("ab", 32) }},
		{"entropy on a move", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Entropy = "ab" }},
		{"entropy on create", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) {
			*g = Game{}
			a.Kind, a.Version, a.Entropy = ActCreate, 0, "ab"
		}},
		{"serverSeed on join", CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Kind, a.ServerSeed = ActJoin, strings.Repeat("ab", 32) }},
		{"no stream", CodeBadStream, func(g *Game, a *Action, s **rng.Stream) { *s = nil }},
		{"stream seq behind", CodeBadStream, func(g *Game, a *Action, s **rng.Stream) { g.Public.RNG.Seq = 6 }},
		{"stream seq ahead", CodeBadStream, func(g *Game, a *Action, s **rng.Stream) { g.Public.RNG.Seq = 4 }},
		{"crypto stream for a seeded game", CodeBadStream, func(g *Game, a *Action, s **rng.Stream) {
			*s = rng.NewCrypto(rng.WithSeq(5))
		}},
		{"seeded stream for a crypto game", CodeBadStream, func(g *Game, a *Action, s **rng.Stream) { g.Public.RNG.Mode = rng.ModeCrypto }},
	}
	for _, c := range cases {
		pr := &probe{}
		e := New(DefaultRules(), pr.table())
		for name, dispatch := range dispatchers(e) {
			g, s := lobbyGame(t)
			a := &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3}
			c.prepare(g, a, &s)
			before, _ := g.CanonicalJSON()
			var state string
			var seq uint64
			if s != nil {
				state, _ = s.State()
				seq = s.Seq()
			}
			out := []Event{{Seq: 1, Type: EvRoundEnded, Round: 9}}
			got, err := dispatch(g, a, s, out)
			if !errors.Is(err, c.code) {
				t.Errorf("%s, %s: err = %v, want %s", c.name, name, err, c.code)
			}
			var re *Error
			if !errors.As(err, &re) || re.Msg == "" {
				t.Errorf("%s, %s: err %v is not an *Error with a message", c.name, name, err)
			}
			if len(got) != 1 || got[0].Round != 9 {
				t.Errorf("%s, %s: the event buffer changed: %+v", c.name, name, got)
			}
			if after, _ := g.CanonicalJSON(); !bytes.Equal(before, after) {
				t.Errorf("%s, %s: the game changed:\n before %s\n after  %s", c.name, name, before, after)
			}
			if s != nil {
				if st, _ := s.State(); st != state || s.Seq() != seq {
					t.Errorf("%s, %s: the stream moved", c.name, name)
				}
			}
		}
		if pr.calls != 0 {
			t.Errorf("%s: the handler ran %d times", c.name, pr.calls)
		}
	}
}

// TestDispatchGuardOrder: when an action breaks several checks, the first
// in the documented order gives the code: not_created, rules_mismatch,
// stale_version, duplicate_action, game_over, invalid_action (unknown kind,
// then serverSeed off create, then entropy off join), bad_stream.
func TestDispatchGuardOrder(t *testing.T) {
	pr := &probe{}
	e := New(DefaultRules(), pr.table())
	order := []struct {
		code  Code
		spoil func(g *Game, a *Action, s **rng.Stream)
	}{
		{CodeNotCreated, func(g *Game, a *Action, s **rng.Stream) { g.Public.Phase = PhaseNone }},
		{CodeRulesMismatch, func(g *Game, a *Action, s **rng.Stream) { g.Public.RulesHash = "x" }},
		{CodeStaleVersion, func(g *Game, a *Action, s **rng.Stream) { a.Version = 9 }},
		{CodeDuplicateAction, func(g *Game, a *Action, s **rng.Stream) { a.ID = "a3" }},
		{CodeGameOver, func(g *Game, a *Action, s **rng.Stream) {
			if g.Public.Phase != PhaseNone {
				g.Public.Phase = PhaseFinished
			}
		}},
		{CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Kind = "teleport" }},
		{CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.ServerSeed = strings.Repeat("ab", 32) }},
		{CodeInvalidAction, func(g *Game, a *Action, s **rng.Stream) { a.Entropy = "ab" }},
		{CodeBadStream, func(g *Game, a *Action, s **rng.Stream) { *s = nil }},
	}
	// Break checks i..end: check i must answer.
	for i := range order {
		g, s := lobbyGame(t)
		a := &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3}
		for _, o := range order[i:] {
			o.spoil(g, a, &s)
		}
		if _, err := e.Dispatch(g, a, s, nil); !errors.Is(err, order[i].code) {
			t.Errorf("checks %d.. broken: err = %v, want %s", i, err, order[i].code)
		}
	}
	if pr.calls != 0 {
		t.Errorf("the handler ran %d times", pr.calls)
	}
}

// TestDispatchChecksThatDoNotApply: the cases each check lets through.
func TestDispatchChecksThatDoNotApply(t *testing.T) {
	pr := &probe{}
	e := New(DefaultRules(), pr.table())
	for _, c := range []struct {
		name    string
		prepare func(g *Game, a *Action, s **rng.Stream)
	}{
		{"version 0 means any version", func(g *Game, a *Action, s **rng.Stream) { a.Version = 0 }},
		{"the current version", func(g *Game, a *Action, s **rng.Stream) { a.Version = 3 }},
		{"no action id, after an action with none", func(g *Game, a *Action, s **rng.Stream) {
			a.ID, g.Public.LastActionID = "", ""
		}},
		{"an id other than the last one", func(g *Game, a *Action, s **rng.Stream) { a.ID = "a2" }},
		{"an id that differs only in case", func(g *Game, a *Action, s **rng.Stream) { a.ID = "A3" }},
		{"a game in play", func(g *Game, a *Action, s **rng.Stream) { g.Public.Phase = PhasePlaying }},
		{"a crypto game with a crypto stream", func(g *Game, a *Action, s **rng.Stream) {
			g.Public.RNG.Mode = rng.ModeCrypto
			*s = rng.NewCrypto(rng.WithSeq(5))
		}},
	} {
		g, s := lobbyGame(t)
		a := &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3}
		c.prepare(g, a, &s)
		calls := pr.calls
		if _, err := e.Dispatch(g, a, s, nil); err != nil || pr.calls != calls+1 {
			t.Errorf("%s: err = %v, handler calls %d, want it dispatched", c.name, err, pr.calls-calls)
		}
	}
}

// TestDispatchCreate: create skips the checks that need a created game
// (not_created, rules_mismatch) and the stream check (it may come with no
// stream), but not the others.
func TestDispatchCreate(t *testing.T) {
	pr := &probe{}
	e := New(DefaultRules(), pr.table())
	for name, dispatch := range dispatchers(e) {
		g := &Game{}
		ev, err := dispatch(g, &Action{Kind: ActCreate, Actor: "p1", ID: "c1"}, nil, nil)
		p := &g.Public
		if err != nil || len(ev) != 1 || ev[0].Type != EvGameCreated || ev[0].Seq != 1 {
			t.Fatalf("%s: create on a zero game: %v, %+v", name, err, ev)
		}
		if p.Version != 1 || p.LastActionID != "c1" || p.RNG.Seq != 0 || p.Phase != PhaseLobby {
			t.Errorf("%s: after create: version %d, last %q, seq %d, phase %q", name, p.Version, p.LastActionID, p.RNG.Seq, p.Phase)
		}
		// A second create reaches the handler (whose job it is to refuse
		// it), even under another ruleset's hash, and with a stream.
		p.RulesHash = "another"
		calls := pr.calls
		s, _ := rng.NewSeeded("x")
		if _, err := dispatch(g, &Action{Kind: ActCreate, Actor: "p1"}, s, nil); err != nil || pr.calls != calls+1 {
			t.Errorf("%s: create on a created game did not reach the handler: %v", name, err)
		}
	}
	// serverSeed belongs to create and entropy to join: both reach the
	// handler there.
	for _, a := range []Action{
		{Kind: ActCreate, Actor: "p1", ServerSeed: strings.Repeat("ab", 32)},
		{Kind: ActJoin, Actor: "p2", Entropy: "ab"},
	} {
		g, s := lobbyGame(t)
		if a.Kind == ActCreate {
			g, s = &Game{}, nil
		}
		calls := pr.calls
		if _, err := e.Dispatch(g, &a, s, nil); err != nil || pr.calls != calls+1 {
			t.Errorf("%s with its own field: %v, handler calls %d", a.Kind, err, pr.calls-calls)
		}
	}
	// The version, duplicate and finished checks apply to create too.
	for _, c := range []struct {
		code Code
		g    Game
		a    Action
	}{
		{CodeStaleVersion, Game{}, Action{Kind: ActCreate, Actor: "p1", Version: 1}},
		{CodeDuplicateAction, Game{Public: Public{LastActionID: "c1"}}, Action{Kind: ActCreate, Actor: "p1", ID: "c1"}},
		{CodeGameOver, Game{Public: Public{Phase: PhaseFinished}}, Action{Kind: ActCreate, Actor: "p1"}},
	} {
		calls := pr.calls
		if _, err := e.Dispatch(&c.g, &c.a, nil, nil); !errors.Is(err, c.code) || pr.calls != calls {
			t.Errorf("create: err = %v, want %s before the handler", err, c.code)
		}
	}
}

// TestDispatchSuccess: what a successful dispatch records, and that the
// events are appended to the caller's buffer after what it held.
func TestDispatchSuccess(t *testing.T) {
	pr := &probe{}
	e := New(DefaultRules(), pr.table())
	for name, dispatch := range dispatchers(e) {
		g, s := lobbyGame(t)
		out := []Event{{Seq: 1, Type: EvRoundEnded, Round: 9}}
		ev, err := dispatch(g, &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3}, s, out)
		p := &g.Public
		switch {
		case err != nil:
			t.Fatalf("%s: %v", name, err)
		case len(ev) != 2 || ev[0].Round != 9 || ev[1].Type != EvDiceRolled || ev[1].Seq != 5:
			t.Errorf("%s: events %+v; want the old one, then DiceRolled with log seq 5", name, ev)
		case p.Version != 4 || p.LastActionID != "a4" || p.LogSeq != 5:
			t.Errorf("%s: version %d, last action %q, log seq %d; want 4, a4, 5", name, p.Version, p.LastActionID, p.LogSeq)
		case s.Seq() != 6 || p.RNG.Seq != 6:
			t.Errorf("%s: stream seq %d, game rng seq %d; want 6 (one die after 5)", name, s.Seq(), p.RNG.Seq)
		}
		// An action without an id clears LastActionID: ids de-duplicate
		// only against the action just before.
		if _, err := dispatch(g, &Action{Kind: ActMove, Actor: "p1"}, s, nil); err != nil || p.LastActionID != "" || p.Version != 5 {
			t.Errorf("%s: after an action with no id: %v, last %q, version %d", name, err, p.LastActionID, p.Version)
		}
		// ...so the id before it may be sent again.
		if _, err := dispatch(g, &Action{Kind: ActMove, Actor: "p1", ID: "a4"}, s, nil); err != nil {
			t.Errorf("%s: a4 after an action with no id: %v", name, err)
		}
	}
}

// TestDispatchHandlerRejects: a handler's rejection is returned as it is,
// with the caller's buffer, and nothing is recorded.
func TestDispatchHandlerRejects(t *testing.T) {
	pr := &probe{reject: Reject(CodeWrongStep, "not now")}
	e := New(DefaultRules(), pr.table())
	for name, dispatch := range dispatchers(e) {
		g, s := lobbyGame(t)
		before, _ := g.CanonicalJSON()
		out := make([]Event, 1, 4)
		ev, err := dispatch(g, &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3}, s, out)
		if err != pr.reject || len(ev) != 1 {
			t.Errorf("%s: err = %v, %d events; want the handler's error and the buffer as given", name, err, len(ev))
		}
		if after, _ := g.CanonicalJSON(); !bytes.Equal(before, after) {
			t.Errorf("%s: the game changed:\n before %s\n after  %s", name, before, after)
		}
	}
}

// TestDispatchKindOutsideTheList: a table may hold a kind that is not one
// of ActionKinds; Dispatch finds it by its name, and refuses kinds the
// table lacks, listed or not.
func TestDispatchKindOutsideTheList(t *testing.T) {
	pr := &probe{}
	tab := Table{"teleport": pr.handle}
	e := New(DefaultRules(), tab)
	for name, dispatch := range dispatchers(e) {
		g, s := lobbyGame(t)
		calls := pr.calls
		if _, err := dispatch(g, &Action{Kind: "teleport", Actor: "p1"}, s, nil); err != nil || pr.calls != calls+1 {
			t.Errorf("%s: teleport: %v", name, err)
		}
		if _, err := dispatch(g, &Action{Kind: ActMove, Actor: "p1"}, s, nil); !errors.Is(err, CodeInvalidAction) {
			t.Errorf("%s: move with no handler: err = %v, want invalid_action", name, err)
		}
	}
}

// TestDispatcherHoldsNothing: between calls a Dispatcher keeps no game,
// stream, action or buffer.
func TestDispatcherHoldsNothing(t *testing.T) {
	pr := &probe{}
	d := New(DefaultRules(), pr.table()).NewDispatcher()
	g, s := lobbyGame(t)
	if _, err := d.Dispatch(g, &Action{Kind: ActMove, Actor: "p1"}, s, nil); err != nil {
		t.Fatal(err)
	}
	if d.c.G != nil || d.c.P != nil || d.c.RNG != nil || d.c.Action != nil || d.c.Events != nil || d.c.Rules != nil {
		t.Errorf("the dispatcher kept %+v", d.c)
	}
}

// TestNewRefusesAnUnvalidatedRuleset: New panics (a programmer's mistake)
// on a nil or never-validated ruleset.
func TestNewRefusesAnUnvalidatedRuleset(t *testing.T) {
	for name, r := range map[string]*Ruleset{"nil": nil, "not validated": {Name: "x"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%s ruleset) did not panic", name)
				}
			}()
			New(r, Table{})
		}()
	}
	if e := New(DefaultRules(), Table{}); e.Rules() != DefaultRules() {
		t.Error("Rules() is not the engine's ruleset")
	}
}

// TestErrorMatching: an *Error matches its Code and any *Error of the same
// code, and nothing else.
func TestErrorMatching(t *testing.T) {
	err := error(Reject(CodeGameOver, "over"))
	switch {
	case !errors.Is(err, CodeGameOver), !errors.Is(err, Reject(CodeGameOver, "another message")):
		t.Error("an *Error does not match its own code")
	case errors.Is(err, CodeWrongStep), errors.Is(err, Reject(CodeWrongStep, "over")), errors.Is(err, errors.New("game_over")):
		t.Error("an *Error matches another code or a plain error")
	case CodeGameOver.Error() != "game_over" || err.Error() != "game_over: over":
		t.Errorf("messages %q, %q", CodeGameOver.Error(), err.Error())
	}
	seen := map[Code]bool{}
	for _, c := range Codes {
		if seen[c] || c == "" {
			t.Errorf("code %q repeated or empty", c)
		}
		seen[c] = true
	}
	if len(Codes) != 31 {
		t.Errorf("%d codes, error.go lists 31", len(Codes))
	}
}
