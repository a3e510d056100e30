package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"time"

	"github.com/fairboard/fairboard/table/trustseat"
)

// CallError is a function's refusal, as the callable protocol gives it:
// its status ("FAILED_PRECONDITION", ...), message and, for a game's or
// a table's rejection, its code (details.code: "pending", "wrong_index",
// "not_your_turn", ...).
type CallError struct {
	Function string
	HTTP     int
	Status   string
	Message  string
	Code     string
}

func (e *CallError) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("%s: %s (%s): %s", e.Function, e.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.Function, e.Status, e.Message)
}

// Is reports whether target names e's code: a string code type of the
// table's or the game's (errors.Is(err, table.CodeNotYourTurn)), matched
// by its spelling.
func (e *CallError) Is(target error) bool {
	if e.Code == "" {
		return false
	}
	return reflect.ValueOf(target).Kind() == reflect.String && target.Error() == e.Code
}

// Retryable reports whether the same call (same action id) may succeed
// later: ABORTED (the game was busy), UNAVAILABLE, DEADLINE_EXCEEDED,
// INTERNAL (a server fault), or no answer at all.
func (e *CallError) Retryable() bool {
	switch e.Status {
	case "ABORTED", "UNAVAILABLE", "DEADLINE_EXCEEDED", "INTERNAL", "":
		return true
	}
	return false
}

// ServerAck is a server's signature acknowledging a reveal (the
// dungeon's service.Ack, a table's) or a table's deal message: Ed25519 by
// its published key over rng/trustless.AckMessage, at At (the server's
// time, unix ms). It is table/trustseat's, which a table's
// acknowledgement (TableAck) carries.
type ServerAck = trustseat.ServerAck

// Functions calls the game's functions over Firebase's callable protocol
// as one player: POST {"data": ...} to Base + "/" + name with the
// player's ID token.
type Functions struct {
	// Base is the URL the functions are served under.
	Base string
	// Token returns the player's Firebase ID token (refreshed as needed).
	Token func(ctx context.Context) (string, error)
	// HTTP is the client (nil: one with a 60 s timeout).
	HTTP *http.Client
}

var defaultHTTP = &http.Client{Timeout: 60 * time.Second}

// Call sends data to the function and decodes its result into res (if
// not nil). A refusal is a *CallError; a failure to reach the function is
// a *CallError with no status (retryable).
func (f *Functions) Call(ctx context.Context, name string, data, res any) error {
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return err
	}
	tok, err := f.Token(ctx)
	if err != nil {
		return fmt.Errorf("client: the player's ID token: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.Base+"/"+name, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	hc := f.HTTP
	if hc == nil {
		hc = defaultHTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &CallError{Function: name, Message: err.Error()}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &CallError{Function: name, HTTP: resp.StatusCode, Message: err.Error()}
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Status  string `json:"status"`
			Message string `json:"message"`
			Details struct {
				Code string `json:"code"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return &CallError{Function: name, HTTP: resp.StatusCode, Message: fmt.Sprintf("not a callable answer: %.200q", raw)}
	}
	if out.Error != nil {
		return &CallError{Function: name, HTTP: resp.StatusCode, Status: out.Error.Status, Message: out.Error.Message, Code: out.Error.Details.Code}
	}
	if res != nil {
		if err := json.Unmarshal(out.Result, res); err != nil {
			return fmt.Errorf("client: %s's result: %w", name, err)
		}
	}
	return nil
}
