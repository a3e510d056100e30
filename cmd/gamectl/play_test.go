package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestPlayText(t *testing.T) {
	code, out, errs := runCmd("play", "--seed", "cli-1", "--players", "3", "--bots", "aggressive")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "#1 GameCreated uid=p1") {
		t.Errorf("first line %q", lines[0])
	}
	if l := lines[len(lines)-2]; !strings.Contains(l, "GameFinished") || !strings.Contains(l, "winner=p") {
		t.Errorf("last line but one %q", l)
	}
	if l := lines[len(lines)-1]; !strings.Contains(l, `FairnessRevealed fairness={"revealed":true,"seed":"cli-1"`) {
		t.Errorf("last line %q", l)
	}
}

func TestPlayJSONAndAudit(t *testing.T) {
	auditPath := filepath.Join(t.TempDir(), "audit.jsonl")
	code, out, errs := runCmd("play", "--seed", "cli-2", "--players", "4", "--classes", "scout,scout,monk,duelist",
		"--bots", "cautious,aggressive,cautious,aggressive", "--json", "--audit-out", auditPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var seq uint64
	for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct {
			Seq  uint64 `json:"seq"`
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %d %q: %v", i, l, err)
		}
		if e.Seq != seq+1 {
			t.Fatalf("line %d seq %d after %d", i, e.Seq, seq)
		}
		seq = e.Seq
	}
	b, err := os.ReadFile(auditPath)
	if err != nil {
		t.Fatal(err)
	}
	al := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(al) < 20 {
		t.Fatalf("only %d audit entries", len(al))
	}
	var prev uint64
	for i, l := range al {
		var e struct {
			Seq  uint64 `json:"seq"`
			Tag  string `json:"tag"`
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if e.Seq != prev+1 || e.Tag == "" || e.Kind == "" {
			t.Fatalf("audit line %d = %s after seq %d", i, l, prev)
		}
		prev = e.Seq
	}
	if !strings.Contains(al[0], `"tag":"deck.initShuffle.treasure.t1"`) {
		t.Errorf("first audit entry %s", al[0])
	}
}

func TestPlayBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"name":"x","bogus":1}`), 0o644)
	for _, args := range [][]string{
		{"play"},
		{"play", "--seed", "x", "--players", "1"},
		{"play", "--seed", "x", "--players", "7"},
		{"play", "--seed", "x", "--players", "2", "--classes", "warrior,wizard"},
		{"play", "--seed", "x", "--players", "3", "--classes", "warrior,monk"},
		{"play", "--seed", "x", "--players", "2", "--bots", "reckless"},
		{"play", "--seed", "x", "--rules", "/nonexistent/rules.json"},
		{"play", "--seed", "x", "--rules", bad},
		{"play", "--seed", "x", "--nope"},
		{"play", "--mode", "trustless", "--seed", "x"},
		{"play", "--mode", "trustless", "--server-seed-hex", strings.Repeat("ab", 32)},
		{"play", "--mode", "trustless", "--entropy", "00"},
		{"play", "--mode", "oracle"},
		{"play", "--seed", "x", "--openings"},
		{"play", "--mode", "fair", "--openings", "--players", "2", "--entropy", "00,11"},
		{"play", "--mode", "fair", "--openings", "--players", "3", "--entropy", strings.Repeat("ab", 32)},
	} {
		if code, _, errs := runCmd(args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}

func TestReplayFixtures(t *testing.T) {
	files, _ := filepath.Glob("../../games/dungeon/fixtures/testdata/*.json")
	if len(files) < 5 {
		t.Fatalf("found %d fixtures", len(files))
	}
	for _, f := range files {
		code, out, errs := runCmd("replay", f)
		if code != 0 || !strings.HasPrefix(out, "OK ") {
			t.Errorf("%s: exit %d, %q %q", f, code, out, errs)
		}
	}
}

func TestReplayTampered(t *testing.T) {
	b, err := os.ReadFile("../../games/dungeon/fixtures/testdata/03-earthquake.json")
	if err != nil {
		t.Fatal(err)
	}
	// Change B's back-roll in the expected log.
	old := `{"seq":23,"type":"DiceRolled","who":"B","tag":"chance.earthquake.backRoll","sides":4,"value":2}`
	if !bytes.Contains(b, []byte(old)) {
		t.Fatal("fixture 03 changed; update this test")
	}
	b = bytes.Replace(b, []byte(old), []byte(strings.Replace(old, `"value":2`, `"value":4`, 1)), 1)
	path := filepath.Join(t.TempDir(), "t.json")
	os.WriteFile(path, b, 0o644)
	code, _, errs := runCmd("replay", path)
	if code != 1 || !strings.Contains(errs, "step 0: event #4 differs") || !strings.Contains(errs, `"value":4`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runCmd("replay"); code != 2 {
		t.Errorf("replay without FILE: exit %d, want 2", code)
	}
	if code, _, _ := runCmd("replay", "/nonexistent.json"); code != 2 {
		t.Errorf("replay of a missing file: exit %d, want 2", code)
	}
}

// --bots means one thing in play and sim: a list dealt over the seats in
// turn. "cautious,aggressive" for 4 players is cautious, aggressive,
// cautious, aggressive; a longer list than the seats is refused.
func TestPlayDealsBotsOverTheSeats(t *testing.T) {
	play := func(bots string) string {
		code, out, errs := runCmd("play", "--seed", "deal-3", "--players", "4", "--json", "--bots", bots)
		if code != 0 {
			t.Fatalf("--bots %s: exit %d: %s", bots, code, errs)
		}
		return out
	}
	short, full := play("cautious,aggressive"), play("cautious,aggressive,cautious,aggressive")
	if short != full {
		t.Error("--bots cautious,aggressive does not play as cautious,aggressive,cautious,aggressive")
	}
	if short == play("cautious") || short == play("aggressive") {
		t.Error("the dealt list played as a single policy (pick another seed if the policies never differ)")
	}
	if play("aggressive") != play("aggressive,aggressive,aggressive,aggressive") {
		t.Error("one name is not every seat")
	}
	code, _, errs := runCmd("play", "--seed", "x", "--players", "2", "--bots", "cautious,aggressive,cautious")
	if code != 2 || !strings.Contains(errs, "names 3 policies for 2 players") {
		t.Errorf("a list longer than the seats: exit %d, %q", code, errs)
	}
}

// --audit-out is checked before the game: a missing directory or a
// directory as the file is exit 2, with nothing played or printed.
func TestPlayChecksAuditOutFirst(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing", "audit.jsonl"), dir} {
		code, out, errs := runCmd("play", "--seed", "x", "--audit-out", path)
		if code != 2 || out != "" || !strings.Contains(errs, "--audit-out "+path) {
			t.Errorf("--audit-out %s: exit %d, stdout %d bytes, stderr %q", path, code, len(out), errs)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Every bad input of replay is exit 2, a divergence exit 1.
func TestReplayBadInputIsExit2(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"empty.json": "", "object.json": "{}", "array.json": "[]", "text.json": "hello"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		if code, out, errs := runCmd("replay", p); code != 2 || out != "" || errs == "" {
			t.Errorf("replay %s: exit %d, stdout %q, stderr %q; want 2 and a message", name, code, out, errs)
		}
	}
	for _, args := range [][]string{{"replay"}, {"replay", "a", "b"}, {"replay", filepath.Join(dir, "nonexistent.json")}, {"replay", "--nope", "x"}} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// --export is checked before the game too.
func TestPlayChecksExportFirst(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "missing", "game.json")
	code, out, errs := runCmd("play", "--seed", "x", "--export", path)
	if code != 2 || out != "" || !strings.Contains(errs, "--export "+path) {
		t.Errorf("--export %s: exit %d, stdout %d bytes, stderr %q", path, code, len(out), errs)
	}
}

// gamectl play --mode trustless plays a whole game in process, each seat
// its own client, and its export verifies.
func TestPlayTrustless(t *testing.T) {
	x := playExport(t, "--mode", "trustless", "--players", "5", "--bots", "aggressive,cautious")
	require.Equal(t, "trustless", string(x.Mode))
	require.Len(t, x.Trustless.Seats, 5)
	code, out, errs := verifyExport(t, x)
	require.Zero(t, code, errs)
	require.Contains(t, out, "ok: trustless game bot-trustless: ")
}

// gamectl play --mode fair --openings: every seat commits at join and
// opens before the start; the export verifies.
func TestPlayFairOpenings(t *testing.T) {
	x := playExport(t, "--mode", "fair", "--openings", "--players", "3")
	code, out, errs := verifyExport(t, x)
	require.Zero(t, code, errs)
	require.Contains(t, out, "ok: fair game bot-fair: ")
	var opens int
	for _, a := range x.Actions {
		if a.Kind == "open" {
			opens++
			require.Len(t, a.Entropy, 64)
		}
	}
	require.Equal(t, 3, opens)
}
