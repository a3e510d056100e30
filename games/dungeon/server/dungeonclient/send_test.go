package dungeonclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fairboard/fairboard/client"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// scripted is a functions server that answers each call with the next of
// its answers (the last one again when they run out), and records the
// data of every call.
type scripted struct {
	mu      sync.Mutex
	answers []any
	calls   []map[string]any
	onCall  func()
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var body struct {
		Data map[string]any `json:"data"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	s.calls = append(s.calls, body.Data)
	if s.onCall != nil {
		s.onCall()
	}
	a := s.answers[min(len(s.calls), len(s.answers))-1]
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(a)
}

func ok() any { return map[string]any{"result": map[string]any{}} }

func refusal(status, code string) any {
	return map[string]any{"error": map[string]any{"status": status, "message": "no", "details": map[string]any{"code": code}}}
}

// scriptedClient is a client whose functions are s.
func scriptedClient(t *testing.T, s *scripted) *Client {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return newClient(Config{GameID: "g", UID: "p2", Retry: time.Millisecond, SecretsFile: filepath.Join(t.TempDir(), "p2.json"),
		Functions: &client.Functions{Base: srv.URL, Token: func(context.Context) (string, error) { return "t", nil }}})
}

// TestSendRevealCountsWhatTheServerTook: a reveal the server took (or
// had already: its action brought it) is recorded as sent, so that it is
// not sent again; one for a round that moved on meanwhile (another
// index, past the deadline, the game over) is no error and not recorded;
// any other refusal is returned and not recorded.
func TestSendRevealCountsWhatTheServerTook(t *testing.T) {
	for name, c := range map[string]struct {
		answer any
		sent   bool
		err    bool
	}{
		"taken":             {ok(), true, false},
		"already revealed":  {refusal("FAILED_PRECONDITION", string(engine.CodeAlreadyRevealed)), true, false},
		"another index":     {refusal("FAILED_PRECONDITION", string(engine.CodeWrongIndex)), false, false},
		"past the deadline": {refusal("FAILED_PRECONDITION", string(engine.CodeDeadlinePassed)), false, false},
		"the game over":     {refusal("FAILED_PRECONDITION", string(engine.CodeGameOver)), false, false},
		"a bad signature":   {refusal("INVALID_ARGUMENT", string(engine.CodeBadSignature)), false, true},
	} {
		s := &scripted{answers: []any{c.answer}}
		cl := scriptedClient(t, s)
		err := cl.sendReveal(context.Background(), &engine.Action{Kind: engine.ActReveal, Index: 4, Seat: 1})
		require.Equal(t, c.err, err != nil, "%s: %v", name, err)
		want := uint32(0)
		if c.sent {
			want = 4
		}
		require.Equal(t, want, cl.sent, name)
		require.Len(t, s.calls, 1, name)
		require.Equal(t, "reveal-4", s.calls[0]["actionId"], name)
	}
}

// TestCallSendsAgainWhileRetryable: a retryable refusal (the game busy,
// the function unavailable) is sent again, with the same action id,
// until an answer that is not; a context that ends meanwhile ends it.
func TestCallSendsAgainWhileRetryable(t *testing.T) {
	s := &scripted{answers: []any{refusal("UNAVAILABLE", ""), refusal("ABORTED", ""), refusal("INTERNAL", ""), ok()}}
	cl := scriptedClient(t, s)
	require.NoError(t, cl.call(context.Background(), "act", map[string]any{"actionId": "v7"}, nil))
	require.Len(t, s.calls, 4)
	for _, c := range s.calls {
		require.Equal(t, "v7", c["actionId"])
	}

	s = &scripted{answers: []any{refusal("FAILED_PRECONDITION", "pending")}}
	cl = scriptedClient(t, s)
	var ce *client.CallError
	require.True(t, errors.As(cl.call(context.Background(), "act", map[string]any{}, nil), &ce))
	require.Len(t, s.calls, 1, "not retryable: sent once")

	ctx, cancel := context.WithCancel(context.Background())
	s = &scripted{answers: []any{refusal("UNAVAILABLE", "")}, onCall: cancel}
	cl = scriptedClient(t, s)
	require.ErrorIs(t, cl.call(ctx, "act", map[string]any{}, nil), context.Canceled)
	require.Len(t, s.calls, 1)
}

// TestCallPausesDoubling: the pause before a retryable call is sent again
// starts at Config.Retry and doubles: with 20 ms, the sends at 0, 20 and
// 60 ms fit in 100 ms, the next (140 ms) does not (a loaded machine may
// send fewer, never more).
func TestCallPausesDoubling(t *testing.T) {
	s := &scripted{answers: []any{refusal("UNAVAILABLE", "")}}
	cl := scriptedClient(t, s)
	cl.cfg.Retry = 20 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, cl.call(ctx, "act", map[string]any{}, nil), context.DeadlineExceeded)
	s.mu.Lock()
	defer s.mu.Unlock()
	require.LessOrEqual(t, len(s.calls), 3)
}
