package integration

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// watcher checks, after every action of a game played through the
// functions, that nothing its players can read tells them a card not yet
// drawn, or (before the end) a seed, a salt or generator state: the
// action's result, getView, and the game document and the log read over
// Firestore REST with a player's ID token, under the security rules.
//
// "Not yet drawn" is every card in a draw pile of the server's private
// state at that moment (read with the admin client), except cards that are
// public elsewhere (a discard pile, an inventory, an enemy on the table).
// Such a card may appear in an event older than its deck's latest
// shuffle (a card discarded, then reshuffled into the pile, was public
// then and its pile's content is public: the discards); it must not
// appear in any event since, nor anywhere in the current state.
type watcher struct {
	t       *testing.T
	e       *env
	gameID  string
	players []functest.Player
	step    int

	viewAfter, restAfter uint64
	// lastShuffle is the log seq of each deck's latest DeckShuffled.
	lastShuffle map[string]uint64
	// restNamed and viewNamed give, for every string value ever read in
	// a log event (over REST; through the functions: results and
	// getView), the highest seq of an event holding it.
	restNamed, viewNamed map[string]uint64
	// commitment is the fair commitment the game document showed when a
	// player could first read it (after the first join).
	commitment string
	// controlled: the private state's read has been refused, and its
	// positive control run (privateControl).
	controlled bool

	checks, actions, shuffles int
}

func newWatcher(t *testing.T, e *env, gameID string, ps []functest.Player) *watcher {
	return &watcher{t: t, e: e, gameID: gameID, players: ps, lastShuffle: map[string]uint64{},
		restNamed: map[string]uint64{}, viewNamed: map[string]uint64{}}
}

// events notes the events a player received through the functions.
func (w *watcher) events(ev []engine.Event) {
	for i := range ev {
		e := &ev[i]
		if e.Type == engine.EvDeckShuffled && e.Seq > w.lastShuffle[e.DeckID] {
			w.lastShuffle[e.DeckID] = e.Seq
		}
		stringsIn(w.t, e.AppendJSON(nil), func(s string) { w.viewNamed[s] = max(w.viewNamed[s], e.Seq) })
	}
}

// after is the game's functest.Game.After.
func (w *watcher) after(fn string, by functest.Player, result json.RawMessage) error {
	t := w.t
	t.Helper()
	w.actions++
	ctx := context.Background()
	reader := w.players[w.step%len(w.players)] // a different seat reads each time
	w.step++

	var res functest.Result
	if err := json.Unmarshal(result, &res); err != nil {
		return err
	}
	w.events(res.Events)

	// getView, as the reader, from where it stopped.
	var raw json.RawMessage
	if err := w.e.c.Call(ctx, "getView", reader.Token, map[string]any{"gameId": w.gameID, "afterSeq": w.viewAfter}, &raw); err != nil {
		return fmt.Errorf("getView: %w", err)
	}
	var v functest.View
	var state struct {
		JSON json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		return err
	}
	if v.More {
		return fmt.Errorf("getView after %d has more than one page", w.viewAfter)
	}
	w.events(v.Events)
	if n := len(v.Events); n > 0 {
		w.viewAfter = v.Events[n-1].Seq
	}

	// Firestore over REST, as a seated player (the rules let only them
	// read; right after create nobody is seated, and the owner is refused).
	seated := v.State.Players
	if len(seated) == 0 {
		if code, body := restDo(t, "GET", "/games/"+w.gameID, reader.Token, nil); code != 403 {
			return fmt.Errorf("the unseated owner read the game over REST: HTTP %d %s", code, body)
		}
		return nil
	}
	restReader := w.players[0]
	for _, p := range w.players {
		if p.UID == seated[w.step%len(seated)].UID {
			restReader = p
		}
	}
	doc := restGet(t, "/games/"+w.gameID, restReader.Token)
	var fresh [][]byte
	for {
		docs := restLogAfter(t, w.gameID, w.restAfter, restReader.Token)
		if len(docs) == 0 {
			break
		}
		for _, d := range docs {
			if d.seq != w.restAfter+1 {
				return fmt.Errorf("the log over REST jumps from %d to %d", w.restAfter, d.seq)
			}
			w.restAfter = d.seq
			stringsIn(t, d.raw, func(s string) { w.restNamed[s] = max(w.restNamed[s], d.seq) })
			fresh = append(fresh, d.raw)
		}
	}
	if w.restAfter != v.State.LogSeq {
		return fmt.Errorf("the log over REST ends at %d, the game's at %d", w.restAfter, v.State.LogSeq)
	}
	if w.commitment == "" {
		w.commitment = restField(t, doc, "fairness", "commitmentHex")
	} else if c := restField(t, doc, "fairness", "commitmentHex"); c != w.commitment {
		return fmt.Errorf("the commitment changed from %s to %s", w.commitment, c)
	}

	// The server's private state, now.
	snap, err := w.e.fc.Doc("games/" + w.gameID + "/private/state").Get(ctx)
	if err != nil {
		return err
	}
	var sec engine.Secret
	if err := fromDoc(snap.Data(), &sec); err != nil {
		return err
	}
	pub := &v.State
	public := publicCards(pub)
	for what, b := range map[string][]byte{"the game document over REST": doc, "getView's state": state.JSON} {
		if c, pile := namesUndrawn(b, &sec, public); c != "" {
			return fmt.Errorf("after %s (version %d) %s names %s, still in the %s pile", fn, pub.Version, what, c, pile)
		}
	}
	if pub.Phase == engine.PhasePlaying && !w.controlled {
		w.controlled = true
		if err := w.privateControl(restReader, &sec, public); err != nil {
			return err
		}
	}
	for _, d := range sec.Decks {
		for _, c := range d.Cards {
			if public[c] {
				continue
			}
			w.checks++
			if s := w.restNamed[c]; s > w.lastShuffle[d.ID] {
				return fmt.Errorf("after %s (version %d) log event %d read over REST names %s, still in the %s pile (shuffled at %d)",
					fn, pub.Version, s, c, d.ID, w.lastShuffle[d.ID])
			}
			if s := w.viewNamed[c]; s > w.lastShuffle[d.ID] { // the results' events and getView's
				return fmt.Errorf("after %s (version %d) event %d from the functions names %s, still in the %s pile (shuffled at %d)",
					fn, pub.Version, s, c, d.ID, w.lastShuffle[d.ID])
			}
		}
	}
	w.shuffles = len(sec.Shuffles)
	if pub.Phase == engine.PhaseFinished {
		return nil
	}
	// Before the end: no secret at all.
	secrets := []string{sec.ServerSeed, sec.GameSeed, sec.RNGState, sec.Seed}
	if !sec.SaltKey.IsZero() {
		secrets = append(secrets, sec.SaltKey.String())
	}
	for _, s := range sec.Shuffles {
		secrets = append(secrets, s.Salt.String())
	}
	secrets = append(secrets, sec.Entropy...)
	reads := append([][]byte{result, raw, doc}, fresh...)
	for _, s := range secrets {
		if len(s) < 8 {
			continue // too short to tell from other text ("" included); the entropies here are long
		}
		for _, b := range reads {
			if strings.Contains(string(b), s) {
				return fmt.Errorf("after %s (version %d) a secret of %d characters is readable: %.80s", fn, pub.Version, len(s), b)
			}
		}
	}
	for _, b := range reads {
		for _, k := range []string{"serverSeed", "gameSeed", "saltHex", "rngState", "headPreview"} {
			if strings.Contains(string(b), k) {
				return fmt.Errorf("after %s (version %d) %q is readable before the end", fn, pub.Version, k)
			}
		}
	}
	return nil
}

// namesUndrawn returns a card of sec's draw piles that is not public
// and that b names (as a JSON string), and its pile; "" if none.
func namesUndrawn(b []byte, sec *engine.Secret, public map[string]bool) (card, pile string) {
	for _, d := range sec.Decks {
		for _, c := range d.Cards {
			if !public[c] && strings.Contains(string(b), `"`+c+`"`) {
				return c, d.ID
			}
		}
	}
	return "", ""
}

// privateControl reads the private state over REST as a seated player:
// the rules refuse it; and, the positive control, the same read of a copy
// of it under the project's rules with the private state's rule opened to
// every signed-in user (emulator.Suite.Weakened) succeeds, and the
// watcher's scan for undrawn cards finds one in it. So the rules are what
// keep the deck order from the players, and the scan would see it.
func (w *watcher) privateControl(reader functest.Player, sec *engine.Secret, public map[string]bool) error {
	path := "/games/" + w.gameID + "/private/state"
	if code, body := restDo(w.t, "GET", path, reader.Token, nil); code != http.StatusForbidden {
		return fmt.Errorf("%s read the private state over REST: HTTP %d %.200s", reader.UID, code, body)
	}
	weak := emu.Weakened(w.t, []string{"/private/{doc}"}, path)
	code, body, err := weak.REST(context.Background(), "GET", path, reader.Token, nil)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("the positive control: under rules opened at the private state, %s's read: HTTP %d %.200s, want 200", reader.UID, code, body)
	}
	if c, _ := namesUndrawn(body, sec, public); c == "" {
		return fmt.Errorf("the positive control: the private state %s read under weakened rules names no undrawn card: %.300s", reader.UID, body)
	}
	return nil
}

// publicCards are the cards the state shows: discard piles, inventories,
// enemies on the table.
func publicCards(p *engine.Public) map[string]bool {
	m := map[string]bool{}
	for _, d := range p.Decks {
		for _, c := range d.Discard {
			m[c] = true
		}
	}
	for _, pl := range p.Players {
		for _, c := range pl.Items {
			m[c] = true
		}
	}
	if p.Combat != nil {
		for _, en := range p.Combat.Enemies {
			m[en.CardID] = true
		}
	}
	return m
}

// commitmentOf is SHA-256(field("fairboard/server-seed/v1") ‖
// field(serverSeed)), field(b) = 4-byte big-endian length, then b: the
// issue's contract, written out here rather than taken from rng/fair.
func commitmentOf(t testing.TB, serverSeedHex string) string {
	t.Helper()
	seed, err := hex.DecodeString(serverSeedHex)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, b := range [][]byte{[]byte("fairboard/server-seed/v1"), seed} {
		h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(b))))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestHiddenInformationThroughTheFunctions (issue 9, section 1): whole
// games in crypto and fair modes through the functions on the emulators;
// after every action, nothing the players can read (results, getView, the
// game document and the log over Firestore REST with their tokens) names
// a card not yet drawn, and nothing before the end holds a secret; the
// private state read over REST is refused, and read under rules weakened
// on purpose it names an undrawn card (the positive control). At the
// end a fair game shows its reveal in the game document and as its last
// log event, opening the commitment it published at create.
func TestHiddenInformationThroughTheFunctions(t *testing.T) {
	for _, mode := range []string{"crypto", "fair"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, nil)
			ps := players(t, 3)
			id := "hidden-" + mode
			w := newWatcher(t, e, id, ps)
			g := functest.Game{ID: id, Mode: mode, After: w.after}
			if mode == "fair" {
				g.Entropy = []string{"5eed0f0a11ce0001", "", strings.Repeat("c0ffee", 10)}
			}
			log, n, err := functest.Play(context.Background(), e.c, g, ps, eng.Rules())
			if err != nil {
				t.Fatal(err)
			}
			if w.actions != n+len(ps)+2 || w.shuffles < engine.NumDecks || w.checks < 1000 {
				t.Fatalf("checked %d actions (want %d), %d shuffles, %d undrawn cards: too little", w.actions, n+len(ps)+2, w.shuffles, w.checks)
			}
			if !w.controlled {
				t.Fatal("the private state's read and its positive control did not run")
			}
			last := log[len(log)-1]
			if log[len(log)-2].Type != engine.EvGameFinished || last.Type != engine.EvFairnessRevealed {
				t.Fatalf("the log ends with %s, %s; want GameFinished, FairnessRevealed", log[len(log)-2].Type, last.Type)
			}
			tok := ps[1].Token
			doc := restGet(t, "/games/"+id, tok)
			docs := restLogAfter(t, id, last.Seq-1, tok)
			if len(docs) != 1 || restField(t, docs[0].raw, "type") != "FairnessRevealed" {
				t.Fatalf("the last log documents over REST are not one FairnessRevealed: %d documents", len(docs))
			}
			if restField(t, doc, "fairness", "revealed") != "true" {
				t.Fatalf("the game document does not show the reveal: %s", doc)
			}
			if mode != "fair" {
				return
			}
			seed := restField(t, doc, "fairness", "serverSeedHex")
			if len(seed) != 64 || w.commitment == "" || commitmentOf(t, seed) != w.commitment ||
				restField(t, doc, "fairness", "commitmentHex") != w.commitment {
				t.Fatalf("the revealed server seed %q does not open the commitment %q published at create", seed, w.commitment)
			}
			if !strings.Contains(string(docs[0].raw), seed) || !strings.Contains(string(docs[0].raw), g.Entropy[2]) {
				t.Errorf("the FairnessRevealed event over REST lacks the server seed or a contribution: %s", docs[0].raw)
			}
			t.Logf("%s: %d actions checked, %d undrawn-card checks, %d shuffles", mode, w.actions, w.checks, w.shuffles)
		})
	}
}
