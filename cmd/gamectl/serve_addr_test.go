package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
)

// A taken address is refused at once, naming it, before anything is
// started: with --emulators (in the cloud build) neither emulator is
// started for nothing (they take seconds), and in either build no store
// is opened.
func TestServeRefusesATakenAddressFirst(t *testing.T) {
	clearServeEnv(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	args := [][]string{{"--insecure-dev-auth"}}
	if cloudBuilt {
		args = append(args, []string{"--emulators"})
	}
	for _, a := range args {
		var stderr bytes.Buffer
		err := serve(context.Background(), append([]string{"--addr", addr}, a...), io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error(), "listen on "+addr) {
			t.Fatalf("serve %v on a taken address: %v; want a refusal naming %s", a, err, addr)
		}
		if strings.Contains(stderr.String(), "emulator") {
			t.Errorf("serve %v started something before it found its address taken: %s", a, stderr.String())
		}
	}
}
