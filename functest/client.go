// Package functest calls the game's functions over HTTP the way a
// Firebase client does ({"data":...} bodies, Bearer ID tokens), for the
// functions' tests, the integration tests and the benchmarks.
package functest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// Client calls functions at Base + "/" + name.
type Client struct {
	Base string
	HTTP *http.Client
}

// Answer is a callable answer: HTTP status and either Result or Error.
type Answer struct {
	HTTP   int
	Result json.RawMessage
	Error  *Error
}

// Error is the callable protocol's error object.
type Error struct {
	Status  string         `json:"status"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Status + ": " + e.Message }

// Raw posts body to the function with the token ("" sends none).
func (c *Client) Raw(ctx context.Context, name, token string, body []byte) (*Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/"+name, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *Error          `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("functest: %s answered %d %q: %w", name, resp.StatusCode, raw, err)
	}
	return &Answer{HTTP: resp.StatusCode, Result: out.Result, Error: out.Error}, nil
}

// Call posts {"data": data} and decodes the result into res (if not nil).
// A callable error is returned as *Error.
func (c *Client) Call(ctx context.Context, name, token string, data, res any) error {
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return err
	}
	a, err := c.Raw(ctx, name, token, body)
	if err != nil {
		return err
	}
	if a.Error != nil {
		return a.Error
	}
	if res != nil {
		return json.Unmarshal(a.Result, res)
	}
	return nil
}

// Result is the result of createGame, joinGame, startGame and act.
type Result struct {
	GameID   string         `json:"gameId"`
	ActionID string         `json:"actionId"`
	Version  uint64         `json:"version"`
	Events   []engine.Event `json:"events"`
	Replayed bool           `json:"replayed"`
}

// View is getView's result.
type View struct {
	State  engine.Public  `json:"state"`
	Events []engine.Event `json:"events"`
	More   bool           `json:"more"`
}

// Status returns err's callable status, or "" if err is not one.
func Status(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Status
	}
	return ""
}
