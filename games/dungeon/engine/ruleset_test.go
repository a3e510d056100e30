package engine_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

func TestDefaultRules(t *testing.T) {
	r := engine.DefaultRules()
	if len(r.Cards()) != 70 || r.FinalTile() != 35 || r.Tile(3) != engine.TileEnemy || r.Tier(26) != 3 {
		t.Fatalf("default ruleset: %d cards, final %d", len(r.Cards()), r.FinalTile())
	}
	for tile, want := range map[int]int{0: 0, 5: 0, 11: 0, 12: 12, 23: 12, 24: 24, 35: 24} {
		if got := r.ZoneStart(tile); got != want {
			t.Errorf("ZoneStart(%d) = %d, want %d", tile, got, want)
		}
	}
	if k := r.Card("t3-relic-1"); k == nil || k.Atk != 2 || k.Def != 2 || k.Tier != 3 {
		t.Errorf("relic = %+v", k)
	}
	again, err := engine.LoadRules(engine.DefaultRulesJSON())
	if err != nil || again.Hash() != r.Hash() || len(r.Hash()) != 64 {
		t.Fatalf("hash not stable: %v", err)
	}
}

func TestLoadRulesRejectsUnknownFields(t *testing.T) {
	b := strings.Replace(string(engine.DefaultRulesJSON()), `"capacity": 4,`, `"capacity": 4, "capacityy": 5,`, 1)
	if _, err := engine.LoadRules([]byte(b)); err == nil || !strings.Contains(err.Error(), "capacityy") {
		t.Fatalf("err = %v", err)
	}
}

// TestValidationNamesEveryProblem breaks many things at once and expects
// one problem per break.
func TestValidationNamesEveryProblem(t *testing.T) {
	var r engine.Ruleset
	if err := json.Unmarshal(engine.DefaultRulesJSON(), &r); err != nil {
		t.Fatal(err)
	}
	r.MaxHP = -1
	r.Dice.Move = 0
	r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 99, Kind: "treasure"}, engine.TileSpec{Index: 4, Kind: "lava"})
	r.Decks[0].Cards[0].Kind = "wand"
	r.Decks[0].Cards[1].ID = "t1-dagger" // duplicate ids t1-dagger-1..3
	r.Decks[4].Cards[0].HP = -2
	r.Decks[3].Cards[0].Effect = "meteor"
	r.Composition[1].Options[0].Weight = 0
	r.Loot[2].Outcomes[0].Weight = math.NaN()
	r.Decks[6].Cards = r.Decks[6].Cards[:1]
	r.Decks[6].Cards[0].Count = 1 // enemy.t3 has one card
	r.Composition[2].Options[2].Enemies = []int{3, 3}
	err := r.Validate()
	var re *engine.RulesError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{
		"maxHp is -1", "dice.move has 0 sides", "index 99 is out of range", `unknown kind "lava"`,
		`kind "wand"`, `duplicate card id "t1-dagger-1"`, "negative hp -2", `unknown chance effect "meteor"`,
		"composition[1].options[0] has weight 0", "loot[2].outcomes[0] has weight NaN",
		"draws 2 enemies of tier 3 but deck enemy.t3 has only 1",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("problems do not name %q:\n%v", want, err)
		}
	}
	if len(re.Problems) < 11 {
		t.Errorf("%d problems, want at least 11", len(re.Problems))
	}
	if r.Hash() != "" {
		t.Error("an invalid ruleset must have no hash")
	}
}

func TestEventJSONRoundTrip(t *testing.T) {
	e := engine.Event{Seq: 7, Type: engine.EvDiceRolled, Who: "p<1>", Tag: "move.roll", Sides: 4, Value: 3, Total: 5, NMods: 2}
	e.Mods[0], e.Mods[1] = 1, 1
	b, _ := json.Marshal(e)
	want := `{"seq":7,"type":"DiceRolled","who":"p\u003c1\u003e","tag":"move.roll","sides":4,"value":3,"modifiers":[1,1],"total":5}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back engine.Event
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, e) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	d := engine.Event{Seq: 1, Type: engine.EvDeckShuffled, DeckID: "chance", Size: 12, Tag: "deck.initShuffle.chance",
		Commitment: engine.Hash32{0: 0xab, 31: 0x01}}
	db, _ := json.Marshal(d)
	if string(db) != `{"seq":1,"type":"DeckShuffled","deckId":"chance","size":12,"tag":"deck.initShuffle.chance","commitment":"ab00000000000000000000000000000000000000000000000000000000000001"}` {
		t.Fatalf("DeckShuffled = %s", db)
	}
	if err := json.Unmarshal(db, &back); err != nil || !reflect.DeepEqual(back, d) {
		t.Fatalf("DeckShuffled round trip: %v %+v", err, back)
	}
	if err := json.Unmarshal([]byte(`{"seq":1,"type":"Nope"}`), &back); err == nil {
		t.Fatal("unknown event type accepted")
	}
}

func TestErrorCodes(t *testing.T) {
	err := error(engine.Reject(engine.CodeWrongStep, "x"))
	if !errors.Is(err, engine.CodeWrongStep) || errors.Is(err, engine.CodeGameOver) {
		t.Fatal("errors.Is by code")
	}
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeWrongStep || err.Error() != "wrong_step: x" {
		t.Fatal("errors.As")
	}
}

// A one-sided turn-order die could never separate tied players: the
// tie-break re-rolls would go on for ever.
func TestRulesRefuseOneSidedTurnOrderDie(t *testing.T) {
	var raw map[string]any
	if err := json.Unmarshal(engine.DefaultRulesJSON(), &raw); err != nil {
		t.Fatal(err)
	}
	raw["dice"].(map[string]any)["turnOrder"] = 1 // the default has a dice object
	b, _ := json.Marshal(raw)
	_, err := engine.LoadRules(b)
	if err == nil || !strings.Contains(err.Error(), "dice.turnOrder has 1 side") {
		t.Fatalf("LoadRules = %v, want the one-sided turn-order die refused", err)
	}
}
