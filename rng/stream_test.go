package rng_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// recorder collects audit entries.
type recorder struct{ entries []rng.Entry }

func (r *recorder) Record(e rng.Entry) { r.entries = append(r.entries, e) }

// TestAuditOneEntryPerCall makes one call of every kind and checks each
// entry's seq, tag, ctx, kind and data against the call's result.
func TestAuditOneEntryPerCall(t *testing.T) {
	rec := &recorder{}
	s := seeded(t, "audit", rng.WithAuditor(rec))
	ctx := rng.Ctx{GameID: "g", Turn: 2, ActorUID: "u1"}
	deckCtx := rng.Ctx{GameID: "g", DeckID: "treasure.t2"}

	u := s.Uint32(rng.TagRandomSample, &ctx)
	f := s.Float01(rng.TagRandomSample, nil)
	v, _ := s.UniformInt(-2, 9, rng.TagTestOnly, &ctx)
	d, _ := s.Dice(4, rng.TagMoveRoll, &ctx)
	weights := []rng.Weighted[string]{{"2xT2", 70}, {"1xT2+1xT1", 20}, {"1xT3", 10}}
	p, _ := rng.WeightedPick(s, weights, rng.CompositionTag(3), &rng.Ctx{TileID: 9, EnemyTier: 3})
	c, ci, _ := rng.ChooseOne(s, []string{"ann", "bob", "cy"}, rng.TagTieBreakNearest, &rng.Ctx{Reason: "mysticWave"})
	deck := []string{"a", "b", "c", "d", "e", "f", "g"}
	rng.Shuffle(s, deck, rng.InitShuffleTag("treasure.t2"), &deckCtx)
	head := append([]string(nil), deck[:3]...)

	want := []rng.Entry{
		{Seq: 1, Tag: rng.TagRandomSample, Ctx: ctx, Kind: rng.KindSample, Data: rng.Data{Op: rng.OpUint32, Value: int64(u)}},
		{Seq: 2, Tag: rng.TagRandomSample, Kind: rng.KindSample, Data: rng.Data{Op: rng.OpFloat01, Float: f}},
		{Seq: 3, Tag: rng.TagTestOnly, Ctx: ctx, Kind: rng.KindSample, Data: rng.Data{Op: rng.OpInt, Min: -2, Max: 9, Value: v}},
		{Seq: 4, Tag: rng.TagMoveRoll, Ctx: ctx, Kind: rng.KindDice, Data: rng.Data{Sides: 4, Value: int64(d.Value)}},
		{Seq: 5, Tag: "enemy.composition.pick.t3", Ctx: rng.Ctx{TileID: 9, EnemyTier: 3}, Kind: rng.KindWeighted,
			Data: rng.Data{Weights: []float64{70, 20, 10}, R: p.R, Index: p.Index}},
		{Seq: 6, Tag: rng.TagTieBreakNearest, Ctx: rng.Ctx{Reason: "mysticWave"}, Kind: rng.KindSample,
			Data: rng.Data{Op: rng.OpChooseOne, N: 3, Index: ci}},
		{Seq: 7, Tag: "deck.initShuffle.treasure.t2", Ctx: deckCtx, Kind: rng.KindShuffle,
			Data: rng.Data{DeckID: "treasure.t2", Size: 7, HeadPreview: head}},
	}
	if !reflect.DeepEqual(rec.entries, want) {
		t.Errorf("entries:\n got %+v\nwant %+v", rec.entries, want)
	}
	if s.Seq() != 7 {
		t.Errorf("Seq() = %d, want 7", s.Seq())
	}
	if []string{"ann", "bob", "cy"}[ci] != c {
		t.Errorf("ChooseOne returned %q at index %d", c, ci)
	}
	// The entry owns its preview: shuffling the deck again does not change it.
	rng.Shuffle(s, deck, rng.TagTestOnly, nil)
	if got := rec.entries[6].Data.HeadPreview; !reflect.DeepEqual(got, head) {
		t.Errorf("the shuffle entry's preview changed with the deck: %v, want %v", got, head)
	}
}

// TestAuditSeqAndNoHook: seq rises by one per call, from 1 (or from
// WithSeq+1), with or without a hook; SetAuditor(nil) stops the entries;
// a failed call records nothing and does not count.
func TestAuditSeqAndNoHook(t *testing.T) {
	rec := &recorder{}
	s := seeded(t, "seq", rng.WithSeq(40))
	s.Uint32(rng.TagTestOnly, nil)
	s.SetAuditor(rec)
	for range 5 {
		_, _ = s.Dice(6, rng.TagMoveRoll, nil)
	}
	if _, err := s.Dice(0, rng.TagMoveRoll, nil); !errors.Is(err, rng.ErrRange) {
		t.Errorf("Dice(0) error %v, want ErrRange", err)
	}
	if _, err := rng.WeightedPick(s, []rng.Weighted[int]{}, rng.TagTestOnly, nil); !errors.Is(err, rng.ErrRange) {
		t.Errorf("WeightedPick of nothing error %v, want ErrRange", err)
	}
	rng.Shuffle(s, make([]int, 52), rng.TagTestOnly, nil) // a shuffle is one entry
	s.SetAuditor(nil)
	s.Float01(rng.TagTestOnly, nil)

	if len(rec.entries) != 6 {
		t.Fatalf("%d entries, want 6 (5 dice, 1 shuffle)", len(rec.entries))
	}
	for i, e := range rec.entries {
		if e.Seq != uint64(42+i) {
			t.Errorf("entry %d has seq %d, want %d", i, e.Seq, 42+i)
		}
	}
	if s.Seq() != 48 {
		t.Errorf("Seq() = %d, want 48", s.Seq())
	}
}

// TestNoAllocsWithoutHook: with no auditor no call allocates.
func TestNoAllocsWithoutHook(t *testing.T) {
	s := seeded(t, "allocs")
	ctx := rng.Ctx{Turn: 1, ActorUID: "u"}
	deck := make([]int, 52)
	items := []rng.Weighted[int]{{1, 70}, {2, 20}, {3, 10}}
	arr := []string{"a", "b", "c"}
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"Uint32", func() { s.Uint32(rng.TagTestOnly, &ctx) }},
		{"UniformInt", func() { _, _ = s.UniformInt(1, 6, rng.TagTestOnly, &ctx) }},
		{"Dice", func() { _, _ = s.Dice(6, rng.TagMoveRoll, &ctx) }},
		{"Float01", func() { s.Float01(rng.TagTestOnly, &ctx) }},
		{"ChooseOne", func() { _, _, _ = rng.ChooseOne(s, arr, rng.TagTieBreakNearest, &ctx) }},
		{"WeightedPick", func() { _, _ = rng.WeightedPick(s, items, rng.TagLootDropT2, &ctx) }},
		{"Shuffle52", func() { rng.Shuffle(s, deck, rng.TagReshuffleChance, &ctx) }},
	} {
		if a := testing.AllocsPerRun(200, c.fn); a != 0 {
			t.Errorf("%s allocates %v times per call with no auditor", c.name, a)
		}
	}
}

// TestStateRestoreMidStream: a stream saved between two actions and
// restored continues identically, for every operation.
func TestStateRestoreMidStream(t *testing.T) {
	a := seeded(t, "resume")
	for range 17 {
		_, _ = a.Dice(6, rng.TagMoveRoll, nil)
	}
	state, err := a.State()
	if err != nil || !strings.HasPrefix(state, "sfc32:") || len(state) != len("sfc32:")+32 {
		t.Fatalf("State() = %q, %v; want sfc32:<32 hex>", state, err)
	}
	b, err := rng.Restore(state, "resume", rng.WithSeq(a.Seq()))
	if err != nil {
		t.Fatal(err)
	}
	draw := func(s *rng.Stream) []int64 {
		var out []int64
		out = append(out, int64(s.Uint32(rng.TagTestOnly, nil)))
		v, _ := s.UniformInt(-100, 100, rng.TagTestOnly, nil)
		d, _ := s.Dice(20, rng.TagTestOnly, nil)
		p, _ := rng.WeightedPick(s, []rng.Weighted[int]{{0, 3}, {1, 5}}, rng.TagTestOnly, nil)
		_, c, _ := rng.ChooseOne(s, make([]bool, 11), rng.TagTestOnly, nil)
		deck := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		rng.Shuffle(s, deck, rng.TagTestOnly, nil)
		out = append(out, v, int64(d.Value), p.R, int64(c), int64(s.Float01(rng.TagTestOnly, nil)*1e9))
		return append(out, deck...)
	}
	if x, y := draw(a), draw(b); !reflect.DeepEqual(x, y) {
		t.Errorf("restored stream diverged:\noriginal %v\nrestored %v", x, y)
	}
	if a.Seq() != b.Seq() || b.Seed() != "resume" {
		t.Errorf("seq %d/%d, seed %q", a.Seq(), b.Seq(), b.Seed())
	}
}

func TestRestoreRejects(t *testing.T) {
	for _, c := range []struct{ state, want string }{
		{"", "does not name sfc32"},
		{"chacha20:00112233", "does not name sfc32"},
		{"sfc32:0123", "has 4 hex digits, want 32"},
		{"sfc32:0123456789abcdef0123456789abcdeg", "not hexadecimal"},
	} {
		if _, err := rng.Restore(c.state, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Restore(%q) error %v, want it to mention %q", c.state, err, c.want)
		}
	}
}

func TestCryptoStream(t *testing.T) {
	s := rng.NewCrypto()
	if s.Mode() != rng.ModeCrypto || s.Seed() != "" {
		t.Errorf("NewCrypto: mode %q seed %q", s.Mode(), s.Seed())
	}
	if _, err := s.State(); !errors.Is(err, rng.ErrNotSavable) {
		t.Errorf("crypto State() error %v, want ErrNotSavable", err)
	}
	if m := rng.New(rng.NewCryptoSource()).Mode(); m != rng.ModeCrypto {
		t.Errorf("New(CryptoSource) mode %q, want crypto", m)
	}
	if m := rng.New(rng.NewSFC32(1, 2, 3, 4)).Mode(); m != rng.ModeSeeded {
		t.Errorf("New(SFC32) mode %q, want seeded", m)
	}
	// 3000 draws cross the 1024-word buffer twice.
	seen := map[int]bool{}
	for range 3000 {
		d, err := s.Dice(6, rng.TagMoveRoll, nil)
		if err != nil || d.Value < 1 || d.Value > 6 {
			t.Fatalf("crypto Dice(6) = %+v, %v", d, err)
		}
		seen[d.Value] = true
		if f := s.Float01(rng.TagTestOnly, nil); f < 0 || f >= 1 {
			t.Fatalf("crypto Float01 = %v", f)
		}
	}
	if len(seen) != 6 {
		t.Errorf("3000 crypto d6 rolls showed only faces %v", seen)
	}
	deck := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	rng.Shuffle(s, deck, rng.TagTestOnly, nil)
	sum := 0
	for _, v := range deck {
		sum += v
	}
	if sum != 45 {
		t.Errorf("crypto shuffle lost items: %v", deck)
	}
}
