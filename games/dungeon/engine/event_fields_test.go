package engine_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// documentedFields is the field table of Event's doc comment, copied here
// by hand: each type's JSON keys, besides "seq" and "type". DeckShuffled is
// left to TestEventJSONRoundTrip.
var documentedFields = map[engine.EventType][]string{
	engine.EvGameCreated:            {"uid", "gameId", "rulesHash"}, // and "commitment" in fair mode
	engine.EvFairnessRevealed:       {"fairness"},
	engine.EvPlayerJoined:           {"uid", "seat", "class"}, // and the keys of TestPlayerJoinedKeys when set
	engine.EvTurnOrderRolled:        {"uid", "value"},
	engine.EvTieBreakRerolled:       {"uid", "value"},
	engine.EvGameStarted:            {"order"},
	engine.EvTurnStarted:            {"uid", "round", "turn"},
	engine.EvDiceRolled:             {"who", "tag", "sides", "value", "modifiers", "total"},
	engine.EvMoved:                  {"uid", "from", "to", "cause"},
	engine.EvSlept:                  {"uid", "amount", "hp"},
	engine.EvHealed:                 {"uid", "amount", "hp"},
	engine.EvCardDrawn:              {"uid", "deckId", "cardId"},
	engine.EvChanceResolved:         {"uid", "cardId", "effect"},
	engine.EvItemUsed:               {"uid", "cardId", "amount", "hp"},
	engine.EvItemDropped:            {"uid", "cardId"},
	engine.EvDiscarded:              {"uid", "cardId"},
	engine.EvEnemyCompositionChosen: {"tileId", "tier", "choice"},
	engine.EvEnemySpawned:           {"combatId", "cardId", "tier", "hp"},
	engine.EvDamageDealt:            {"who", "target", "amount", "hp"},
	engine.EvEnemyDefeated:          {"combatId", "cardId"},
	engine.EvLootRoll:               {"enemyTier", "outcome"},
	engine.EvKnockedOut:             {"uid", "from", "to", "hp"},
	engine.EvCombatEnded:            {"combatId", "uid", "outcome"},
	engine.EvDuelOffered:            {"duelId", "uid", "target"},
	engine.EvDuelCancelled:          {"duelId", "uid", "reason"},
	engine.EvRerollDeclined:         {"duelId", "uid"},
	engine.EvDuelEnded:              {"duelId", "winner", "outcome"},
	engine.EvItemTaken:              {"uid", "target", "cardId"},
	engine.EvTieBreakResolved:       {"reason", "candidates", "chosenUid"},
	engine.EvRoundEnded:             {"round"},
	engine.EvBracketStarted:         {"candidates"},
	engine.EvGameFinished:           {"winner", "round", "outcome"},
	engine.EvActionAccepted:         {"trustless"},
	engine.EvActionPending:          {"trustless"},
	engine.EvRoundRevealed:          {"trustless"},
	engine.EvGameAborted:            {"trustless"},
	engine.EvDeckRefilled:           {"deckId", "size"},
	engine.EvEntropyOpened:          {"uid", "seat"},
	engine.EvSeatRemoved:            {"uid", "seat", "reason"},
}

// fullEvent has every field set to a distinct non-zero value.
func fullEvent(t engine.EventType) engine.Event {
	e := engine.Event{
		Seq: 12, Type: t, UID: "u", Who: "w", Target: "tg", Tag: rng.TagMoveRoll, Sides: 6, Value: 5,
		NMods: 2, Total: 8, DeckID: "chance", Size: 3, TileID: 14, Tier: 2, EnemyTier: 3,
		Choice: "2xT1", Outcome: "T2", CardID: "c-1", From: 4, To: 7, Cause: "roll", Amount: 3, HP: 6,
		Effect: "earthquake", Reason: "mysticWave", ChosenUID: "cu", Candidates: []string{"a", "b"},
		Order: []string{"p2", "p1"}, CombatID: "c1", DuelID: "d1", Winner: "wi", Seat: 2,
		Class: engine.ClassScout, Round: 9, Turn: 11, GameID: "g", RulesHash: "rh",
	}
	e.Mods[0], e.Mods[1] = 1, 2
	return e
}

// TestEventFieldsAsDocumented: each type writes "seq", "type" and exactly
// its documented fields, and reads back to an event that writes the same.
func TestEventFieldsAsDocumented(t *testing.T) {
	for typ, fields := range documentedFields {
		e := fullEvent(typ)
		b := e.AppendJSON(nil)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: invalid JSON %s: %v", typ, b, err)
		}
		got := make([]string, 0, len(m))
		for k := range m {
			got = append(got, k)
		}
		want := append([]string{"seq", "type"}, fields...)
		sort.Strings(got)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s writes %v, documented %v", typ, got, want)
		}
		if string(m["type"]) != `"`+typ.String()+`"` || string(m["seq"]) != "12" {
			t.Errorf("%s: type %s, seq %s", typ, m["type"], m["seq"])
		}
		var back engine.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if again := back.AppendJSON(nil); !bytes.Equal(again, b) {
			t.Errorf("%s: round trip\n got %s\nwant %s", typ, again, b)
		}
		if mb, _ := json.Marshal(e); !bytes.Equal(mb, b) {
			t.Errorf("%s: MarshalJSON differs from AppendJSON", typ)
		}
	}
	if len(documentedFields) != int(lastEventType())-1 {
		t.Errorf("the table covers %d types, want every type but EvNone and DeckShuffled", len(documentedFields))
	}
}

// TestEventJSONValues: a DiceRolled with and without modifiers, written
// out by hand.
func TestEventJSONValues(t *testing.T) {
	e := engine.Event{Seq: 3, Type: engine.EvDiceRolled, Who: "p1", Tag: "combat.player.attack", Sides: 6, Value: 4, Total: 6, NMods: 2}
	e.Mods[0], e.Mods[1] = 1, 1
	want := `{"seq":3,"type":"DiceRolled","who":"p1","tag":"combat.player.attack","sides":6,"value":4,"modifiers":[1,1],"total":6}`
	if got := string(e.AppendJSON(nil)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := e.Modifiers(); !reflect.DeepEqual(got, []int{1, 1}) {
		t.Errorf("Modifiers() = %v", got)
	}
	e.NMods = 0 // no modifiers: no "modifiers" and no "total"
	want = `{"seq":3,"type":"DiceRolled","who":"p1","tag":"combat.player.attack","sides":6,"value":4}`
	if got := string(e.AppendJSON(nil)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	o := engine.Event{Seq: 1, Type: engine.EvGameStarted, Order: []string{"p3", "p1", "p2"}}
	if got := string(o.AppendJSON([]byte("x"))); got != `x{"seq":1,"type":"GameStarted","order":["p3","p1","p2"]}` {
		t.Errorf("GameStarted = %s", got)
	}
	empty := engine.Event{Seq: 2, Type: engine.EvBracketStarted}
	if got := string(empty.AppendJSON(nil)); got != `{"seq":2,"type":"BracketStarted","candidates":[]}` {
		t.Errorf("BracketStarted with no candidates = %s", got)
	}
	// A type outside the table writes only seq and type.
	if got := string((&engine.Event{Seq: 1, Type: 200}).AppendJSON(nil)); got != `{"seq":1,"type":"Unknown"}` {
		t.Errorf("unknown type = %s", got)
	}
	if got := string((&engine.Event{Seq: 1, Type: engine.EvNone}).AppendJSON(nil)); got != `{"seq":1,"type":""}` {
		t.Errorf("EvNone = %s", got)
	}
}

// TestEventStringsEscapedAsEncodingJSON: appendString must escape exactly
// as encoding/json does, HTML characters included.
func TestEventStringsEscapedAsEncodingJSON(t *testing.T) {
	var ctl strings.Builder
	for c := 0; c < 0x20; c++ {
		ctl.WriteByte(byte(c))
	}
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "\n\r\t", ctl.String(), "\x7f", "<b>&amp;</b>",
		"\u2028\u2029", "\u2027\u202a", "é, 漢字, 🎲", "bad \xff\xfe utf-8", "\xc3", "a\x00b", " ~",
		"\x80", "a\x80b", // 0x80: the first byte past ASCII, a lone continuation byte
	} {
		want, _ := json.Marshal(s)
		e := engine.Event{Seq: 1, Type: engine.EvRoundEnded}
		e.Type = engine.EvItemTaken
		e.UID = s
		got := e.AppendJSON(nil)
		prefix := `{"seq":1,"type":"ItemTaken","uid":`
		if !bytes.HasPrefix(got, []byte(prefix+string(want)+",")) {
			t.Errorf("%q: wrote %s, want uid %s", s, got, want)
		}
	}
}

// lastEventType is the last type with a name.
func lastEventType() engine.EventType {
	typ := engine.EvGameCreated
	for (typ + 1).String() != "Unknown" {
		typ++
	}
	return typ
}

func TestEventTypeNames(t *testing.T) {
	last := lastEventType()
	if last < engine.EvGameFinished || last > 100 {
		t.Fatalf("the last named event type is %d", last)
	}
	for typ := engine.EvGameCreated; typ <= last; typ++ {
		name := typ.String()
		if name == "" || name == "Unknown" || engine.ParseEventType(name) != typ {
			t.Errorf("type %d: name %q parses to %d", typ, name, engine.ParseEventType(name))
		}
	}
	for _, s := range []string{"", "Unknown", "diceRolled", "DiceRolled ", "Nope"} {
		if engine.ParseEventType(s) != engine.EvNone {
			t.Errorf("ParseEventType(%q) = %d, want EvNone", s, engine.ParseEventType(s))
		}
	}
	if engine.EvNone.String() != "" || (last+1).String() != "Unknown" || engine.EventType(255).String() != "Unknown" {
		t.Error("names of EvNone and past the last type")
	}
}

func TestEventUnmarshalRejects(t *testing.T) {
	for name, in := range map[string]string{
		"unknown type":          `{"seq":1,"type":"Nope"}`,
		"no type":               `{"seq":1}`,
		"five modifiers":        `{"seq":1,"type":"DiceRolled","modifiers":[1,1,1,1,1],"total":5}`,
		"not an object":         `[1]`,
		"a string for a number": `{"seq":"1","type":"RoundEnded"}`,
	} {
		e := engine.Event{Seq: 77}
		if err := json.Unmarshal([]byte(in), &e); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	var e engine.Event
	if err := json.Unmarshal([]byte(`{"seq":1,"type":"DiceRolled","modifiers":[1,2,3,4],"total":9}`), &e); err != nil || e.NMods != 4 || e.Mods != [4]int{1, 2, 3, 4} {
		t.Errorf("four modifiers: %v, %+v", err, e)
	}
}

// TestSaveStreamAndHash: SaveStream records the seq, and in seeded mode the
// generator's state; Hash is the hex SHA-256 of the canonical JSON.
func TestSaveStreamAndHash(t *testing.T) {
	g := &engine.Game{}
	g.Public.RNG.Mode = rng.ModeSeeded
	s, _ := rng.NewSeeded("save")
	for range 3 {
		s.Uint32(rng.TagTestOnly, nil)
	}
	if err := g.SaveStream(s); err != nil {
		t.Fatal(err)
	}
	st, _ := s.State()
	if g.Public.RNG.Seq != 3 || g.Secret.RNGState != st || !strings.HasPrefix(st, "sfc32:") {
		t.Errorf("seeded: seq %d, state %q, want 3, %q", g.Public.RNG.Seq, g.Secret.RNGState, st)
	}
	// Crypto: the seq only; there is no state to save.
	c := &engine.Game{}
	c.Public.RNG.Mode = rng.ModeCrypto
	cs := rng.NewCrypto(rng.WithSeq(8))
	cs.Uint32(rng.TagTestOnly, nil)
	if err := c.SaveStream(cs); err != nil || c.Public.RNG.Seq != 9 || c.Secret.RNGState != "" {
		t.Errorf("crypto: %v, seq %d, state %q", err, c.Public.RNG.Seq, c.Secret.RNGState)
	}
	// A seeded game on a source that cannot save its state.
	c.Public.RNG.Mode = rng.ModeSeeded
	if err := c.SaveStream(cs); !errors.Is(err, rng.ErrNotSavable) {
		t.Errorf("an unsavable source: err = %v", err)
	}

	h, err := g.Hash()
	b, _ := g.CanonicalJSON()
	sum := sha256Hex(b)
	if err != nil || h != sum {
		t.Errorf("Hash = %s, %v; want %s", h, err, sum)
	}
	g.Public.Round++
	if h2, _ := g.Hash(); h2 == h {
		t.Error("two different games have the same hash")
	}
}

// TestResetAndClone: Reset gives the zero game's JSON; Clone is deep in
// every list and pointer.
func TestResetAndClone(t *testing.T) {
	g := snapshots(t)["bracket"]
	c := g.Clone()
	a, _ := g.CanonicalJSON()
	b, _ := c.CanonicalJSON()
	if !bytes.Equal(a, b) {
		t.Fatal("the clone differs")
	}
	// Change everything the clone holds by reference.
	c.Public.Players[0].Items = append(c.Public.Players[0].Items[:0], "zz")
	c.Public.Players[1].UID = "zz"
	c.Public.Order[0] = "zz"
	c.Public.Decks[0].Discard = append(c.Public.Decks[0].Discard[:0], "zz")
	c.Public.Duel.ID = "zz"
	c.Public.Bracket.Finalists[0] = "zz"
	c.Secret.Decks[0].Cards[0] = "zz"
	if a2, _ := g.CanonicalJSON(); !bytes.Equal(a, a2) {
		t.Errorf("changing the clone changed the original:\n%s\n%s", a, a2)
	}
	cb := snapshots(t)["combat"]
	cc := cb.Clone()
	cc.Public.Combat.Enemies[0].HP = 99
	cc.Public.Combat.ID = "zz"
	if cb.Public.Combat.Enemies[0].HP == 99 || cb.Public.Combat.ID == "zz" {
		t.Error("the combat is shared with the clone")
	}

	g.Reset()
	zero, _ := (&engine.Game{}).CanonicalJSON()
	if got, _ := g.CanonicalJSON(); !bytes.Equal(got, zero) {
		t.Errorf("after Reset: %s", got)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestEventCommitments: DeckShuffled always writes its commitment (zero
// included); GameCreated writes one only in fair mode (non-zero); both
// read back.
func TestEventCommitments(t *testing.T) {
	zero := strings.Repeat("0", 64)
	d := engine.Event{Seq: 4, Type: engine.EvDeckShuffled, DeckID: "chance", Size: 12, Tag: "deck.initShuffle.chance"}
	want := `{"seq":4,"type":"DeckShuffled","deckId":"chance","size":12,"tag":"deck.initShuffle.chance","commitment":"` + zero + `"}`
	if got := string(d.AppendJSON(nil)); got != want {
		t.Errorf("DeckShuffled with a zero commitment:\n got %s\nwant %s", got, want)
	}
	c := engine.Event{Seq: 1, Type: engine.EvGameCreated, UID: "p1", GameID: "g", RulesHash: "rh", Commitment: engine.Hash32{0xab, 0x01}}
	b := c.AppendJSON(nil)
	if !strings.Contains(string(b), `"commitment":"ab01`+strings.Repeat("0", 60)+`"`) {
		t.Errorf("GameCreated in fair mode: %s", b)
	}
	var back engine.Event
	if err := json.Unmarshal(b, &back); err != nil || back.Commitment != c.Commitment || back.RulesHash != "rh" {
		t.Errorf("read back: %v, %+v", err, back)
	}
}

// TestPlayerJoinedKeys: PlayerJoined writes a fair seat's commitment and a
// trustless seat's chain head and key only when they are set, and reads
// them back; a trustless record reads back as written.
func TestPlayerJoinedKeys(t *testing.T) {
	e := engine.Event{Seq: 3, Type: engine.EvPlayerJoined, UID: "p1", Seat: 0, Class: engine.ClassMonk,
		Keys: &engine.JoinKeys{ChainHead: engine.Hash32{1}, PublicKey: engine.Hash32{2}}}
	want := `{"seq":3,"type":"PlayerJoined","uid":"p1","seat":0,"class":"monk","chainHead":"01` + strings.Repeat("0", 62) +
		`","publicKey":"02` + strings.Repeat("0", 62) + `"}`
	if got := string(e.AppendJSON(nil)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	f := engine.Event{Seq: 3, Type: engine.EvPlayerJoined, UID: "p1", Keys: &engine.JoinKeys{EntropyCommitment: engine.Hash32{0xab}}}
	if got := string(f.AppendJSON(nil)); !strings.Contains(got, `"entropyCommitment":"ab00`) || strings.Contains(got, "chainHead") {
		t.Errorf("fair join: %s", got)
	}
	r := engine.Event{Seq: 9, Type: engine.EvRoundRevealed, Trust: &engine.TrustRecord{Index: 4, Digest: engine.Hash32{5},
		Reveals: []engine.RevealRecord{{UID: "p2", Seat: 1, At: 77, Link: engine.Hash32{6}, Signature: "aa"}}, Transcript: engine.Hash32{7}}}
	for _, ev := range []engine.Event{e, f, r} {
		b := ev.AppendJSON(nil)
		var back engine.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if again := back.AppendJSON(nil); !bytes.Equal(again, b) {
			t.Errorf("round trip\n got %s\nwant %s", again, b)
		}
		if !reflect.DeepEqual(back, ev) {
			t.Errorf("read back as %+v, want %+v", back, ev)
		}
	}
	// Keys all zero are not written, and read back as none.
	z := engine.Event{Seq: 3, Type: engine.EvPlayerJoined, UID: "p1", Keys: &engine.JoinKeys{}}
	none := z
	none.Keys = nil
	var back engine.Event
	if err := json.Unmarshal(z.AppendJSON(nil), &back); err != nil || back.Keys != nil || !bytes.Equal(z.AppendJSON(nil), none.AppendJSON(nil)) {
		t.Errorf("zero keys: %s, read back %+v, %v", z.AppendJSON(nil), back.Keys, err)
	}
	var bad engine.Event
	if err := json.Unmarshal([]byte(`{"seq":1,"type":"PlayerJoined","chainHead":"abc"}`), &bad); err == nil || !strings.Contains(err.Error(), "chainHead") {
		t.Errorf("a malformed chain head decodes: %v", err)
	}
}
