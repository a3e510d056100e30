package table_test

import (
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// benchTable returns a seeded 2-seat Pig table (goal 10,000, so that it
// goes on) after n rolls, saved.
func benchTable(b *testing.B, n int) []byte {
	b.Helper()
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "bench",
		Rules: []byte(`{"goal":10000,"dieSides":6}`)})
	if err != nil {
		b.Fatal(err)
	}
	do := func(a table.Action) {
		if _, err := tb.Do(a); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 2 {
		do(table.Action{Actor: uid(i), ActionID: "j", Version: tb.Version(), Kind: table.KindJoin, Seat: i})
	}
	do(table.Action{Actor: uid(0), ActionID: "s", Version: tb.Version(), Kind: table.KindStart})
	for k := range n {
		do(table.Action{Actor: uid(tb.Public().ToMove), ActionID: fmt.Sprintf("m%d", k), Version: tb.Version(), Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)})
	}
	data, err := tb.Save()
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkActionAfterMoves is one action as a store serves it (restore
// the saved table, apply a roll, save) after 10, 100 and 1,000 moves:
// from the snapshot, and by replay (the same table in the old layout,
// without its snapshot). "restore" is the restore alone.
func BenchmarkActionAfterMoves(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		data := benchTable(b, n)
		old := oldLayout(&testing.T{}, data)
		for _, c := range []struct {
			name string
			data []byte
		}{{"snapshot", data}, {"replay", old}} {
			tb, err := table.Restore(pig.Def, c.data)
			if err != nil {
				b.Fatal(err)
			}
			a := table.Action{Actor: uid(tb.Public().ToMove), ActionID: "next", Version: tb.Version(), Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)}
			b.Run(fmt.Sprintf("moves=%d/%s/restore", n, c.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := table.Restore(pig.Def, c.data); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("moves=%d/%s/action", n, c.name), func(b *testing.B) {
				for b.Loop() {
					tb, err := table.Restore(pig.Def, c.data)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := tb.Do(a); err != nil {
						b.Fatal(err)
					}
					if _, err := tb.Save(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchHead returns the head (SaveHead, chunks of chunkSize) of the
// table benchTable makes, played as a store in parts plays it: each
// action on the head restored alone, with the results kept apart.
func benchHead(b *testing.B, n, chunkSize int) []byte {
	b.Helper()
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "bench",
		Rules: []byte(`{"goal":10000,"dieSides":6}`)})
	if err != nil {
		b.Fatal(err)
	}
	h, err := tb.SaveHead(chunkSize)
	if err != nil {
		b.Fatal(err)
	}
	do := func(a table.Action) {
		tb, err := table.Restore(pig.Def, h.Saved)
		if err != nil {
			b.Fatal(err)
		}
		a.Version = tb.Version()
		if a.Kind == table.KindMove {
			a.Actor = uid(tb.Public().ToMove)
		}
		if _, err := tb.Do(a); err != nil {
			b.Fatal(err)
		}
		if h, err = tb.SaveHead(chunkSize); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 2 {
		do(table.Action{Actor: uid(i), ActionID: "j", Kind: table.KindJoin, Seat: i})
	}
	do(table.Action{Actor: uid(0), ActionID: "s", Kind: table.KindStart})
	for k := range n {
		do(table.Action{ActionID: fmt.Sprintf("m%d", k), Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)})
	}
	return h.Saved
}

// BenchmarkHeadActionAfterMoves is BenchmarkActionAfterMoves' action
// as a store that keeps the table in parts serves it (fstables, chunks
// of 128): restore the head alone, apply a roll, save the head.
func BenchmarkHeadActionAfterMoves(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		head := benchHead(b, n, 64)
		tb, err := table.Restore(pig.Def, head)
		if err != nil {
			b.Fatal(err)
		}
		a := table.Action{Actor: uid(tb.Public().ToMove), ActionID: "next", Version: tb.Version(), Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)}
		b.Run(fmt.Sprintf("moves=%d/head/action", n), func(b *testing.B) {
			b.ReportMetric(float64(len(head)), "head-bytes")
			for b.Loop() {
				tb, err := table.Restore(pig.Def, head)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tb.Do(a); err != nil {
					b.Fatal(err)
				}
				if _, err := tb.SaveHead(64); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGameRestoreAfterMoves is the game's part of a restore alone
// (what the snapshot replaces), after 10, 100 and 1,000 moves of seeded
// Pig: match.FromSnapshot (its state from its parts, its stream from its
// position) against match.Resume (its moves replayed).
func BenchmarkGameRestoreAfterMoves(b *testing.B) {
	rules, err := pig.Def.DecodeRuleset([]byte(`{"goal":10000,"dieSides":6}`))
	if err != nil {
		b.Fatal(err)
	}
	cfg := match.Config{Mode: rng.ModeSeeded, Seed: "bench", Seats: make([]game.Seat, 2), Rules: rules}
	for _, n := range []int{10, 100, 1000} {
		m, err := match.New(pig.Def, cfg)
		if err != nil {
			b.Fatal(err)
		}
		for range n {
			if _, err := m.Apply(game.Move{Seat: m.State().ToMove(), Kind: pig.KindRoll}); err != nil {
				b.Fatal(err)
			}
		}
		snap, err := m.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		h := match.History{Moves: m.Moves(), Events: m.Events()}
		b.Run(fmt.Sprintf("moves=%d/snapshot", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := match.FromSnapshot(pig.Def, cfg, snap, h); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("moves=%d/replay", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := match.Resume(pig.Def, cfg, h.Moves, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
