package emulator

import (
	"context"
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

// waitReady polls url until it answers 200, the process exits, ctx ends or
// timeout passes, whichever comes first. Errors carry the tail of the log.
func waitReady(ctx context.Context, p *proc, what, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("emulator: %s: %w", what, err)
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.exited:
			return fmt.Errorf("emulator: %s exited before it was ready (%v); log %s:\n%s", what, p.waitErr, p.logPath, indent(p.log(8<<10)))
		case <-ctx.Done():
			return fmt.Errorf("emulator: %s not ready at %s: %w; log %s:\n%s", what, url, ctx.Err(), p.logPath, indent(p.log(8<<10)))
		case <-tick.C:
		}
	}
}

// indent prefixes every line of s with a tab, for logs inside errors.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
