package emulator

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// takenPort serves 200 on / from a port of its own, as another emulator
// (or anything else) holding a port freePorts had picked would.
func takenPort(t *testing.T) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("Ok")) }))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

// handOut makes pickPorts give taken as the first port of its first call,
// then pick free ports as usual; it counts the calls.
func handOut(t *testing.T, taken int) *int {
	t.Helper()
	calls := 0
	pickPorts = func(n int) ([]int, error) {
		calls++
		ports, err := freePorts(n)
		if calls == 1 && err == nil {
			ports[0] = taken
		}
		return ports, err
	}
	t.Cleanup(func() { pickPorts = freePorts })
	return &calls
}

// A port taken between freePorts and the emulator's bind (another
// package's emulator, under go test's parallel packages) fails that start
// and the next try, on other ports, succeeds; the emulator returned is
// ours, not the server that answers on the taken port.
func TestStartFirestoreTriesAgainWhenItsPortIsTaken(t *testing.T) {
	emu.Require(t) // the tools are there
	taken := takenPort(t)
	calls := handOut(t, taken)
	f, err := StartFirestore(t.Context(), FirestoreOptions{ProjectID: "demo-ports"})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	if f.Host == "127.0.0.1:"+strconv.Itoa(taken) || *calls != 2 {
		t.Fatalf("started on %s after %d tries; want another port than the taken %d, on the second try", f.Host, *calls, taken)
	}
	if err := f.Reset(t.Context()); err != nil {
		t.Fatalf("the emulator returned does not answer as one: %v", err)
	}
}

func TestStartAuthTriesAgainWhenItsPortIsTaken(t *testing.T) {
	emu.Require(t)
	taken := takenPort(t)
	calls := handOut(t, taken)
	a, err := StartAuth(t.Context(), AuthOptions{ProjectID: "demo-ports"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	if a.Host == "127.0.0.1:"+strconv.Itoa(taken) || *calls != 2 {
		t.Fatalf("started on %s after %d tries; want another port than the taken %d, on the second try", a.Host, *calls, taken)
	}
	if err := a.Reset(t.Context()); err != nil {
		t.Fatalf("the emulator returned does not answer as one: %v", err)
	}
}

// The positive control of the readiness check: an emulator started on a
// taken port, waited for without its own ready line, is taken as ready
// by the other server's 200; with the line required, the taken port is
// named instead.
func TestReadinessNeedsTheEmulatorsOwnWord(t *testing.T) {
	emu.Require(t)
	taken := takenPort(t)
	host := "127.0.0.1:" + strconv.Itoa(taken)
	for _, ready := range []string{"", firestoreReady} {
		p, err := startProc("gcloud", []string{"emulators", "firestore", "start", "--host-port=" + host, "--quiet"}, "",
			[]string{"CLOUDSDK_CORE_DISABLE_PROMPTS=1", "CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK=true"}, "fairboard-firestore")
		if err != nil {
			t.Fatal(err)
		}
		err = waitReady(t.Context(), p, "firestore emulator", "http://"+host+"/", ready, 2*time.Minute)
		p.stop()
		switch {
		case ready == "" && err != nil:
			t.Fatalf("control: without the ready line, waitReady = %v; want it fooled by the other server's 200", err)
		case ready != "" && !errors.Is(err, errPortTaken):
			t.Fatalf("waitReady = %v; want the taken port named", err)
		}
	}
}
