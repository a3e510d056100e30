package dungeonclient

import (
	"path/filepath"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

// BenchmarkNewSeatStored is what a client does at join before it sends
// anything: a fresh chain of the default 65,536 links and a fresh key
// (player.NewSeat: N SHA-256, checkpoints kept), written to its secrets
// file (written, synced, renamed, its directory synced). A link late in a
// game is rng/trustless's BenchmarkLink* (go test -run '^$' -bench
// 'Chain|Link' ./rng/trustless/).
//
//	go test -run '^$' -bench NewSeatStored -benchmem -count 5 ./client/
func BenchmarkNewSeatStored(b *testing.B) {
	rules := engine.DefaultRules()
	path := filepath.Join(b.TempDir(), "seat.json")
	b.ReportAllocs()
	for b.Loop() {
		s, err := player.NewSeat(rules, "bench-seat", "p1", 0, 65536)
		if err != nil {
			b.Fatal(err)
		}
		if err := saveSecrets(path, &secretsFile{Secrets: s.Secrets()}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSecretsFile is the file's write alone, as before every
// reveal (the index and digest it reveals, and the reveal).
func BenchmarkSecretsFile(b *testing.B) {
	s, err := player.NewSeat(engine.DefaultRules(), "bench-seat", "p1", 0, 65536)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "seat.json")
	a := engine.Action{Kind: engine.ActReveal, Index: 1}
	f := &secretsFile{Secrets: s.Secrets(), Reveal: &a}
	f.Secrets.Revealed = 1
	b.ReportAllocs()
	for b.Loop() {
		if err := saveSecrets(path, f); err != nil {
			b.Fatal(err)
		}
	}
}
