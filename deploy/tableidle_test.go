package deploy

import (
	"strings"
	"testing"
	"time"
)

// TestIdleLimit: FAIRBOARD_TABLE_IDLE's and FAIRBOARD_LOBBY_IDLE's
// values; a bad one is an error naming its variable, and FromEnv fails
// with it before it dials anything.
func TestIdleLimit(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 0, "off": -1, "168h": 168 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := IdleLimit(EnvTableIdle, v); err != nil || got != want {
			t.Errorf("IdleLimit(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"0s", "-1h", "soon", "7d", "OFF"} {
		if _, err := IdleLimit(EnvLobbyIdle, v); err == nil || !strings.Contains(err.Error(), EnvLobbyIdle) {
			t.Errorf("IdleLimit(%q) = %v; want an error naming %s", v, err, EnvLobbyIdle)
		}
	}
	env := map[string]string{EnvTableIdle: "off", EnvLobbyIdle: "2h"}
	p, l, err := idleFromEnv(func(k string) string { return env[k] })
	if err != nil || p != -1 || l != 2*time.Hour {
		t.Errorf("idleFromEnv = %v, %v, %v; want -1, 2h", p, l, err)
	}
	env[EnvTableIdle] = "a week"
	if _, _, err := idleFromEnv(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), EnvTableIdle) {
		t.Errorf("idleFromEnv with a bad %s: %v", EnvTableIdle, err)
	}
	t.Setenv("GOOGLE_CLOUD_PROJECT", "demo-idle")
	t.Setenv(EnvLobbyIdle, "-1h")
	if _, err := FromEnv(t.Context()); err == nil || !strings.Contains(err.Error(), EnvLobbyIdle) {
		t.Errorf("FromEnv with %s=-1h = %v; want its refusal", EnvLobbyIdle, err)
	}
}
