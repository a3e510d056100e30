package page_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/page"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

var _ game.StoredFollower = (*page.Game)(nil)

func newService() *service.Service {
	return service.New(service.Config{Store: store.NewMemory(), Engine: engine.NewReference(engine.DefaultRules()),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// view is what the page reads of game id, as viewer: the game document,
// the whole log and the open round's markers, as JSON.
func view(t *testing.T, svc *service.Service, viewer, id string) (doc, events, marks []byte) {
	t.Helper()
	v, err := svc.View(context.Background(), viewer, id, 0)
	require.NoError(t, err)
	require.False(t, v.More)
	doc, err = json.Marshal(v.Public)
	require.NoError(t, err)
	events, err = json.Marshal(v.Events)
	require.NoError(t, err)
	if v.Reveals == nil {
		v.Reveals = []store.Mark{}
	}
	marks, err = json.Marshal(v.Reveals)
	require.NoError(t, err)
	return doc, events, marks
}

// TestBoardIsTheDefaultRuleset: the board the page draws is the default
// ruleset's: its hash, every tile in order, every card and the classes.
func TestBoardIsTheDefaultRuleset(t *testing.T) {
	r := engine.DefaultRules()
	var b struct {
		Name       string         `json:"name"`
		RulesHash  string         `json:"rulesHash"`
		MinPlayers int            `json:"minPlayers"`
		MaxPlayers int            `json:"maxPlayers"`
		MaxHP      int            `json:"maxHp"`
		Classes    []engine.Class `json:"classes"`
		Tiles      []struct {
			Index int             `json:"index"`
			Kind  engine.TileKind `json:"kind"`
			Tier  int             `json:"tier"`
		} `json:"tiles"`
		Cards []struct {
			ID, Name, Kind string
			Tier           int
		} `json:"cards"`
	}
	require.NoError(t, json.Unmarshal(page.Board(), &b))
	require.Equal(t, r.Hash(), b.RulesHash)
	require.Equal(t, r.Name, b.Name)
	require.Equal(t, []int{r.MinPlayers, r.MaxPlayers, r.MaxHP}, []int{b.MinPlayers, b.MaxPlayers, b.MaxHP})
	require.Equal(t, engine.Classes, b.Classes)
	require.Len(t, b.Tiles, r.Board.Length)
	for i, tl := range b.Tiles {
		require.Equal(t, i, tl.Index)
		require.Equal(t, r.Tile(i), tl.Kind, "tile %d", i)
		require.Equal(t, r.Tier(i), tl.Tier, "tile %d", i)
	}
	require.Len(t, b.Cards, len(r.Cards()))
	require.Equal(t, r.Cards()[0].ID, b.Cards[0].ID)
	require.NotEmpty(t, b.Cards[0].Kind)
}

// TestNothingFollowedRefusesEveryDocument: before a reset the follower
// refuses a game document, and that problem sticks: events, markers and
// a later document are refused with it, and no action is legal.
func TestNothingFollowedRefusesEveryDocument(t *testing.T) {
	g := page.New("")
	err := g.State([]byte(`{"gameId":"g"}`))
	require.EqualError(t, err, "no game followed (reset first)")
	require.Equal(t, err, g.Err())
	n, checked, err := g.Events([]byte(`[]`))
	require.Equal(t, []int{0, 0}, []int{n, checked})
	require.EqualError(t, err, "no game followed (reset first)")
	require.EqualError(t, g.Marks([]byte(`[]`)), "no game followed (reset first)")
	require.Equal(t, "[]", string(g.Legal("p1")))
	_, err = g.TakeSeat([]byte(`{"gameId":"g"}`))
	require.ErrorContains(t, err, `the seat is in game "g"; this page follows "", a trustless game: false`)
	_, err = g.SignBytes([]byte(`{}`))
	require.EqualError(t, err, "signBytes takes an action as JSON, once the seat is taken")
}

// started creates, fills and starts a crypto game of two seats.
func started(t *testing.T, svc *service.Service, id string) {
	t.Helper()
	ctx := context.Background()
	for _, a := range []engine.Action{
		{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "crypto"},
		{Kind: engine.ActJoin, Actor: "p1", ID: "j1", Class: engine.Classes[0]},
		{Kind: engine.ActJoin, Actor: "p2", ID: "j2", Class: engine.Classes[1], Seat: 1},
	} {
		_, err := svc.Do(ctx, id, a)
		require.NoError(t, err, a.Kind)
	}
	v, err := svc.View(ctx, "p1", id, 0)
	require.NoError(t, err)
	_, err = svc.Do(ctx, id, engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s", Version: v.Public.Version})
	require.NoError(t, err)
}

// TestFollowsAGameAndListsItsActions: the honest documents and log of a
// started game are taken (an event delivered again is no new one), and
// the seat the game awaits has its actions, none of the fairness
// protocols' kinds; the other seat has none but the owner's abandon.
func TestFollowsAGameAndListsItsActions(t *testing.T) {
	svc := newService()
	started(t, svc, "pg")
	doc, events, _ := view(t, svc, "p1", "pg")
	g := page.New("pg")
	require.NoError(t, g.State(doc))
	n, checked, err := g.Events(events)
	require.NoError(t, err)
	require.Positive(t, n)
	require.Equal(t, n, checked)
	again, checked2, err := g.Events(events)
	require.NoError(t, err)
	require.Equal(t, []int{0, checked}, []int{again, checked2}, "the same events again are nothing new")
	require.NoError(t, g.Marks([]byte(`[]`)), "a game that is not trustless has no markers to check")

	var p engine.Public
	require.NoError(t, json.Unmarshal(doc, &p))
	var acts []engine.Action
	require.NoError(t, json.Unmarshal(g.Legal(p.Awaiting), &acts))
	require.NotEmpty(t, acts, "the awaited seat %s", p.Awaiting)
	for _, a := range acts {
		require.Equal(t, p.Awaiting, a.Actor)
		require.NotContains(t, []engine.ActionKind{engine.ActReveal, engine.ActAbort, engine.ActOpen, engine.ActRemoveSeat}, a.Kind)
	}
	other := "p1"
	if p.Awaiting == "p1" {
		other = "p2"
	}
	var theirs []engine.Action
	require.NoError(t, json.Unmarshal(g.Legal(other), &theirs))
	for _, a := range theirs { // the owner may abandon the game at any time; nothing else
		require.Equal(t, engine.Action{Kind: engine.ActAbandon, Actor: other}, a, "the seat %s not awaited", other)
	}
	require.NoError(t, g.Err())
}

// TestTheFirstProblemSticks: each way the documents or the log go wrong
// is named, and once one is found every later document is refused with
// it and no action is legal.
func TestTheFirstProblemSticks(t *testing.T) {
	svc := newService()
	started(t, svc, "pg")
	doc, events, _ := view(t, svc, "p1", "pg")
	var p engine.Public
	require.NoError(t, json.Unmarshal(doc, &p))
	var log []engine.Event
	require.NoError(t, json.Unmarshal(events, &log))
	require.GreaterOrEqual(t, len(log), 3)
	mustJSON := func(v any) []byte {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return b
	}
	followed := func() *page.Game {
		g := page.New("pg")
		require.NoError(t, g.State(doc))
		_, _, err := g.Events(events)
		require.NoError(t, err)
		return g
	}
	docWith := func(change func(p *engine.Public)) []byte {
		var q engine.Public
		require.NoError(t, json.Unmarshal(doc, &q))
		change(&q)
		return mustJSON(q)
	}

	for name, c := range map[string]struct {
		feed func(g *page.Game) error
		want string
	}{
		"not a document": {func(g *page.Game) error { return g.State([]byte(`[1]`)) }, "the game document is not a game: "},
		"another game": {func(g *page.Game) error { return g.State(docWith(func(q *engine.Public) { q.GameID = "other" })) },
			`the server sent game "other" for game "pg"`},
		"another ruleset": {func(g *page.Game) error {
			return g.State(docWith(func(q *engine.Public) { q.RulesHash = "0123456789abcdef" }))
		}, "the game is played under ruleset 0123456789ab, this page knows "},
		"a version back": {func(g *page.Game) error { return g.State(docWith(func(q *engine.Public) { q.Version-- })) },
			"the game went back from version "},
		"the log back": {func(g *page.Game) error { return g.State(docWith(func(q *engine.Public) { q.LogSeq-- })) },
			"the log went back from event "},
		"not a list":   {func(g *page.Game) error { _, _, err := g.Events([]byte(`{}`)); return err }, "the log is not a list of events: "},
		"not an event": {func(g *page.Game) error { _, _, err := g.Events([]byte(`[1]`)); return err }, "a log event is not an event: "},
		"no seq": {func(g *page.Game) error {
			e := log[0]
			e.Seq = 0
			_, _, err := g.Events(mustJSON([]engine.Event{e}))
			return err
		}, "a log event has no seq"},
		"a gap": {func(g *page.Game) error {
			e := log[0]
			e.Seq = uint64(len(log)) + 2
			_, _, err := g.Events(mustJSON([]engine.Event{e}))
			return err
		}, "the log skips from event "},
		"a changed event": {func(g *page.Game) error {
			e := log[0] // another event at seq 2
			e.Seq = 2
			_, _, err := g.Events(mustJSON([]engine.Event{e}))
			return err
		}, "log event 2 ("},
		"not markers": {func(g *page.Game) error { return g.Marks([]byte(`{}`)) }, "the reveal markers are not markers: "},
	} {
		g := followed()
		err := c.feed(g)
		require.ErrorContains(t, err, c.want, name)
		require.Equal(t, err, g.Err(), name)
		require.Equal(t, err, g.State(doc), "%s: the honest document after it", name)
		n, _, err2 := g.Events(events)
		require.Equal(t, 0, n, name)
		require.Equal(t, err, err2, name)
		require.Equal(t, "[]", string(g.Legal(p.Awaiting)), name)
		_, err2 = g.Reveal()
		require.Equal(t, err, err2, name)
	}
}
