package checks_test

import (
	"testing"

	"github.com/fairboard/fairboard/internal/checks"
)

// TestOffLastsTheTest: every check is on; Off turns one off for its test
// only, and not another; a parallel test cannot turn one off.
func TestOffLastsTheTest(t *testing.T) {
	for _, c := range checks.All() {
		if !checks.On(c) {
			t.Fatalf("%v is off outside a control", c)
		}
	}
	t.Run("off", func(t *testing.T) {
		checks.Off(t, checks.RevealLink)
		if checks.On(checks.RevealLink) || !checks.On(checks.RevealSignature) {
			t.Fatal("Off turned off another check than the one asked, or none")
		}
	})
	if !checks.On(checks.RevealLink) {
		t.Fatal("the check stayed off after its test")
	}
	t.Run("parallel", func(t *testing.T) {
		t.Parallel()
		defer func() {
			if recover() == nil {
				t.Error("a parallel test turned a check off")
			}
		}()
		checks.Off(t, checks.RevealLink)
	})
}
