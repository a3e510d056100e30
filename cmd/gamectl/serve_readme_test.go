package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeServeBlock returns the README's sh block that runs gamectl serve
// and calls it with curl (not the one that opens the play page).
func readmeServeBlock(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(b), "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, "gamectl serve") && strings.Contains(block, "curl") {
			return block
		}
	}
	t.Fatal("README.md has no sh block running gamectl serve")
	return ""
}

// TestReadmeServeExample runs the README's serve example as it is written,
// in bash, with gamectl being this test binary and the port a free one:
// every call answers a result, and its last line, kill %1, really stops
// the server (the port is closed after), as it would not with `go run`.
func TestReadmeServeExample(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	block := readmeServeBlock(t)
	if strings.Contains(block, "go run") {
		t.Fatal("the README's serve example uses go run, which kill %1 cannot stop")
	}
	const build = "go build -o out/gamectl ./cmd/gamectl"
	if !strings.Contains(block, build) || !strings.Contains(block, "127.0.0.1:8080") || !strings.Contains(block, "kill %1") {
		t.Fatalf("the README's serve example changed shape; update this test:\n%s", block)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	// out/gamectl is this test binary running gamectl's main (TestMain).
	wrapper := fmt.Sprintf("#!/bin/sh\nGAMECTL_TEST_MAIN=1 exec %q -- \"$@\"\n", os.Args[0])
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "out", "gamectl"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	script := strings.ReplaceAll(block, "127.0.0.1:8080", addr)
	script = strings.Replace(script, build, ": built by the test", 1)
	// wait $! (the block's one background job), not wait %1: bash may
	// have reaped the job and dropped it from its job table by then ("wait:
	// %1: no such job", exit 127), while it keeps the status of $!.
	script += "\nwait $!\necho \"exit=$?\"\n"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	// Its own process group, killed at the end: a server that outlived
	// kill %1 (the failure this test is for) must not outlive the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second // such a server would hold stdout open
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	if err := cmd.Wait(); err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("the README's serve example: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if n := strings.Count(out, `{"result":`); n != 5 || strings.Contains(out, `"error"`) {
		t.Errorf("%d results (want 5, no error):\n%s", n, out)
	}
	if !strings.Contains(out, "exit=0") {
		t.Errorf("the server did not exit 0 on kill %%1:\n%s\nstderr:\n%s", out, stderr.String())
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Error("the server still listens after kill %1")
	}
}
