package rulestest

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/internal/emulator"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true, Rules: "firestore.rules"})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

func TestRules(t *testing.T) {
	w := setup(t)
	db := emu.Client(t)
	before := snapshot(t, db)
	for _, group := range [][]rulesCase{readCases, seatReadCases, writeCases} {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				c := w.resolve(t, tc.call)
				code, body := do(t, c, w.tokens[tc.user])
				switch {
				case tc.allow && code != http.StatusOK:
					t.Fatalf("%s %s as %q: %d %s, want 200", c.method, c.path, tc.user, code, body)
				case !tc.allow && code != http.StatusForbidden:
					t.Fatalf("%s %s as %q: %d %s, want 403 PERMISSION_DENIED", c.method, c.path, tc.user, code, body)
				case !tc.allow && !strings.Contains(string(body), "PERMISSION_DENIED"):
					t.Fatalf("denial body %s lacks PERMISSION_DENIED", body)
				}
			})
		}
	}
	// No denied write changed, created or deleted anything.
	after := snapshot(t, db)
	if len(before) < 20 {
		t.Fatalf("only %d documents seeded", len(before))
	}
	for p, ut := range before {
		if a, ok := after[p]; !ok || !a.Equal(ut) {
			t.Errorf("%s changed or was deleted by a denied write", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created by a denied write", p)
		}
	}
	secretReadsControl(t, w)
}

// The listener's query of the log, by a seated player, returns every log
// document of the game in order (the rules do not hide part of it), in
// both layouts: the per-action documents of g1 and the one-event
// documents of g3.
func TestSeatedListenerReadsWholeLog(t *testing.T) {
	w := setup(t)
	db := emu.Client(t)
	for _, g := range []string{"g1", "g3"} {
		code, body := do(t, call{"POST", "/games/" + g + ":runQuery", logQuery()}, w.tokens["bob"])
		if code != http.StatusOK {
			t.Fatalf("bob's listener query of %s's log: %d %s", g, code, body)
		}
		got := queryNames(t, body)
		refs, err := db.Collection("games/"+g+"/log").OrderBy(firestore.DocumentID, firestore.Asc).Documents(t.Context()).GetAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(refs) || len(got) < 2 {
			t.Fatalf("%s: the query returned %d log documents; the store wrote %d", g, len(got), len(refs))
		}
		for i, r := range refs {
			if !strings.HasSuffix(got[i], "/"+r.Ref.ID) {
				t.Fatalf("%s: log document %d is %s, want %s", g, i, got[i], r.Ref.ID)
			}
		}
	}
}

// A seated player's own-games query, the one the client makes, returns
// exactly the games they sit in.
func TestQueryOwnGames(t *testing.T) {
	w := setup(t)
	for _, tc := range []struct {
		user string
		want []string
	}{{"alice", []string{"g1", "g3", "g4", "t1"}}, {"bob", []string{"g1", "g3", "g4", "t1"}}, {"carol", []string{"g2"}}, {"dave", nil}} {
		user, want := tc.user, tc.want
		code, body := do(t, call{"POST", ":runQuery", query("games", false, "playerUids", user)}, w.tokens[user])
		if code != http.StatusOK {
			t.Fatalf("%s's own-games query: %d %s", user, code, body)
		}
		var got []string
		for _, n := range queryNames(t, body) {
			got = append(got, n[strings.LastIndexByte(n, '/')+1:])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s's games = %v, want %v", user, got, want)
		}
	}
}

// A seated player's read of a reveal marker returns who revealed and what
// they signed, and never the link the staged reveal holds (read with the
// admin client: the positive control that it is stored, and what to look
// for).
func TestMarkerHoldsNoLink(t *testing.T) {
	w := setup(t)
	db := emu.Client(t)
	snap, err := db.Doc(strings.TrimPrefix(w.paths["g4 link"], "/")).Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	action, _ := snap.Data()["action"].(map[string]any)
	link, _ := action["link"].(string)
	if len(link) != 64 {
		t.Fatalf("the staged reveal holds no link: %v", snap.Data())
	}
	code, body := do(t, w.resolve(t, call{"GET", "{g4 mark}", nil}), w.tokens["bob"])
	if code != http.StatusOK || !strings.Contains(string(body), `"signature"`) || !strings.Contains(string(body), "alice") {
		t.Fatalf("bob reads alice's marker: %d %s", code, body)
	}
	if strings.Contains(string(body), link) || strings.Contains(string(body), `"link"`) {
		t.Fatalf("the marker bob reads holds the link %s: %s", link, body)
	}
}

// The allowed reads return the stored data, not an empty shell: g1's
// first log document holds the create's events, g3's is one event.
func TestSeatedReadReturnsDocument(t *testing.T) {
	w := setup(t)
	for _, c := range []struct{ path, want string }{{"{g1 log}", `"events"`}, {"{g3 log}", `"type"`}} {
		cl := w.resolve(t, call{"GET", c.path, nil})
		code, body := do(t, cl, w.tokens["bob"])
		if code != http.StatusOK || !strings.Contains(string(body), c.want) || !strings.Contains(string(body), "GameCreated") {
			t.Fatalf("bob reads %s: %d %s", cl.path, code, body)
		}
	}
}

// A malformed bearer is rejected (the emulator answers 400 "invalid jwt"),
// never treated as a user or as anonymous.
func TestGarbageTokenRejected(t *testing.T) {
	setup(t)
	code, body := do(t, call{"GET", "/games/g1", nil}, "not-a-token")
	if code != http.StatusBadRequest && code != http.StatusUnauthorized && code != http.StatusForbidden {
		t.Fatalf("garbage token read games/g1: %d %s, want a rejection", code, body)
	}
}
