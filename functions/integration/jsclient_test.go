package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairboard/fairboard/internal/emulator"
)

// TestJSClient runs `gamectl serve` on the Firestore and Auth emulators and
// a Node script with the Firebase JavaScript SDK (httpsCallableFromURL,
// connectAuthEmulator) that signs two users in and plays a few actions.
func TestJSClient(t *testing.T) {
	emu.Require(t)
	bin := gamectl(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--allow-seeded")
	srv.Env = append(os.Environ(),
		"FIRESTORE_EMULATOR_HOST="+emu.Firestore().Host,
		"FIREBASE_AUTH_EMULATOR_HOST="+emu.Auth().Host,
		"GOOGLE_CLOUD_PROJECT="+emu.ProjectID())
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var serveLog bytes.Buffer
	srv.Stderr = &serveLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("gamectl serve did not start: %q %v\n%s", line, err, serveLog.String())
	}
	root, err := emulator.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	node := exec.CommandContext(ctx, "node", filepath.Join(root, "functions", "integration", "testdata", "client.mjs"))
	node.Env = append(os.Environ(), "SERVE_URL="+base, "AUTH_HOST="+emu.Auth().Host,
		"PROJECT="+emu.ProjectID(), "GAME_ID=js-client")
	var nodeErr bytes.Buffer
	node.Stderr = &nodeErr
	out, err := node.Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s\nserve log:\n%s", err, nodeErr.String(), serveLog.String())
	}
	var got struct {
		UIDs    []string          `json:"uids"`
		Errors  map[string]string `json:"errors"`
		Actions []struct {
			Actor, Kind string
			Version     uint64
			Events      int
		} `json:"actions"`
		FinalVersion uint64 `json:"finalVersion"`
		LogLength    int    `json:"logLength"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	if got.Errors["nonOwnerStart"] != "functions/permission-denied" || got.Errors["unknownKind"] != "functions/invalid-argument" {
		t.Errorf("client saw errors %v; want permission-denied and invalid-argument", got.Errors)
	}
	if len(got.Actions) < 5 {
		t.Fatalf("client played %d actions; want at least 5", len(got.Actions))
	}
	// Firestore holds what the client saw: same version, same players, the
	// whole log.
	p, err := newEnv(t, nil).st.Game(context.Background(), "js-client")
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != got.FinalVersion || len(p.Players) != 2 || p.Players[0].UID != got.UIDs[0] || p.Players[1].UID != got.UIDs[1] {
		t.Errorf("stored game version %d players %+v; client saw version %d uids %v", p.Version, p.Players, got.FinalVersion, got.UIDs)
	}
	if uint64(got.LogLength) != p.LogSeq {
		t.Errorf("client read %d log events; the game has %d", got.LogLength, p.LogSeq)
	}
	t.Logf("JS client: %d actions, version %d, %d events", len(got.Actions), got.FinalVersion, got.LogLength)
}
