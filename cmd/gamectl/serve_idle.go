package main

import "time"

// checkIdleFlags refuses a negative --table-idle or --lobby-idle.
func (c *serveConfig) checkIdleFlags() error {
	if c.tableIdle < 0 {
		return usagef("--table-idle %v: want a duration of 0 (never) or more", c.tableIdle)
	}
	if c.lobbyIdle < 0 {
		return usagef("--lobby-idle %v: want a duration of 0 (never) or more", c.lobbyIdle)
	}
	return nil
}

// idleLimits are the flags as functions.API.WithTableIdle takes them:
// 0 (never) as a negative limit.
func (c *serveConfig) idleLimits() (playing, lobby time.Duration) {
	never := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	return never(c.tableIdle), never(c.lobbyIdle)
}
