package emulator

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fairboard/fairboard/internal/repo"
)

// ErrMissingTool is wrapped by the errors of [CheckTools] when a program the
// emulators need is not installed.
var ErrMissingTool = errors.New("emulator: missing tool")

// RepoRoot returns the nearest directory at or above the working directory
// that holds a go.mod file: the repository root when run by go test.
func RepoRoot() (string, error) { return repo.Root() }

// firebaseBin is the path of the pinned firebase-tools CLI under root.
func firebaseBin(root string) string {
	return filepath.Join(root, "node_modules", ".bin", "firebase")
}

// CheckTools reports what is missing to run the emulators: gcloud and java
// for Firestore (when firestore is true), node and the repository's
// node_modules/.bin/firebase for Auth (when auth is true). It returns nil if
// all are there, else an error wrapping [ErrMissingTool] that names each
// missing piece and how to install it.
func CheckTools(firestore, auth bool) error {
	var missing []string
	if firestore {
		for _, bin := range []string{"gcloud", "java"} {
			if _, err := exec.LookPath(bin); err != nil {
				missing = append(missing, bin+" (install google-cloud-cli-firestore-emulator and a Java 17 runtime)")
			}
		}
	}
	if auth {
		if _, err := exec.LookPath("node"); err != nil {
			missing = append(missing, "node (Node.js 20)")
		}
		root, err := RepoRoot()
		if err != nil {
			missing = append(missing, err.Error())
		} else if _, err := os.Stat(firebaseBin(root)); err != nil {
			missing = append(missing, "node_modules/.bin/firebase (run: npm ci --no-audit --no-fund --ignore-scripts)")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrMissingTool, strings.Join(missing, "; "))
}
