package emulator

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestCheckToolsNamesWhatIsMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := CheckTools(true, true)
	if !errors.Is(err, ErrMissingTool) {
		t.Fatalf("CheckTools = %v, want ErrMissingTool", err)
	}
	for _, want := range []string{"gcloud", "java", "node ("} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v does not name %s", err, want)
		}
	}
	if err := CheckTools(false, false); err != nil {
		t.Fatalf("CheckTools with nothing needed = %v", err)
	}
}

// Without the tools, Require skips the test, unless CI=true, where it fails
// it. Each case runs TestHelperMissingTools in a child test binary whose
// PATH holds nothing.
func TestRequireSkipsOrFailsWithoutTools(t *testing.T) {
	for _, tc := range []struct {
		ci       string
		wantFail bool
		wantOut  string
	}{
		{"", false, "skipping emulator test: emulator: missing tool"},
		{"false", false, "skipping emulator test"},
		{"true", true, "CI=true and the emulators cannot run"},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMissingTools$", "-test.v")
			cmd.Env = append(os.Environ(), "EMULATOR_HELPER_MISSING=1", "PATH="+t.TempDir(), "CI="+tc.ci)
			out, err := cmd.CombinedOutput()
			if failed := err != nil; failed != tc.wantFail {
				t.Fatalf("child failed=%v, want %v:\n%s", failed, tc.wantFail, out)
			}
			if !strings.Contains(string(out), tc.wantOut) {
				t.Fatalf("child output lacks %q:\n%s", tc.wantOut, out)
			}
		})
	}
}

func TestHelperMissingTools(t *testing.T) {
	if os.Getenv("EMULATOR_HELPER_MISSING") != "1" {
		t.Skip("helper process for TestRequireSkipsOrFailsWithoutTools")
	}
	s := NewSuite(Config{Firestore: true, Auth: true})
	s.Require(t)
	t.Fatal("Require returned without the tools")
}
