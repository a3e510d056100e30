package functions_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng/fair"
)

// tlServer is the functions on the in-memory store with a clock the test
// moves (unix ms; a millisecond more at each reading).
type tlServer struct {
	c   *functest.Client
	mem *store.Memory
	svc *service.Service
	ms  atomic.Int64
}

func newTLServer(t *testing.T) *tlServer {
	t.Helper()
	s := &tlServer{mem: store.NewMemory()}
	s.ms.Store(1_760_000_000_000)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s.svc = service.New(service.Config{Store: s.mem, Engine: eng, Logger: quiet, AbortGrace: 2 * time.Second,
		Now: func() time.Time { return time.UnixMilli(s.ms.Add(1)) }})
	srv := httptest.NewServer(functions.New(dungeonfn.New(s.svc), functions.InsecureDevVerifier{}, quiet).
		WithSweep(functions.SweepAuthorizerFunc(func(r *http.Request) error {
			if r.Header.Get("Authorization") != "Bearer scheduler" {
				return errors.New("not the scheduler")
			}
			return nil
		})).Mux())
	t.Cleanup(srv.Close)
	s.c = &functest.Client{Base: srv.URL}
	return s
}

// tlTable is a trustless game p1 and p2 joined through the functions, each
// with its player.Seat (fed the log through getView).
type tlTable struct {
	t     *testing.T
	s     *tlServer
	id    string
	seats []*player.Seat
	log   []engine.Event
	state engine.Public
}

func (tb *tlTable) call(name, uid string, data map[string]any) error {
	data["gameId"] = tb.id
	return tb.s.c.Call(context.Background(), name, "dev:"+uid, data, nil)
}

// sync reads the log and state as p1 and feeds the seats.
func (tb *tlTable) sync() {
	tb.t.Helper()
	var v functest.View
	require.NoError(tb.t, tb.s.c.Call(context.Background(), "getView", "dev:p1", map[string]any{"gameId": tb.id, "afterSeq": len(tb.log)}, &v))
	tb.log, tb.state = append(tb.log, v.Events...), v.State
	for _, s := range tb.seats {
		require.NoError(tb.t, s.Follow(v.Events))
	}
}

// newTLTable creates the game (deadlineMs 5000) and seats p1 and p2, then
// p1 starts it: the start is pending at index 1.
func newTLTable(t *testing.T, s *tlServer, id string) *tlTable {
	tb := &tlTable{t: t, s: s, id: id}
	require.NoError(t, tb.call("createGame", "p1", map[string]any{"actionId": "c", "mode": "trustless", "deadlineMs": 5000}))
	tb.sync()
	for i, uid := range []string{"p1", "p2"} {
		seat, err := player.NewSeat(eng.Rules(), id, uid, i, tb.state.Trustless.ChainLength)
		require.NoError(t, err)
		require.NoError(t, seat.Follow(tb.log))
		tb.seats = append(tb.seats, seat)
		a, err := seat.Join(engine.Classes[i], false, tb.state.Version)
		require.NoError(t, err)
		require.NoError(t, tb.call("joinGame", uid, map[string]any{"actionId": "j", "seat": i, "class": a.Class,
			"chainHead": a.ChainHead, "publicKey": a.PublicKey, "version": a.Version, "signature": a.Signature}))
		tb.sync()
	}
	a := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: tb.state.Version}
	require.NoError(t, tb.seats[0].Sign(&a))
	require.NoError(t, tb.call("startGame", "p1", map[string]any{"actionId": "s", "version": a.Version, "signature": a.Signature}))
	tb.sync()
	require.NotNil(t, tb.state.Trustless.Pending)
	return tb
}

// revealData is the reveal call's data for a.
func revealData(a engine.Action, id string) map[string]any {
	return map[string]any{"actionId": id, "seat": a.Seat, "index": a.Index, "link": a.Link, "digest": a.Digest,
		"transcript": a.Transcript, "signature": a.Signature}
}

// refused requires err to be the callable refusal with status and code.
func refused(t *testing.T, err error, status, code string) {
	t.Helper()
	e, ok := err.(*functest.Error)
	require.True(t, ok, "want %s %s, got %v", status, code, err)
	require.Equal(t, status, e.Status, "%v", e)
	require.Equal(t, code, e.Details["code"], "%v", e)
	require.NotEqual(t, "internal error", e.Message)
}

// TestTrustlessRefusalsThroughTheFunctions forces every rejection of the
// trustless protocol and of fair openings through the functions, each
// with its status and details.code (docs/functions.md, "Statuses"): a
// hostile player's reveal of a wrong link, twice, for another seat,
// early, over another digest, under another key, after the deadline; an
// action while one is pending; an opening that is not the commitment's,
// twice, a start before every opening, a removal before the deadline.
// Each refusal of a hostile player's well-formed reveal has its positive
// control (forgedControls): with the checks that refuse it off, the same
// call is taken, or refused by a later check only.
func TestTrustlessRefusalsThroughTheFunctions(t *testing.T) {
	s := newTLServer(t)
	tb := newTLTable(t, s, "tl-codes")
	p1, p2 := tb.seats[0], tb.seats[1]

	// Before anything else: an action while the start is pending.
	mv := engine.Action{Kind: engine.ActEndManage, Actor: "p1", Version: tb.state.Version}
	require.NoError(t, p1.Sign(&mv))
	refused(t, tb.call("act", "p1", map[string]any{"actionId": "m", "kind": "endManage", "version": mv.Version, "signature": mv.Signature}),
		"FAILED_PRECONDITION", "pending")

	good, err := p2.Reveal(&tb.state, 0)
	require.NoError(t, err)
	// Early, for another seat, over another digest, under another key,
	// a link not the chain's (forgedReveals, each with its control).
	for _, f := range forgedReveals {
		uid, data := f.make(t, tb, good)
		refused(t, tb.call("reveal", uid, data), f.status, f.code)
	}
	// Malformed: a short link never reaches the engine.
	short := good
	short.Link = "abc"
	refused(t, tb.call("reveal", "p2", revealData(short, "short")), "INVALID_ARGUMENT", "invalid_link")
	// The right one, then twice (another action id), then after the
	// deadline.
	require.NoError(t, tb.call("reveal", "p2", revealData(good, "r1")))
	require.NoError(t, tb.call("reveal", "p2", revealData(good, "r1")), "the same action id: the first answer again")
	refused(t, tb.call("reveal", "p2", revealData(good, "again")), "ALREADY_EXISTS", "already_revealed")
	s.ms.Add(5_000) // past the deadline, within the grace: not yet aborted
	late, err := p1.Reveal(&tb.state, 0)
	require.NoError(t, err)
	refused(t, tb.call("reveal", "p1", revealData(late, "late")), "FAILED_PRECONDITION", "deadline_passed")
	forgedControls(t, s)

	// Fair openings.
	require.NoError(t, s.c.Call(context.Background(), "createGame", "dev:p1", map[string]any{"gameId": "fo", "actionId": "c", "mode": "fair", "openings": true, "deadlineMs": 5000}, nil))
	contribs := map[string]string{} // hex
	for i, uid := range []string{"p1", "p2"} {
		c, err := fair.NewContribution()
		require.NoError(t, err)
		contribs[uid] = c
		raw, err := hex.DecodeString(c)
		require.NoError(t, err)
		cm := fair.ContributionCommitment("fo", uint32(i), raw)
		require.NoError(t, s.c.Call(context.Background(), "joinGame", "dev:"+uid, map[string]any{"gameId": "fo", "actionId": "j", "seat": i,
			"class": engine.Classes[i], "entropyCommitment": hex.EncodeToString(cm[:])}, nil))
	}
	act := func(uid, id string, d map[string]any) error {
		d["gameId"], d["actionId"] = "fo", id
		return s.c.Call(context.Background(), "act", "dev:"+uid, d, nil)
	}
	refused(t, s.c.Call(context.Background(), "startGame", "dev:p1", map[string]any{"gameId": "fo", "actionId": "s0"}, nil), "FAILED_PRECONDITION", "not_opened")
	refused(t, act("p1", "o-bad", map[string]any{"kind": "open", "entropy": contribs["p2"]}), "INVALID_ARGUMENT", "wrong_opening")
	require.NoError(t, act("p1", "o1", map[string]any{"kind": "open", "entropy": contribs["p1"]}))
	refused(t, act("p1", "o2", map[string]any{"kind": "open", "entropy": contribs["p1"]}), "ALREADY_EXISTS", "already_opened")
	refused(t, act("p1", "rm", map[string]any{"kind": "removeSeat", "target": "p2"}), "FAILED_PRECONDITION", "deadline_not_passed")
	s.ms.Add(6_000)
	require.NoError(t, act("p1", "rm2", map[string]any{"kind": "removeSeat", "target": "p2"}))
	// The server's own kinds are not the act function's.
	err = act("p1", "ab", map[string]any{"kind": "abort"})
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
	err = act("p1", "rv", map[string]any{"kind": "reveal"})
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
}

func hash(t *testing.T, s string) *[32]byte {
	h, err := engine.ParseHash32(s, "hash")
	require.NoError(t, err)
	return (*[32]byte)(&h)
}

// keyOf is a seat's private key, from its secrets.
func keyOf(t *testing.T, s *player.Seat) ed25519.PrivateKey {
	sec := s.Secrets()
	return ed25519.NewKeyFromSeed(sec.KeySeed[:])
}

// TestNeverRevealsThroughTheFunctions: a player who never reveals; the
// other's reveal is staged (the game document does not change, its marker
// shows in getView, its link nowhere); past the deadline and its grace
// the next call on the game aborts it (GameAborted names the missing
// seat, publishes the link that came, and nothing of the pending action
// is applied: no re-roll), and the call is then answered as on a finished
// game; the sweep, in a second game, does the same with no call on it.
func TestNeverRevealsThroughTheFunctions(t *testing.T) {
	for _, by := range []string{"nextCall", "sweep"} {
		t.Run(by, func(t *testing.T) {
			s := newTLServer(t)
			tb := newTLTable(t, s, "tl-stall-"+by)
			version := tb.state.Version
			a, err := tb.seats[0].Reveal(&tb.state, 0)
			require.NoError(t, err)
			require.NoError(t, tb.call("reveal", "p1", revealData(a, "r1")))
			var v struct {
				functest.View
				Reveals []store.Mark `json:"reveals"`
			}
			require.NoError(t, s.c.Call(context.Background(), "getView", "dev:p2", map[string]any{"gameId": tb.id}, &v))
			require.Equal(t, version, v.State.Version, "a staged reveal changes no game document")
			require.Len(t, v.Reveals, 1)
			require.Equal(t, "p1", v.Reveals[0].UID)
			raw, _ := json.Marshal(v)
			require.NotContains(t, string(raw), a.Link, "the link is readable before the round closes")

			s.ms.Add(5_000 + 2_000 + 10) // the deadline, and the grace
			if by == "sweep" {
				code, body := post(t, s.c.Base+"/sweep", "someone")
				require.Equal(t, 401, code, "the sweep for anyone but the scheduler: %s", body)
				code, body = post(t, s.c.Base+"/sweep", "scheduler")
				require.Equal(t, 200, code, "%s", body)
				require.Contains(t, body, `"aborted":["tl-stall-sweep"]`)
				code, body = post(t, s.c.Base+"/sweep", "scheduler")
				require.Equal(t, 200, code)
				require.Contains(t, body, `"due":0`, "a settled game is due no more")
			} else {
				mv := engine.Action{Kind: engine.ActEndManage, Actor: "p2", Version: version}
				require.NoError(t, tb.seats[1].Sign(&mv))
				// Made against the version before the abort, which the call
				// applied first: refused as stale (the game is over).
				refused(t, tb.call("act", "p2", map[string]any{"actionId": "m", "kind": "endManage", "version": mv.Version, "signature": mv.Signature}),
					"FAILED_PRECONDITION", "stale_version")
			}
			tb.sync()
			require.Equal(t, engine.PhaseFinished, tb.state.Phase)
			var aborted *engine.Event
			for i := range tb.log {
				e := &tb.log[i]
				if e.Type == engine.EvGameAborted {
					aborted = e
				}
				require.NotEqual(t, engine.EvRoundRevealed, e.Type, "a round closed without every link")
				require.NotEqual(t, engine.EvTurnOrderRolled, e.Type, "the pending start was applied (re-rolled)")
			}
			require.NotNil(t, aborted)
			require.Equal(t, []string{"p2"}, aborted.Trust.Missing)
			require.Equal(t, engine.ServerActor, aborted.Trust.By)
			require.Len(t, aborted.Trust.Reveals, 1)
			require.Equal(t, a.Link, aborted.Trust.Reveals[0].Link.String(), "the link that came is published with the abort")
			for _, seat := range tb.seats {
				require.NoError(t, seat.Follower().Err(), "the abort replays for the players")
			}
		})
	}
}

// post sends an empty POST with "Authorization: Bearer tok" and returns
// the status and body.
func post(t *testing.T, url, tok string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}
