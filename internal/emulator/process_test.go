package emulator

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startTree starts, under the watchdog, this test binary as a child that
// does what gcloud does: it moves itself into a process group of its own,
// then forks a long-lived grandchild (sleep, standing for java).
func startTree(t testing.TB) *proc {
	t.Helper()
	p, err := startProc(os.Args[0], []string{"-test.run=^TestHelperChild$"}, "", []string{"EMULATOR_HELPER_CHILD=1"}, "fairboard-proctest")
	if err != nil {
		t.Fatal(err)
	}
	waitMembers(t, p.sid, 4) // watchdog, its reader, the child, sleep
	return p
}

// TestHelperChild is the child of startTree.
func TestHelperChild(t *testing.T) {
	if os.Getenv("EMULATOR_HELPER_CHILD") != "1" {
		t.Skip("helper process for startTree")
	}
	if err := syscall.Setpgid(0, 0); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("sleep", "300").Run(); err != nil {
		t.Fatal(err)
	}
}

// waitMembers waits until session sid has at least n live processes.
func waitMembers(t testing.TB, sid, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids, err := sessionMembers(sid)
		if err != nil {
			t.Skipf("no /proc: %v", err)
		}
		if len(pids) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d has %d processes, want >= %d", sid, len(pids), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitGone waits until session sid has no live process.
func waitGone(t *testing.T, sid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for sessionAlive(sid) {
		if time.Now().After(deadline) {
			pids, _ := sessionMembers(sid)
			t.Fatalf("session %d still has processes %v", sid, pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestStopKillsWholeSession(t *testing.T) {
	p := startTree(t)
	defer os.Remove(p.logPath)
	if err := p.stop(); err != nil {
		t.Fatal(err)
	}
	if pids, _ := sessionMembers(p.sid); len(pids) != 0 {
		t.Fatalf("after stop, session %d still has %v", p.sid, pids)
	}
	if err := p.stop(); err != nil {
		t.Fatalf("second stop: %v", err)
	}
}

// Closing the lifeline is what happens when the test binary dies: the
// watchdog alone must clean up, with no help from stop.
func TestLifelineEOFKillsSession(t *testing.T) {
	p := startTree(t)
	defer os.Remove(p.logPath)
	defer p.stop()
	p.lifeline.Close()
	waitGone(t, p.sid)
}

// A test binary that panics after starting an emulator must leave nothing
// behind: the child test below starts a tree, prints its session id and
// panics; this test checks that the session dies with it.
func TestPanicLeavesNoProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperPanics$")
	cmd.Env = append(os.Environ(), "EMULATOR_HELPER_PANIC=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sid := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "SID="); ok {
			sid, _ = strconv.Atoi(v)
		}
	}
	werr := cmd.Wait()
	if sid == 0 {
		t.Fatalf("helper printed no PGID (exit %v)", werr)
	}
	if werr == nil {
		t.Fatal("helper exited cleanly, want a panic")
	}
	waitGone(t, sid)
}

func TestHelperPanics(t *testing.T) {
	if os.Getenv("EMULATOR_HELPER_PANIC") != "1" {
		t.Skip("helper process for TestPanicLeavesNoProcess")
	}
	p := startTree(t)
	os.Remove(p.logPath)
	os.Stdout.WriteString("SID=" + strconv.Itoa(p.sid) + "\n")
	panic("deliberate panic with an emulator running")
}

// A program that cannot start ends the watchdog at once, so waitReady
// reports it with the log instead of waiting for its timeout.
func TestStartProcMissingBinaryFailsFast(t *testing.T) {
	p, err := startProc("/nonexistent/emulator", nil, "", nil, "fairboard-proctest")
	if err != nil {
		t.Fatal(err) // the watchdog shell starts; the missing program shows in the log
	}
	defer os.Remove(p.logPath)
	defer p.stop()
	start := time.Now()
	werr := waitReady(t.Context(), p, "missing", "http://127.0.0.1:1/", "ready", 30*time.Second)
	if time.Since(start) > 10*time.Second {
		t.Errorf("waitReady took %v, want it to notice the exit at once", time.Since(start))
	}
	if werr == nil || !strings.Contains(werr.Error(), "exited before it was ready") || !strings.Contains(werr.Error(), "nonexistent") {
		t.Fatalf("waitReady = %v, want an error quoting the log about the missing program", werr)
	}
}
