package rng_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// goldenEntries are one entry per kind and op with the JSON it must encode
// to, byte for byte.
var goldenEntries = []struct {
	name string
	e    rng.Entry
	json string
}{
	{"dice", rng.Entry{Seq: 1, Tag: rng.TagMoveRoll, Ctx: rng.Ctx{Turn: 3, ActorUID: "u1"}, Kind: rng.KindDice,
		Data: rng.Data{Sides: 4, Value: 2}},
		`{"seq":1,"tag":"move.roll","ctx":{"turn":3,"actorUid":"u1"},"kind":"dice","data":{"sides":4,"value":2}}`},
	{"weighted index 0", rng.Entry{Seq: 2, Tag: rng.TagEnemyCompositionT3, Ctx: rng.Ctx{TileID: 17, EnemyTier: 3}, Kind: rng.KindWeighted,
		Data: rng.Data{Weights: []float64{70, 20, 10}, R: 58, Index: 0}},
		`{"seq":2,"tag":"enemy.composition.pick.t3","ctx":{"tileId":17,"enemyTier":3},"kind":"weighted","data":{"weights":[70,20,10],"r":58,"index":0}}`},
	{"weighted", rng.Entry{Seq: 3, Tag: rng.TagLootDropT2, Kind: rng.KindWeighted,
		Data: rng.Data{Weights: []float64{70, 15, 15}, R: 99, Index: 2}},
		`{"seq":3,"tag":"loot.drop.roll.t2","ctx":{},"kind":"weighted","data":{"weights":[70,15,15],"r":99,"index":2}}`},
	{"shuffle", rng.Entry{Seq: 4, Tag: rng.TagInitShuffleTreasureT1, Ctx: rng.Ctx{DeckID: "treasure.t1"}, Kind: rng.KindShuffle,
		Data: rng.Data{DeckID: "treasure.t1", Size: 20, HeadPreview: []string{"t1-07", "t1-03", "t1-19"}}},
		`{"seq":4,"tag":"deck.initShuffle.treasure.t1","ctx":{"deckId":"treasure.t1"},"kind":"shuffle","data":{"deckId":"treasure.t1","size":20,"headPreview":["t1-07","t1-03","t1-19"]}}`},
	{"empty shuffle", rng.Entry{Seq: 5, Tag: rng.TagReshuffleChance, Kind: rng.KindShuffle,
		Data: rng.Data{Size: 0, HeadPreview: []string{}}},
		`{"seq":5,"tag":"deck.reshuffle.chance","ctx":{},"kind":"shuffle","data":{"size":0,"headPreview":[]}}`},
	{"u32", rng.Entry{Seq: 6, Tag: rng.TagRandomSample, Kind: rng.KindSample,
		Data: rng.Data{Op: rng.OpUint32, Value: 4294967295}},
		`{"seq":6,"tag":"random.sample","ctx":{},"kind":"sample","data":{"op":"u32","value":4294967295}}`},
	{"u32 zero", rng.Entry{Seq: 7, Tag: rng.TagRandomSample, Kind: rng.KindSample,
		Data: rng.Data{Op: rng.OpUint32, Value: 0}},
		`{"seq":7,"tag":"random.sample","ctx":{},"kind":"sample","data":{"op":"u32","value":0}}`},
	{"int", rng.Entry{Seq: 8, Tag: rng.TagTestOnly, Kind: rng.KindSample,
		Data: rng.Data{Op: rng.OpInt, Min: -5, Max: 5, Value: 0}},
		`{"seq":8,"tag":"test.only","ctx":{},"kind":"sample","data":{"op":"int","min":-5,"max":5,"value":0}}`},
	{"float01", rng.Entry{Seq: 9, Tag: rng.TagTestOnly, Kind: rng.KindSample,
		Data: rng.Data{Op: rng.OpFloat01, Float: 0.115283365221694}},
		`{"seq":9,"tag":"test.only","ctx":{},"kind":"sample","data":{"op":"float01","value":0.115283365221694}}`},
	{"chooseOne index 0", rng.Entry{Seq: 10, Tag: rng.TagTieBreakNearest, Ctx: rng.Ctx{Reason: "mysticWave"}, Kind: rng.KindSample,
		Data: rng.Data{Op: rng.OpChooseOne, N: 3, Index: 0}},
		`{"seq":10,"tag":"tiebreak.nearest.pick","ctx":{"reason":"mysticWave"},"kind":"sample","data":{"op":"chooseOne","n":3,"index":0}}`},
}

func TestEntryJSONGolden(t *testing.T) {
	for _, g := range goldenEntries {
		b, err := json.Marshal(g.e)
		if err != nil {
			t.Fatalf("%s: Marshal: %v", g.name, err)
		}
		if string(b) != g.json {
			t.Errorf("%s:\n got %s\nwant %s", g.name, b, g.json)
		}
		var back rng.Entry
		if err := json.Unmarshal([]byte(g.json), &back); err != nil {
			t.Fatalf("%s: Unmarshal: %v", g.name, err)
		}
		if !reflect.DeepEqual(back, g.e) {
			t.Errorf("%s: Unmarshal = %+v, want %+v", g.name, back, g.e)
		}
	}
}

// TestEntryJSONRoundTripStream round-trips every entry a real stream
// records, of every kind and op, with index 0 among them.
func TestEntryJSONRoundTripStream(t *testing.T) {
	var got []rng.Entry
	s := seeded(t, "entry-json", rng.WithAuditor(rng.AuditorFunc(func(e rng.Entry) { got = append(got, e) })))
	ctx := rng.Ctx{GameID: "g1", ActionID: "a9", Turn: 4, ActorUID: "u2", Phase: "resolveTile", TileID: 12,
		CombatID: "c1", DuelID: "d1", DeckID: "enemy.t2", EnemyTier: 2, EnemyID: "e3", Reason: "nefariousSpirit"}
	s.Uint32(rng.TagRandomSample, &ctx)
	s.Float01(rng.TagRandomSample, nil)
	_, _ = s.UniformInt(-3, 3, rng.TagTestOnly, &ctx)
	_, _ = s.Dice(6, rng.TagCombatPlayerAttack, &ctx)
	for range 20 {
		_, _ = rng.WeightedPick(s, []rng.Weighted[string]{{"a", 1}, {"b", 1}}, rng.TagLootDropT1, nil)
		_, _, _ = rng.ChooseOne(s, []int{5, 6}, rng.TagTieBreakNearest, nil)
	}
	deck := []string{"x", "y", "z", "w"}
	rng.Shuffle(s, deck, rng.InitShuffleTag("enemy.t2"), &ctx)
	rng.Shuffle(s, []int{}, rng.TagReshuffleChance, nil)

	var zeroWeighted, zeroChoose bool
	for _, e := range got {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", e, err)
		}
		var back rng.Entry
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if !reflect.DeepEqual(back, e) {
			t.Errorf("round trip of %s:\n got %+v\nwant %+v", b, back, e)
		}
		zeroWeighted = zeroWeighted || (e.Kind == rng.KindWeighted && e.Data.Index == 0)
		zeroChoose = zeroChoose || (e.Data.Op == rng.OpChooseOne && e.Data.Index == 0)
	}
	if !zeroWeighted || !zeroChoose {
		t.Errorf("the stream recorded no index 0 (weighted %v, chooseOne %v); pick another seed", zeroWeighted, zeroChoose)
	}
}

func TestEntryJSONRejects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"seq":1,"tag":"t","kind":"coin","data":{}}`, `unknown kind "coin"`},
		{`{"seq":1,"tag":"t","kind":"dice","data":{"sides":6,"value":2},"extra":1}`, `unknown field "extra"`},
		{`{"seq":1,"tag":"t","kind":"dice","data":{"sides":6,"value":2,"total":3}}`, `unknown field "total"`},
		{`{"seq":1,"tag":"t","ctx":{"table":1},"kind":"dice","data":{"sides":6,"value":2}}`, `unknown field "table"`},
		{`{"seq":1,"tag":"t","kind":"dice","data":{"sides":"6","value":2}}`, `cannot unmarshal string`},
		{`{"seq":1,"tag":"t","kind":"dice","data":{"sides":6,"value":2.5}}`, `cannot unmarshal number 2.5`},
		{`{"seq":1,"tag":"t","kind":"dice","data":{"sides":6}}`, `missing sides and value`},
		{`{"seq":1,"tag":"t","kind":"dice","data":{"sides":6,"value":7}}`, `value 7 of a 6-sided die`},
		{`{"seq":0,"tag":"t","kind":"dice","data":{"sides":6,"value":2}}`, `seq is 0`},
		{`{"tag":"t","kind":"dice","data":{"sides":6,"value":2}}`, `missing seq`},
		{`{"seq":1,"kind":"dice","data":{"sides":6,"value":2}}`, `missing tag`},
		{`{"seq":1,"tag":"t","data":{"sides":6,"value":2}}`, `missing kind`},
		{`{"seq":1,"tag":"t","kind":"dice"}`, `missing data`},
		{`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[70,30],"r":75}}`, `missing weights, r and index`},
		{`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[70,30],"r":75,"index":0}}`, `r 75 picks index 1`},
		{`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[70,30],"r":100,"index":1}}`, `r 100 outside [0, 100)`},
		{`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[70,-30],"r":1,"index":0}}`, `weight 1 is -30`},
		{`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[0.5],"r":0,"index":0}}`, `weight 0 is 0.5`},
		{`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[],"r":0,"index":0}}`, `no weights`},
		{`{"seq":1,"tag":"t","kind":"shuffle","data":{"size":2,"headPreview":["a","b","c"]}}`, `size 2 with 3 preview items`},
		{`{"seq":1,"tag":"t","kind":"shuffle","data":{"size":2}}`, `missing size and headPreview`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"coin","value":1}}`, `unknown op`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"value":1}}`, `unknown op`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"u32","value":4294967296}}`, `outside [0, 2^32)`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"u32","min":0,"value":1}}`, `min and max belong to op "int"`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"int","min":1,"value":1}}`, `missing min and max`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"int","min":1,"max":6,"value":0}}`, `value 0 outside [1, 6]`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"float01","value":1}}`, `outside [0, 1)`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"float01","value":"0.5"}}`, `cannot unmarshal string`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"chooseOne","n":3,"index":3}}`, `index 3 of 3 items`},
		{`{"seq":1,"tag":"t","kind":"sample","data":{"op":"chooseOne","n":3,"index":1,"value":2}}`, `unknown field "value"`},
		{`[1,2]`, `cannot unmarshal array`},
	} {
		var e rng.Entry
		err := json.Unmarshal([]byte(c.in), &e)
		if err == nil {
			t.Errorf("Unmarshal(%s) = %+v, want error %q", c.in, e, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%s) error %q, want it to mention %q", c.in, err, c.want)
		}
		if !errors.Is(err, rng.ErrEntryJSON) {
			t.Errorf("Unmarshal(%s) error %v does not wrap ErrEntryJSON", c.in, err)
		}
	}
}

func TestEntryUnmarshalTrailingDataAndUnchanged(t *testing.T) {
	e := goldenEntries[0].e
	err := e.UnmarshalJSON([]byte(goldenEntries[1].json + ` {}`))
	if !errors.Is(err, rng.ErrEntryJSON) || !strings.Contains(err.Error(), "trailing data") {
		t.Errorf("UnmarshalJSON with trailing data: %v", err)
	}
	if !reflect.DeepEqual(e, goldenEntries[0].e) {
		t.Errorf("a failed UnmarshalJSON changed the entry to %+v", e)
	}
}

func TestEntryMarshalRejects(t *testing.T) {
	for _, e := range []rng.Entry{
		{Seq: 1, Kind: "coin"},
		{Seq: 0, Kind: rng.KindDice, Data: rng.Data{Sides: 6, Value: 1}},
		{Seq: 1, Kind: rng.KindSample, Data: rng.Data{Op: "coin"}},
		{Seq: 1, Kind: rng.KindDice, Data: rng.Data{Sides: 6, Value: 0}},
	} {
		if _, err := json.Marshal(e); !errors.Is(err, rng.ErrEntryJSON) {
			t.Errorf("Marshal(%+v) error %v, want ErrEntryJSON", e, err)
		}
	}
}

// FuzzEntryJSON: the decoder never panics, and whatever it accepts
// re-encodes and decodes to the same entry.
func FuzzEntryJSON(f *testing.F) {
	for _, g := range goldenEntries {
		f.Add(g.json)
	}
	f.Add(`{"seq":1,"tag":"t","kind":"weighted","data":{"weights":[4294967295,1],"r":4294967295,"index":1}}`)
	f.Add(`{"seq":18446744073709551615,"tag":"\u00e9","ctx":null,"kind":"shuffle","data":{"size":1,"headPreview":["\ud83c\udfb2"]}}`)
	f.Fuzz(func(t *testing.T, in string) {
		var e rng.Entry
		if err := json.Unmarshal([]byte(in), &e); err != nil {
			return
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("decoded %+v from %q but cannot encode it: %v", e, in, err)
		}
		var back rng.Entry
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("re-encoded %s does not decode: %v", b, err)
		}
		if !reflect.DeepEqual(back, e) {
			t.Fatalf("round trip changed the entry:\n first %+v\nsecond %+v", e, back)
		}
	})
}
