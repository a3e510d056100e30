package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
)

// TestCallErrorWords: a refusal names the function, its status and, for
// a game's rejection, the engine's code; without a code, no empty
// parentheses.
func TestCallErrorWords(t *testing.T) {
	e := &client.CallError{Function: "act", Status: "FAILED_PRECONDITION", Message: "pending", Code: "pending"}
	require.Equal(t, "act: FAILED_PRECONDITION (pending): pending", e.Error())
	e.Code = ""
	require.Equal(t, "act: FAILED_PRECONDITION: pending", e.Error())
}

// TestCallWithoutAnAnswer: a function that cannot be reached is a
// retryable *CallError without a status, not a success; a call whose
// context has ended returns the context's error.
func TestCallWithoutAnAnswer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close() // nothing listens there now
	f := &client.Functions{Base: base, Token: func(context.Context) (string, error) { return "t", nil }}

	var res struct{}
	err := f.Call(context.Background(), "getView", map[string]any{"gameId": "g"}, &res)
	var ce *client.CallError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, "getView", ce.Function)
	require.Empty(t, ce.Status)
	require.True(t, ce.Retryable())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = f.Call(ctx, "getView", map[string]any{"gameId": "g"}, &res)
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, errors.As(err, &ce), "the context's end, not a call error")
}
