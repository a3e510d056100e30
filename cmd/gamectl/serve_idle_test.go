package main

import (
	"testing"
	"time"
)

// The idle flags as the API takes them: 0 is never (a negative limit),
// any other duration itself.
func TestServeIdleLimits(t *testing.T) {
	for _, tc := range []struct {
		table, lobby         time.Duration
		wantTable, wantLobby time.Duration
	}{
		{168 * time.Hour, 24 * time.Hour, 168 * time.Hour, 24 * time.Hour},
		{0, 90 * time.Minute, -1, 90 * time.Minute},
		{time.Hour, 0, time.Hour, -1},
	} {
		c := serveConfig{tableIdle: tc.table, lobbyIdle: tc.lobby}
		if err := c.checkIdleFlags(); err != nil {
			t.Errorf("%+v: %v", tc, err)
		}
		if p, l := c.idleLimits(); p != tc.wantTable || l != tc.wantLobby {
			t.Errorf("idleLimits(%v, %v) = %v, %v; want %v, %v", tc.table, tc.lobby, p, l, tc.wantTable, tc.wantLobby)
		}
	}
}
