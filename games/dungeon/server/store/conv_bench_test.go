package store_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// The conversions of a finished 3-player game's state (its largest), the
// direct walk against the JSON round trip it replaced:
//
//	go test -run '^$' -bench 'Doc' -benchmem ./store/
func finishedGame(b *testing.B) *engine.Game {
	b.Helper()
	eng := engine.NewReference(engine.DefaultRules())
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Aggressive{}},
		{Class: engine.ClassScout, Policy: policy.Cautious{}}}
	g, _, err := bot.NewRunner(eng).Play("conv", seats, nil)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func benchTo(b *testing.B, to func(any) (map[string]any, error), v func(*engine.Game) any) {
	x := v(finishedGame(b))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := to(x); err != nil {
			b.Fatal(err)
		}
	}
}

func benchFrom[T any](b *testing.B, from func(map[string]any, any) error, v func(*engine.Game) any) {
	d, err := store.ToDoc(v(finishedGame(b)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var t T
		if err := from(d, &t); err != nil {
			b.Fatal(err)
		}
	}
}

func public(g *engine.Game) any { return &g.Public }
func secret(g *engine.Game) any { return &g.Secret }

func BenchmarkToDocPublic(b *testing.B)     { benchTo(b, store.ToDoc, public) }
func BenchmarkToDocPublicJSON(b *testing.B) { benchTo(b, store.ToDocJSON, public) }
func BenchmarkToDocSecret(b *testing.B)     { benchTo(b, store.ToDoc, secret) }
func BenchmarkToDocSecretJSON(b *testing.B) { benchTo(b, store.ToDocJSON, secret) }
func BenchmarkFromDocPublic(b *testing.B)   { benchFrom[engine.Public](b, store.FromDoc, public) }
func BenchmarkFromDocPublicJSON(b *testing.B) {
	benchFrom[engine.Public](b, store.FromDocJSON, public)
}
func BenchmarkFromDocSecret(b *testing.B) { benchFrom[engine.Secret](b, store.FromDoc, secret) }
func BenchmarkFromDocSecretJSON(b *testing.B) {
	benchFrom[engine.Secret](b, store.FromDocJSON, secret)
}
