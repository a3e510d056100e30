package engine_test

import (
	"reflect"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// Add builds the same event as Emit, zeroed even where the reused buffer
// held an older event, with the next seq.
func TestAddMatchesEmit(t *testing.T) {
	junk := engine.Event{Seq: 99, Type: engine.EvDiceRolled, UID: "x", Who: "y", Target: "z", Sides: 6, Value: 4,
		NMods: 2, Total: 9, Candidates: []string{"a"}, Order: []string{"b"}, Round: 7, GameID: "g"}
	bufA := []engine.Event{junk, junk, junk}
	bufB := []engine.Event{junk, junk, junk}
	var ga, gb engine.Game
	ga.Public.LogSeq, gb.Public.LogSeq = 41, 41
	a := engine.Ctx{G: &ga, P: &ga.Public, Events: bufA[:1]}
	b := engine.Ctx{G: &gb, P: &gb.Public, Events: bufB[:1]}

	a.Emit(engine.Event{Type: engine.EvRoundEnded, Round: 3})
	a.Emit(engine.Event{Type: engine.EvDamageDealt, Who: "p1", Target: "p2", Amount: 2, HP: 5})
	b.Add(engine.EvRoundEnded).Round = 3
	e := b.Add(engine.EvDamageDealt)
	e.Who, e.Target, e.Amount, e.HP = "p1", "p2", 2, 5

	if len(a.Events) != 3 || len(b.Events) != 3 || ga.Public.LogSeq != 43 || gb.Public.LogSeq != 43 {
		t.Fatalf("lengths %d %d, seqs %d %d", len(a.Events), len(b.Events), ga.Public.LogSeq, gb.Public.LogSeq)
	}
	for i := 1; i < 3; i++ {
		if !reflect.DeepEqual(a.Events[i], b.Events[i]) {
			t.Fatalf("event %d: Emit %s, Add %s", i, a.Events[i].AppendJSON(nil), b.Events[i].AppendJSON(nil))
		}
		if b.Events[i].UID != "" || b.Events[i].Candidates != nil || b.Events[i].GameID != "" {
			t.Fatalf("event %d kept fields of the old buffer: %+v", i, b.Events[i])
		}
	}
	want := `{"seq":43,"type":"DamageDealt","who":"p1","target":"p2","amount":2,"hp":5}`
	if got := string(b.Events[2].AppendJSON(nil)); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
