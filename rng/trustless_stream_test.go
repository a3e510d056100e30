package rng_test

import (
	"encoding/hex"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// TestNewTrustlessIsChaCha20OfTheKey: a trustless stream's words are the
// ChaCha20 keystream of its key itself (no SHA-256 first, unlike fair
// mode), read big-endian 4 bytes at a time: RFC 8439 section 2.3.2's
// all-zero key gives keystream 76b8e0ad a0f13d90 ... (A.1 test vector #1).
func TestNewTrustlessIsChaCha20OfTheKey(t *testing.T) {
	s := rng.NewTrustless([32]byte{}, rng.WithSeq(41))
	want := []uint32{0x76b8e0ad, 0xa0f13d90, 0x405d6ae5, 0x5386bd28}
	for i, w := range want {
		if got := s.Uint32(rng.TagTestOnly, nil); got != w {
			t.Fatalf("word %d: %08x, want %08x", i, got, w)
		}
	}
	if s.Mode() != rng.ModeTrustless || s.Seq() != 45 || s.Seed() != hex.EncodeToString(make([]byte, 32)) {
		t.Errorf("mode %s, seq %d, seed %s", s.Mode(), s.Seq(), s.Seed())
	}
	if st, err := s.State(); err != nil || st != "chacha20:16" {
		t.Errorf("state %q, %v", st, err)
	}
	if s.Refuses() {
		t.Error("a trustless stream does not refuse")
	}
}

// TestNewRefusing: every draw panics with rng.Refusal before it consumes
// or records anything.
func TestNewRefusing(t *testing.T) {
	var entries int
	s := rng.NewRefusing(rng.ModeTrustless, rng.WithSeq(7), rng.WithAuditor(rng.AuditorFunc(func(rng.Entry) { entries++ })))
	if !s.Refuses() || s.Mode() != rng.ModeTrustless || s.Seq() != 7 {
		t.Fatalf("refuses %v, mode %s, seq %d", s.Refuses(), s.Mode(), s.Seq())
	}
	draws := map[string]func(){
		"Uint32":     func() { s.Uint32(rng.TagTestOnly, nil) },
		"Float01":    func() { s.Float01(rng.TagTestOnly, nil) },
		"UniformInt": func() { _, _ = s.UniformInt(0, 0, rng.TagTestOnly, nil) },
		"Dice":       func() { _, _ = s.Dice(6, rng.TagTestOnly, nil) },
		"ChooseOne":  func() { _, _, _ = rng.ChooseOne(s, []int{1, 2}, rng.TagTestOnly, nil) },
		"Shuffle":    func() { rng.Shuffle(s, []int{1, 2, 3}, rng.TagTestOnly, nil) },
	}
	for name, draw := range draws {
		func() {
			defer func() {
				if r := recover(); r != rng.Refusal {
					t.Errorf("%s: recovered %v, want rng.Refusal", name, r)
				}
			}()
			draw()
		}()
	}
	if s.Seq() != 7 || entries != 0 {
		t.Errorf("after refusals: seq %d, %d audit entries", s.Seq(), entries)
	}
	if _, err := s.State(); err == nil {
		t.Error("a refusing stream cannot be saved")
	}
}
