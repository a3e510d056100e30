package main

import (
	"os"
	"testing"
)

// TestMain lets a test run this test binary as gamectl itself (for signals
// and exit codes): with GAMECTL_TEST_MAIN=1 it runs main's dispatch on the
// arguments after "--".
func TestMain(m *testing.M) {
	if os.Getenv("GAMECTL_TEST_MAIN") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(run(args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
