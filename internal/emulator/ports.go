package emulator

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// freePorts returns n distinct TCP ports on 127.0.0.1 that were free a moment
// ago: the kernel picks them, then the listeners close. Another process may
// still take one before the emulator binds it; the emulator then fails to
// start and the error says so.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("emulator: free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// errPortTaken says that an emulator could not bind a port that was free
// when freePorts picked it: another process took it meanwhile. The start
// is tried again on other ports.
var errPortTaken = errors.New("a port it was given was taken before it could bind it")

// portTakenMarks are what the emulators print when a port is taken: the
// Firestore emulator's Java, and firebase-tools for the Auth emulator, its
// hub and its logging emulator.
var portTakenMarks = []string{"Address already in use", "BindException", "EADDRINUSE", "is not open on"}

// startAttempts is how often an emulator's start is tried when a port it
// was given turns out taken (each try on freshly picked ports).
const startAttempts = 5

// pickPorts picks the ports of a start; tests replace it to hand out a
// taken port.
var pickPorts = freePorts

// waitReady polls url until it answers 200 and the emulator's own log
// holds ready (what it prints once it serves): a 200 alone could come from
// another process on the same port, when the port was taken between
// freePorts and the emulator's bind. It returns errPortTaken (wrapped,
// with the log) as soon as the log shows a port taken, and another error
// when the process exits, ctx ends or timeout passes, whichever comes
// first. Errors carry the tail of the log.
func waitReady(ctx context.Context, p *proc, what, url, ready string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		head := p.head(64 << 10)
		if containsAny(head, portTakenMarks) {
			return fmt.Errorf("emulator: %s: %w; log %s:\n%s", what, errPortTaken, p.logPath, indent(p.log(8<<10)))
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("emulator: %s: %w", what, err)
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(head, ready) {
				return nil
			}
		}
		select {
		case <-p.exited:
			if head := p.head(64 << 10); containsAny(head, portTakenMarks) {
				return fmt.Errorf("emulator: %s: %w; log %s:\n%s", what, errPortTaken, p.logPath, indent(p.log(8<<10)))
			}
			return fmt.Errorf("emulator: %s exited before it was ready (%v); log %s:\n%s", what, p.waitErr, p.logPath, indent(p.log(8<<10)))
		case <-ctx.Done():
			return fmt.Errorf("emulator: %s not ready at %s: %w; log %s:\n%s", what, url, ctx.Err(), p.logPath, indent(p.log(8<<10)))
		case <-tick.C:
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, m := range subs {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// indent prefixes every line of s with a tab, for logs inside errors.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
