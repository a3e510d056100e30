package sim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// OutputFiles are the files a run or a merge writes into its output
// directory. OpenOutput removes those a previous run left, so that a
// directory never holds files of two runs (a stale comparison.csv beside
// new results, say).
var OutputFiles = []string{"results.json", "measures.csv", "rounds.csv", "comparison.csv", "players.csv", "players_b.csv", "report.html"}

// Output is a run's output directory, prepared before the first game:
// players.csv (and players_b.csv, when comparing) are written during the
// run into temporary files that Finish moves into place with the rest.
type Output struct {
	Dir               string
	players, playersB *os.File
}

// OpenOutput creates dir if needed, checks that files can be created in
// it, removes the OutputFiles a previous run left there, and opens the
// temporary players files (playersB only when comparing). Its error names
// the directory and the problem; nothing has been removed then.
func OpenOutput(dir string, compare bool) (*Output, error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("--out %s: exists and is not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--out %s: %w", dir, err)
	}
	o := &Output{Dir: dir}
	var err error
	if o.players, err = os.CreateTemp(dir, ".players.csv.*.tmp"); err != nil {
		return nil, fmt.Errorf("--out %s: cannot write there: %w", dir, err)
	}
	if compare {
		if o.playersB, err = os.CreateTemp(dir, ".players_b.csv.*.tmp"); err != nil {
			o.Abort()
			return nil, fmt.Errorf("--out %s: cannot write there: %w", dir, err)
		}
	}
	for _, name := range OutputFiles {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			o.Abort()
			return nil, fmt.Errorf("--out %s: cannot remove the previous run's %s: %w", dir, name, err)
		}
	}
	return o, nil
}

// PerGame returns the writer of players.csv (for Config.PerGame).
func (o *Output) PerGame() io.Writer { return o.players }

// PerGameB returns the writer of players_b.csv, or nil when not comparing.
func (o *Output) PerGameB() io.Writer {
	if o.playersB == nil {
		return nil // not a nil *os.File in an interface
	}
	return o.playersB
}

// Finish writes the results into the directory and moves the players
// files into place. Without players rows (a merge of shards that have
// none), pass keepPlayers false and they are dropped.
func (o *Output) Finish(r *Results, keepPlayers bool) error {
	if err := r.Write(o.Dir); err != nil {
		o.Abort()
		return err
	}
	for _, f := range []struct {
		file *os.File
		name string
	}{{o.players, "players.csv"}, {o.playersB, "players_b.csv"}} {
		if f.file == nil {
			continue
		}
		err := f.file.Close()
		if keepPlayers && err == nil {
			err = os.Chmod(f.file.Name(), 0o644)
		}
		if keepPlayers && err == nil {
			err = os.Rename(f.file.Name(), filepath.Join(o.Dir, f.name))
		}
		if !keepPlayers || err != nil {
			os.Remove(f.file.Name())
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", f.name, err)
		}
	}
	return nil
}

// Abort closes and removes the temporary files.
func (o *Output) Abort() {
	for _, f := range []*os.File{o.players, o.playersB} {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
}

// MergePlayers appends the rows of the shards' players files (name is
// "players.csv" or "players_b.csv"), in the order of dirs, to w: exactly
// the file an unsharded run writes. Every shard must have the file, with
// the same header. ok is false when none has it.
func MergePlayers(w io.Writer, name string, dirs []string) (ok bool, err error) {
	var header []byte
	bw := bufio.NewWriterSize(w, 256<<10)
	for i, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) && i == 0 {
			for _, d := range dirs[1:] {
				if _, err := os.Stat(filepath.Join(d, name)); err == nil {
					return false, fmt.Errorf("%s has no %s but %s has", dir, name, d)
				}
			}
			return false, nil
		}
		if err != nil {
			return false, err
		}
		r := bufio.NewReaderSize(f, 256<<10)
		h, err := r.ReadBytes('\n')
		if err != nil {
			f.Close()
			return false, fmt.Errorf("%s: no header: %w", filepath.Join(dir, name), err)
		}
		if i == 0 {
			header = h
			bw.Write(h)
		} else if !bytes.Equal(h, header) {
			f.Close()
			return false, fmt.Errorf("%s: its columns differ from %s's", filepath.Join(dir, name), dirs[0])
		}
		_, err = io.Copy(bw, r)
		f.Close()
		if err != nil {
			return false, err
		}
	}
	return true, bw.Flush()
}
