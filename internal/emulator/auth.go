package emulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// AuthOptions configures [StartAuth]. The zero value is valid.
type AuthOptions struct {
	// ProjectID is the project the emulator issues tokens for (their "aud"
	// and issuer); "" means DefaultProjectID. Use a "demo-" project: it
	// needs no credentials.
	ProjectID string
	// StartTimeout bounds the wait for readiness; 0 means DefaultStartTimeout.
	StartTimeout time.Duration
}

// Auth is a running Firebase Auth emulator. Stop it when done.
type Auth struct {
	// Host is "127.0.0.1:PORT", the value for FIREBASE_AUTH_EMULATOR_HOST.
	Host string
	// ProjectID is the project of the tokens the emulator issues.
	ProjectID string
	p         *proc
	dir       string // temporary working directory with firebase.json
}

// StartAuth runs the repository's pinned firebase-tools
// (node_modules/.bin/firebase) as `emulators:start --only auth` on a free
// 127.0.0.1 port, non-interactive and without update checks, with a
// generated firebase.json in a temporary directory, and returns once it
// answers HTTP. Its error includes the emulator's log when it fails to start.
func StartAuth(ctx context.Context, opts AuthOptions) (*Auth, error) {
	if opts.ProjectID == "" {
		opts.ProjectID = DefaultProjectID
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	for range startAttempts {
		var a *Auth
		if a, err = startAuthOnce(ctx, opts, root); err == nil {
			return a, nil
		}
		if !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
	return nil, err
}

// authReady is what firebase-tools prints once its emulators serve.
const authReady = "All emulators ready"

// startAuthOnce makes one try of StartAuth on ports picked afresh.
func startAuthOnce(ctx context.Context, opts AuthOptions, root string) (*Auth, error) {
	// Auth, the emulator hub and the logging emulator each need a port.
	ports, err := pickPorts(3)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "fairboard-auth-")
	if err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	if err := writeFirebaseJSON(dir, ports); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	args := []string{"emulators:start", "--only", "auth", "--project", opts.ProjectID,
		"--config", filepath.Join(dir, "firebase.json"), "--non-interactive"}
	env := []string{
		"CI=true",                // no prompts, no spinners
		"NO_UPDATE_NOTIFIER=1",   // no registry look-up for a newer CLI
		"XDG_CONFIG_HOME=" + dir, // fresh configstore: usage collection off
	}
	p, err := startProc(firebaseBin(root), args, dir, env, "fairboard-auth")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	host := "127.0.0.1:" + strconv.Itoa(ports[0])
	if err := waitReady(ctx, p, "auth emulator", "http://"+host+"/", authReady, opts.StartTimeout); err != nil {
		p.stop()
		os.RemoveAll(dir)
		return nil, err
	}
	return &Auth{Host: host, ProjectID: opts.ProjectID, p: p, dir: dir}, nil
}

// writeFirebaseJSON writes the emulator configuration with the auth, hub and
// logging ports, in that order, and the UI off.
func writeFirebaseJSON(dir string, ports []int) error {
	hp := func(port int) map[string]any { return map[string]any{"host": "127.0.0.1", "port": port} }
	conf := map[string]any{"emulators": map[string]any{
		"auth":    hp(ports[0]),
		"hub":     hp(ports[1]),
		"logging": hp(ports[2]),
		"ui":      map[string]any{"enabled": false},
	}}
	b, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		return fmt.Errorf("emulator: firebase.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "firebase.json"), b, 0o644); err != nil {
		return fmt.Errorf("emulator: firebase.json: %w", err)
	}
	return nil
}

// Stop kills the emulator's whole process group and removes its temporary
// directory. It is safe to call more than once.
func (a *Auth) Stop() error {
	err := a.p.stop()
	os.RemoveAll(a.dir)
	return err
}

// LogPath is the file that holds the emulator's output.
func (a *Auth) LogPath() string { return a.p.logPath }

// Reset deletes every account of the project.
func (a *Auth) Reset(ctx context.Context) error {
	return doDelete(ctx, "http://"+a.Host+"/emulator/v1/projects/"+a.ProjectID+"/accounts")
}
