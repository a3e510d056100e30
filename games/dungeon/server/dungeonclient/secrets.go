package dungeonclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

// fileFormat names the secrets file's format.
const fileFormat = "fairboard-seat/v1"

// secretsFile is what the client keeps in the file its caller names: the
// seat's secrets (its chain's secret, its key's seed, the last index it
// revealed and that round's digest), and the reveal it is sending, with
// its link, written before the link leaves the process.
type secretsFile struct {
	Format  string         `json:"format"`
	Secrets player.Secrets `json:"secrets"`
	Reveal  *engine.Action `json:"reveal,omitempty"`
	// Act is the signed action Reveal was made for when it goes with its
	// action (act's reveal): after a restart the client sends that action
	// again, never another one at its version.
	Act *engine.Action `json:"act,omitempty"`
	// Ack is the server's acknowledgement of the last reveal it
	// acknowledged: evidence, should it later name this seat as missing
	// that round (Dropped).
	Ack *Ack `json:"ack,omitempty"`
}

// saveSecrets writes the file atomically and durably: a temporary file
// beside it, written, synced, renamed over it, and the directory synced,
// so that after a crash the file holds either the old secrets or the new
// ones, whole. It is readable by its owner only.
func saveSecrets(path string, f *secretsFile) error {
	f.Format = fileFormat
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("client: secrets file: %w", err)
	}
	name := tmp.Name()
	defer os.Remove(name) // after a successful rename, there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("client: secrets file: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("client: secrets file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("client: secrets file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("client: secrets file: %w", err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("client: secrets file: %w", err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("client: secrets file's directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("client: secrets file's directory: %w", err)
	}
	return nil
}

// loadSecrets reads the file; it must be a secrets file of this format.
func loadSecrets(path string) (*secretsFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("client: secrets file: %w", err)
	}
	var f secretsFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("client: secrets file %s: %w", path, err)
	}
	if f.Format != fileFormat {
		return nil, fmt.Errorf("client: secrets file %s: format %q, want %q", path, f.Format, fileFormat)
	}
	if f.Reveal != nil && (f.Reveal.Kind != engine.ActReveal || f.Reveal.Index != f.Secrets.Revealed) {
		return nil, errors.New("client: secrets file " + path + ": its reveal is not the last index it revealed")
	}
	return &f, nil
}
