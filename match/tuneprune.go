package match

import (
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// stepDir matches the name of a step's directory: "gen-N" (NTBEA),
// "batch-N" (the grid), "confirm".
var stepDir = regexp.MustCompile(`^(gen-[0-9]+|batch-[0-9]+|confirm)$`)

// partFile matches a part's file, and the temporary file WritePart renames
// into place (left by a task stopped while writing).
var partFile = regexp.MustCompile(`^(part-[0-9]+-of-[0-9]+\.json|\.part-[0-9]+-of-[0-9]+\.json\.[0-9]+\.tmp)$`)

// remove is os.Remove; a test makes it fail.
var remove = os.Remove

// PruneSteps removes the parts of every step of a run in dir but the step
// called keep ("" for none): once a step is folded into the state, its
// parts and those of the steps before it are no longer read. Only a step's
// directory (gen-N, batch-N, confirm) is looked in, only part files are
// removed, and the directory only once empty, so a file of the user's is
// left where it is. It returns the first error met, having tried every
// step.
func PruneSteps(dir, keep string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var first error
	note := func(err error) {
		if err != nil && first == nil && !errors.Is(err, iofs.ErrNotExist) {
			first = err
		}
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == keep || !stepDir.MatchString(e.Name()) {
			continue
		}
		step := filepath.Join(dir, e.Name())
		files, err := os.ReadDir(step)
		if err != nil {
			note(err)
			continue
		}
		left := false
		for _, f := range files {
			if f.Type().IsRegular() && partFile.MatchString(f.Name()) {
				note(remove(filepath.Join(step, f.Name())))
			} else {
				left = true
			}
		}
		if !left {
			note(remove(step))
		}
	}
	return first
}
