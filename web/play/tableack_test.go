package play_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/web/play"
)

// dropReveals is the in-memory table store but for the first reveal of
// uid (drop set): answered as applied, at the table's version, and not
// applied, so the functions acknowledge it, signing as they sign every
// success (client.TestTableDroppedThenBlamed's store, in Go). Once forge
// is set, the views it shows uid carry the other seats' reveal markers of
// the pending round with a bit of their signatures flipped: forged.
// It counts the views it shows uid (views: the page's polls) and the
// actions uid sends other than joins (sends: reveals, moves, deal
// actions, aborts), dropped or not.
type dropReveals struct {
	tablestore.Store
	uid   string
	drop  bool
	mu    sync.Mutex
	hit   *table.Action
	forge bool
	views int
	sends int
}

// counts answers the views shown to uid and the actions it sent so far.
func (s *dropReveals) counts() (views, sends int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.views, s.sends
}

// setForge turns the forging of markers on or off.
func (s *dropReveals) setForge(on bool) {
	s.mu.Lock()
	s.forge = on
	s.mu.Unlock()
}

func (s *dropReveals) View(ctx context.Context, gameID, uid string) (*table.View, game.Definition, error) {
	v, def, err := s.Store.View(ctx, gameID, uid)
	s.mu.Lock()
	forge := s.forge
	if uid == s.uid {
		s.views++
	}
	s.mu.Unlock()
	if err != nil || !forge || uid != s.uid || v.Trustless == nil || v.Trustless.Pending == nil {
		return v, def, err
	}
	tv, p := *v.Trustless, *v.Trustless.Pending
	p.Reveals = slices.Clone(p.Reveals)
	for i, m := range p.Reveals {
		sig, err := hex.DecodeString(m.Signature)
		if m.UID == uid || err != nil || len(sig) == 0 {
			continue
		}
		sig[len(sig)/2] ^= 1
		p.Reveals[i].Signature = hex.EncodeToString(sig)
	}
	tv.Pending = &p
	w := *v
	w.Trustless = &tv
	return &w, def, nil
}

func (s *dropReveals) Do(ctx context.Context, gameID string, a table.Action) (*table.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.Actor == s.uid && a.Kind != table.KindJoin {
		s.sends++
	}
	if !s.drop || s.hit != nil || a.Actor != s.uid || a.Kind != table.KindReveal {
		return s.Store.Do(ctx, gameID, a)
	}
	s.hit = &a
	v, _, err := s.Store.View(ctx, gameID, a.Actor)
	if err != nil {
		return nil, err
	}
	return &table.Result{ActionID: a.ActionID, Version: v.Version}, nil
}

// ackSeed is the seed of the server's acknowledgement key in these tests.
var ackSeed = bytes.Repeat([]byte{0x5a}, ed25519.SeedSize)

// ackTable starts a server (in memory, dev sign-in) whose functions sign
// acknowledgements with the key of ackSeed, over tables, and whose page
// pins pinned (hex); Bob (a Go seat) creates a trustless Pig table with
// a 3 s round deadline, Alice's page joins it, Bob starts and rolls, and
// Alice's page reveals his round by itself. It answers the table (its
// Seats: Bob's seat), Alice's page and the index of the round.
func ackTable(t *testing.T, m *memTable, tables tablestore.Store, pinned string) (*functest.TrustTable, *player, string, uint32) {
	t.Helper()
	tt, alice, id, index := ackRound(t, m, tables, pinned)
	alice.WaitFor(`document.getElementById("tg-trust-ack").dataset.ack !== ""`, time.Minute)
	// Bob's marker, as the store showed it, is his signature: no lie said.
	require.Equal(t, "", alice.String(`document.getElementById("tg-trust-marks").dataset.lie`), alice.String(`document.getElementById("tg-trust-marks").textContent`))
	return tt, alice, id, index
}

// ackRound is ackTable up to Bob's roll: the round, with Bob's marker,
// awaits Alice's reveal; it does not wait for her page.
func ackRound(t *testing.T, m *memTable, tables tablestore.Store, pinned string) (*functest.TrustTable, *player, string, uint32) {
	t.Helper()
	key := ed25519.NewKeyFromSeed(ackSeed)
	m.srv = newServerAck(t, []store.Store{store.NewMemory()}, names.NewMemory(), tables, functions.InsecureDevVerifier{}, func(string) play.Config {
		return play.Config{ProjectID: "demo-fairboard", APIKey: "dev", Store: play.StoreMemory, DevAuth: true, AckKey: pinned}
	}, false, key)
	m.api = &functest.Client{Base: m.srv.URL}
	alice := m.page("Alice", browser.Phone)
	id := tableID("trust-ack-")
	tt, bobSeat := m.trustPig(id, 3000)
	tt.Seats = []*trustseat.Seat{bobSeat}
	alice.open(m.srv.URL, id)
	alice.joinTable()
	v, err := tt.View("bob")
	require.NoError(t, err)
	_, err = tt.Do(table.Action{Actor: "bob", ActionID: "start", Version: v.Version, Kind: table.KindStart})
	require.NoError(t, err)
	v, err = tt.View("bob")
	require.NoError(t, err)
	require.Equal(t, 0, v.ToMove, "Bob moves first")
	a, err := bobSeat.Move("b0", v, v.Legal[0]) // roll: a round for Alice's page to reveal
	require.NoError(t, err)
	_, err = tt.Do(a)
	require.NoError(t, err)
	v, err = tt.View("bob")
	require.NoError(t, err)
	require.NotNil(t, v.Trustless.Pending)
	require.True(t, slices.ContainsFunc(v.Trustless.Pending.Reveals, func(m table.RevealMarker) bool { return m.UID == "bob" }),
		"the round shows Bob's marker: the page checks it before it reveals")
	return tt, alice, id, v.Trustless.Pending.Index
}

// keptAck reads the acknowledgement Alice's page keeps with her seat's
// secrets on the device (IndexedDB, "table/alice/ID": the blob of
// trustseat's Export, its field "ack"), nil for none: the test's own
// reading of the store.
func keptAck(t *testing.T, p *player, id string) *trustseat.Ack {
	t.Helper()
	var rec *struct{ Secrets string }
	p.Eval(`new Promise((resolve, reject) => { const r = indexedDB.open("fairboard"); r.onerror = () => reject(r.error);
	  r.onsuccess = () => { const g = r.result.transaction("seats").objectStore("seats").get("table/`+p.uid+`/`+id+`"); g.onsuccess = () => resolve(g.result ?? null); g.onerror = () => reject(g.error); }; })`, &rec)
	require.NotNil(t, rec, "no seat kept on the device")
	var blob struct{ Ack json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(rec.Secrets), &blob))
	if len(blob.Ack) == 0 {
		return nil
	}
	a, err := trustseat.ParseAck(blob.Ack)
	require.NoError(t, err)
	return a
}

// Acknowledgements on the play page (issue 27; docs/play.md,
// "Acknowledgements kept"): the page pins the server's key from its
// configuration (ackKey). A store drops Alice's reveal of Bob's first
// roll after the functions acknowledged it: her page checks the signed
// acknowledgement under the pinned key and keeps it with her seat's
// secrets on the device, where the test reads it back and verifies it
// under the server's key (independently, with trustseat.VerifyAck, of the
// seed's key). At the deadline the abort names Alice as missing the
// round; her page then shows that the server dropped a message it had
// acknowledged, with the acknowledgement's index, digest and signature.
// The positive control: a page pinning another key refuses the same kind
// of acknowledgement, says the server lied or the key is wrong, keeps
// none, and then sends nothing more at its table (stopAfterRefusal).
// Reveal markers (docs/play.md, "Markers checked"): before the
// abort the store shows Alice Bob's marker with its signature forged, and
// her page names the lie (seat, player, round); before that, and on the
// control's honest store, her page names none. After the lie her page
// sends nothing more at the table (stopAfterLie; the control: on the
// honest first round her page sent its reveal).
func TestTrustlessAckKeptAndBlamedInChromium(t *testing.T) {
	m := newMemTable(t)
	pub := ed25519.NewKeyFromSeed(ackSeed).Public().(ed25519.PublicKey)
	ds := &dropReveals{Store: tablestore.NewMemory(registry.Lookup), uid: "alice", drop: true}
	tt, alice, id, index := ackTable(t, m, ds, hex.EncodeToString(pub))

	require.Equal(t, "kept", alice.String(`document.getElementById("tg-trust-ack").dataset.ack`), alice.String(`document.getElementById("tg-trust-ack").textContent`))
	require.Contains(t, alice.String(`document.getElementById("tg-trust-ack").textContent`), "signed by the server's key this page pins")
	ds.mu.Lock()
	require.NotNil(t, ds.hit, "the store dropped Alice's reveal")
	ds.mu.Unlock()
	ack := keptAck(t, alice, id)
	require.NotNil(t, ack, "the acknowledgement is kept with the seat's secrets")
	require.True(t, trustseat.VerifyAck(pub, ack), "it verifies under the server's key")
	require.Equal(t, []any{id, "alice", table.KindReveal, index}, []any{ack.GameID, ack.Action.Actor, ack.Action.Kind, ack.Action.Reveal.Index})
	// Honest markers: her page sent its reveal, the one action it had to.
	_, sends := ds.counts()
	require.Equal(t, 1, sends, "Alice's page sent one action, her reveal")

	// The store now shows Alice Bob's marker forged (docs/play.md,
	// "Markers checked"): her page names the lie within a poll, Bob's
	// seat, the round and the signature; honest until then (ackTable).
	ds.setForge(true)
	alice.WaitFor(`document.getElementById("tg-trust-marks").dataset.lie === "1"`, time.Minute)
	lie := alice.String(`document.getElementById("tg-trust-marks").textContent`)
	t.Logf("the page says of the forged marker: %s", lie)
	for _, part := range []string{"The server lies at this table", fmt.Sprintf("seat 0 (bob) revealed round %d", index),
		"did not sign over the pending move shown here", "sends nothing more at this table"} {
		require.Contains(t, lie, part)
	}

	// The deadline passes with Alice's reveal dropped: the abort names her.
	alice.WaitFor(`!document.getElementById("tg-trust-abort").hidden`, time.Minute)
	_, sends = ds.counts()
	require.Equal(t, 1, sends, "after the lie, until the abort, Alice's page sent nothing more")
	alice.Click("#tg-trust-abort")
	alice.WaitFor(`document.getElementById("tg-trust-blame").dataset.dropped === "1"`, time.Minute)
	end, err := tt.View("alice")
	require.NoError(t, err)
	require.NotNil(t, end.Outcome)
	require.Equal(t, []int{1}, end.Outcome.Missing, "the server named Alice's seat as missing")
	blame := alice.String(`document.getElementById("tg-trust-blame").textContent`)
	t.Logf("the page says: %s", blame)
	for _, part := range []string{"The server dropped a message it had acknowledged", fmt.Sprintf("reveal for index %d", index),
		"digest " + ack.Action.Reveal.Digest, ack.Server.Signature, "naming alice as missing", "verifies under the server's published key"} {
		require.Contains(t, blame, part)
	}
	alice.CheckConsole(expectedConsole...)

	// The control: the same acknowledgement, signed by the server's key,
	// on a page pinning another key, is refused and not kept.
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{0x33}, ed25519.SeedSize)).Public().(ed25519.PublicKey)
	m2 := &memTable{t: t, ctx: m.ctx, b: m.b}
	cs := &dropReveals{Store: tablestore.NewMemory(registry.Lookup), uid: "alice"} // honest: it only counts
	tt2, alice2, id2, _ := ackTable(t, m2, cs, hex.EncodeToString(other))
	require.Equal(t, "refused", alice2.String(`document.getElementById("tg-trust-ack").dataset.ack`))
	said := alice2.String(`document.getElementById("tg-trust-ack").textContent`)
	require.Contains(t, said, "does NOT verify under the server's key this page pins")
	require.Contains(t, said, "the server lied")
	t.Logf("the control page says: %s", said)
	require.Nil(t, keptAck(t, alice2, id2), "a refused acknowledgement is not kept")
	require.Equal(t, "", alice2.String(`document.getElementById("tg-trust-marks").dataset.lie`), "an honest store's markers: no lie")
	stopAfterRefusal(t, tt2, alice2, cs)
	alice2.CheckConsole(expectedConsole...)

	// The stop after a lie, on a third table: no more sends.
	stopAfterLie(t, m, pub)
}

// stopAfterRefusal is the stop after a refused acknowledgement
// (docs/play.md, "Acknowledgements kept"), at the control's table, whose
// store is honest and counts: Alice's page sent its reveal (her one
// action) and refused its acknowledgement, which closed Bob's round. If
// Bob is still to move he rolls again, and his round awaits her reveal,
// which her page, over at least three more of its polls, does not send
// (nor try: data-reveals-sent stays 1); if his roll was a 1 and she is to
// move, her page refuses her click and says why. Either way no action of
// hers reaches the store. The control: on the first table, with the
// acknowledgement kept, her page sent exactly its reveal of the same kind
// of round, and TestTrustlessPigInChromium's pages send every move.
func stopAfterRefusal(t *testing.T, tt *functest.TrustTable, alice *player, cs *dropReveals) {
	t.Helper()
	_, sends := cs.counts()
	require.Equal(t, 1, sends, "Alice's page sent its reveal")
	v, err := tt.View("bob")
	require.NoError(t, err)
	require.Nil(t, v.Trustless.Pending, "her reveal closed Bob's round")
	if v.ToMove == 0 {
		var roll game.Move
		for _, mv := range v.Legal {
			if b, _ := json.Marshal(mv); bytes.Contains(b, []byte(`"roll"`)) {
				roll = mv
			}
		}
		require.NotNil(t, roll, "Bob may roll again")
		a, err := tt.Seats[0].Move("b1", v, roll)
		require.NoError(t, err)
		_, err = tt.Do(a)
		require.NoError(t, err)
		seen, _ := cs.counts()
		require.Eventually(t, func() bool { v, _ := cs.counts(); return v >= seen+3 }, time.Minute, 50*time.Millisecond, "Alice's page reads the table on")
		require.Equal(t, "1", alice.String(`document.body.dataset.revealsSent || ""`), "her page tried no reveal of Bob's second round")
		t.Logf("after the refusal, Bob's second roll's round: no reveal from Alice's page")
	} else {
		alice.WaitFor(`document.getElementById("table").dataset.mine === "1"`, time.Minute)
		alice.Click(`#tg-move-buttons button:nth-child(1)`)
		alice.WaitFor(`document.getElementById("tg-status").textContent.includes("it sends nothing more at this table")`, time.Minute)
		t.Logf("after the refusal, Bob rolled a 1: Alice's page refused her move")
	}
	_, sends = cs.counts()
	require.Equal(t, 1, sends, "after the refused acknowledgement Alice's page sent nothing more")
}

// stopAfterLie is the stop after a lie (docs/play.md, "Markers checked"),
// on a new table of m's browser: the store shows
// Alice Bob's marker of his first roll forged from the start; her page
// names the lie and sends no reveal. The store then shows the round as it
// is, the same round her page reveals on an honest store (the control:
// TestTrustlessAckKeptAndBlamedInChromium's first table, where her page
// sent exactly its reveal); her page reads it at least twice more
// (three of its polls counted in the store after the forging stopped)
// and still sends nothing: no reveal, move or other action reaches the
// store, and the page did not try one (body's data-reveals-sent).
func stopAfterLie(t *testing.T, m *memTable, pub ed25519.PublicKey) {
	t.Helper()
	m3 := &memTable{t: t, ctx: m.ctx, b: m.b}
	fs := &dropReveals{Store: tablestore.NewMemory(registry.Lookup), uid: "alice", forge: true}
	_, alice, _, index := ackRound(t, m3, fs, hex.EncodeToString(pub))
	alice.WaitFor(`document.getElementById("tg-trust-marks").dataset.lie === "1"`, time.Minute)
	require.Contains(t, alice.String(`document.getElementById("tg-trust-marks").textContent`), fmt.Sprintf("seat 0 (bob) revealed round %d", index))
	fs.setForge(false)
	seen, _ := fs.counts()
	require.Eventually(t, func() bool { v, _ := fs.counts(); return v >= seen+3 }, time.Minute, 50*time.Millisecond, "Alice's page reads the table on")
	_, sends := fs.counts()
	require.Zero(t, sends, "after the lie Alice's page sends nothing at this table")
	require.Equal(t, "", alice.String(`document.body.dataset.revealsSent || ""`), "her page tried no reveal")
	require.Equal(t, "1", alice.String(`document.getElementById("tg-trust-marks").dataset.lie`), "the lie stays named")
	alice.CheckConsole(expectedConsole...)
}
