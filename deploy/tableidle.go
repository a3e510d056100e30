package deploy

import (
	"fmt"
	"time"
)

// The idle limits' environment variables (docs/functions.md, "The
// sweep"): read by the sweep alone, the only function that ends idle
// tables.
const (
	// EnvTableIdle is how long a table in play may go without an action
	// before the sweep ends it as idle (a Go duration: "168h"; "off"
	// never); unset: functions.DefaultTableIdle, a week.
	EnvTableIdle = "FAIRBOARD_TABLE_IDLE"
	// EnvLobbyIdle is the same for a table still in its lobby; unset:
	// functions.DefaultLobbyIdle, a day.
	EnvLobbyIdle = "FAIRBOARD_LOBBY_IDLE"
)

// IdleLimit reads the idle limit of the variable name, value v, as
// functions.API.WithTableIdle takes it: "" the default (0), "off" never
// (-1), else a positive Go duration ("168h"); anything else is an error
// naming the variable.
func IdleLimit(name, v string) (time.Duration, error) { return durationOrOff(name, v, "168h") }

// durationOrOff reads the variable name's value v: "" is 0 (the
// default), "off" -1 (never), else a positive Go duration; anything else
// is an error naming the variable, with example as a duration it takes.
func durationOrOff(name, v, example string) (time.Duration, error) {
	switch v {
	case "":
		return 0, nil
	case "off":
		return -1, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("deploy: %s=%q: want a positive duration (%q) or \"off\"", name, v, example)
	}
	return d, nil
}

// idleFromEnv reads EnvTableIdle and EnvLobbyIdle with getenv.
func idleFromEnv(getenv func(string) string) (playing, lobby time.Duration, err error) {
	if playing, err = IdleLimit(EnvTableIdle, getenv(EnvTableIdle)); err != nil {
		return 0, 0, err
	}
	if lobby, err = IdleLimit(EnvLobbyIdle, getenv(EnvLobbyIdle)); err != nil {
		return 0, 0, err
	}
	return playing, lobby, nil
}
