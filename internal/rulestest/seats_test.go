package rulestest

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// seatReadCases are the reads of a table game's seat documents (t1,
// Kuhn poker: alice seat 0, bob seat 1, dave the owner without a seat):
// each seat's alone, document by document.
var seatReadCases = []rulesCase{
	{"seat gets its own seat document", "alice", call{"GET", "/games/t1/seats/0", nil}, true},
	{"other seat gets its own seat document", "bob", call{"GET", "/games/t1/seats/1", nil}, true},
	{"other seat gets a seat document", "bob", call{"GET", "/games/t1/seats/0", nil}, false},
	{"owner without a seat gets a seat document", "dave", call{"GET", "/games/t1/seats/0", nil}, false},
	{"outsider gets a seat document", "carol", call{"GET", "/games/t1/seats/1", nil}, false},
	{"unauthenticated gets a seat document", "", call{"GET", "/games/t1/seats/0", nil}, false},
	{"seat lists the seat documents", "alice", call{"GET", "/games/t1/seats", nil}, false},
	{"seat's query of its own seat document", "alice", call{"POST", "/games/t1:runQuery", query("seats", false, "", "")}, false},
	{"collection-group query over seat documents", "alice", call{"POST", ":runQuery", query("seats", true, "", "")}, false},
	{"owner gets the table's head", "dave", call{"GET", "/games/t1/private/table", nil}, false},
	{"seat gets its own stored result", "alice", call{"GET", "/games/t1/private/" + aliceResult, nil}, false},
}

// aliceResult is the id of alice's stored result of her join at t1
// (fstables: private/r-{table.ResultID}).
var aliceResult = "r-" + table.ResultID("alice", "j")

// seatTable writes t1 through the table store on Firestore (every
// document the store's own: none made by hand): a seeded Kuhn poker
// table owned by dave, who holds no seat, with alice at seat 0 and bob at
// seat 1, started, so that games/t1/seats/0 and /1 hold their cards.
func seatTable(t *testing.T, db *firestore.Client) {
	t.Helper()
	ctx := context.Background()
	s := fstables.New(db, registry.Lookup)
	if _, err := s.Create(ctx, "t1", "kuhn", table.CreateRequest{Actor: "dave", ActionID: "c", Mode: rng.ModeSeeded, Seed: "t1"}); err != nil {
		t.Fatal(err)
	}
	for i, a := range []table.Action{
		{Actor: "alice", ActionID: "j", Kind: table.KindJoin, Seat: 0},
		{Actor: "bob", ActionID: "j", Kind: table.KindJoin, Seat: 1},
		{Actor: "dave", ActionID: "s", Kind: table.KindStart},
	} {
		a.Version = uint64(i + 1)
		if _, err := s.Do(ctx, "t1", a); err != nil {
			t.Fatalf("t1 %s: %v", a.Kind, err)
		}
	}
	for _, p := range []string{"games/t1/seats/0", "games/t1/seats/1"} {
		if snap, err := db.Doc(p).Get(ctx); err != nil || !snap.Exists() {
			t.Fatalf("the store did not write %s: %v", p, err)
		}
	}
}

// The allowed read of a seat document returns the seat's card and its
// Dealt event, not an empty shell.
func TestSeatReadsItsOwnPart(t *testing.T) {
	w := setup(t)
	for i, u := range []string{"alice", "bob"} {
		code, body := do(t, call{"GET", "/games/t1/seats/" + string(rune('0'+i)), nil}, w.tokens[u])
		if code != http.StatusOK || !strings.Contains(string(body), `{\"card\":`) || !strings.Contains(string(body), "Dealt") {
			t.Fatalf("%s reads her seat document: %d %s", u, code, body)
		}
	}
}
