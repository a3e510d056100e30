package functest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/table"
)

// SweepAnswer is the sweep's 200 answer (functions.API.Sweep).
type SweepAnswer struct {
	Result service.SweepResult         `json:"result"`
	Tables *functions.TableSweepResult `json:"tables"`
}

// Sweep POSTs to c's sweep with "Authorization: Bearer <bearer>" and
// decodes its 200 answer; another status is an error with its body.
func (c *Client) Sweep(ctx context.Context, bearer string) (*SweepAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/"+functions.SweepName, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sweep: %d %s", resp.StatusCode, b)
	}
	var a SweepAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("sweep: %w: %s", err, b)
	}
	return &a, nil
}

// Stall makes a stalled trustless table: seat 0 of tt (started) plays
// move with its own reveal, every seat but 0 and those of stallers
// reveals the round, and the round stays pending. It returns the
// pending round as seat 0 reads it.
func (tt *TrustTable) Stall(move game.Move, stallers ...int) (*table.PendingRound, error) {
	v0, err := tt.View(tt.Players[0].UID)
	if err != nil {
		return nil, err
	}
	a, err := tt.Seats[0].Move("stall-move", v0, move)
	if err != nil {
		return nil, err
	}
	if _, err := tt.Do(a); err != nil {
		return nil, err
	}
	for i := 1; i < len(tt.Seats); i++ {
		if slices.Contains(stallers, i) {
			continue
		}
		v, err := tt.View(tt.Players[i].UID)
		if err != nil {
			return nil, err
		}
		r, err := tt.Seats[i].Reveal("stall-reveal", v)
		if err != nil {
			return nil, err
		}
		if _, err := tt.Do(r); err != nil {
			return nil, err
		}
	}
	v, err := tt.View(tt.Players[0].UID)
	if err != nil {
		return nil, err
	}
	if v.Trustless == nil || v.Trustless.Pending == nil {
		return nil, fmt.Errorf("%s: no round pending after the stall", tt.ID)
	}
	return v.Trustless.Pending, nil
}
