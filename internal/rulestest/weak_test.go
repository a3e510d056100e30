package rulestest

import (
	"net/http"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"
)

// secretReads are the read cases of TestRules that show a client cannot
// read a staged reveal (with its link), the private state, another
// account's user document or the names of a game it is not in, by user
// and call: each has its positive control in secretReadsControl. (The
// collection-group queries over them have none: the rules deny them by
// having no rule for every collection of that id, and there is no rule
// to weaken; the unauthenticated reads neither: the weakened rule is
// still for signed-in users.)
var secretReads = []string{
	"owner gets her own staged reveal",
	"seated player gets a staged reveal",
	"seated player lists staged reveals",
	"seated player's listener query of the staged reveals",
	"non-seated player's query of the staged reveals",
	"owner gets private state",
	"seated player lists private",
	"other seat gets a seat document",
	"owner without a seat gets a seat document",
	"outsider gets a seat document",
	"seat lists the seat documents",
	"owner gets the table's head",
	"seat gets its own stored result",
	"user gets another's user document",
	"non-seated player gets the game's names",
	"owner gets her game's listing",
	"spectator gets a game's listing",
}

// secretReadsControl, part of TestRules (on its world, w): the reads of
// secretReads, refused by the real rules, are made again, by the same users with the same
// calls, against a copy of the documents under rules whose staged-reveal
// and private-state rules are opened to every signed-in user: each then
// succeeds, and a staged reveal's read holds its link (the positive
// control: the rules are what keep the link and the private state from
// the players). The same copy under the real rules, in a project of its
// own too, refuses each read: the weakening, not the copy, lets it
// through.
func secretReadsControl(t *testing.T, w world) {
	db := emu.Client(t)
	link := storedLink(t, db, w)
	docs := []string{"games/g1", "games/g1/private/state", "games/g4", w.paths["g4 link"], "games/t1", "games/t1/seats/0", "games/t1/seats/1", "games/t1/private/table", "games/t1/private/" + aliceResult, "users/alice", "games/g1/names/all", "lobby/g1"}
	weak := emu.Weakened(t, []string{"/links/{id}", "/private/{doc}", "/seats/{seat}", "/users/{uid}", "/names/{doc}", "/lobby/{gameId}"}, docs...)
	real := emu.Weakened(t, nil, docs...)
	cases := map[string]rulesCase{}
	for _, tc := range append(append([]rulesCase(nil), readCases...), seatReadCases...) {
		cases[tc.name] = tc
	}
	for _, name := range secretReads {
		tc, ok := cases[name]
		if !ok || tc.allow || tc.user == "" {
			t.Fatalf("%q is not a refused read of a signed-in user in readCases", name)
		}
		t.Run(name+" control", func(t *testing.T) {
			c := w.resolve(t, tc.call)
			code, body, err := real.REST(t.Context(), c.method, c.path, w.tokens[tc.user], c.body)
			if err != nil {
				t.Fatal(err)
			}
			if code != http.StatusForbidden {
				t.Fatalf("the copy under the real rules: %s %s as %q: %d %s, want 403", c.method, c.path, tc.user, code, body)
			}
			code, body, err = weak.REST(t.Context(), c.method, c.path, w.tokens[tc.user], c.body)
			if err != nil {
				t.Fatal(err)
			}
			if code != http.StatusOK {
				t.Fatalf("under the weakened rules, %s %s as %q: %d %s, want 200", c.method, c.path, tc.user, code, body)
			}
			switch {
			case strings.Contains(name, "staged") && !strings.Contains(string(body), link):
				t.Fatalf("under the weakened rules, %s as %q does not read the link %s: %s", c.path, tc.user, link, body)
			case strings.Contains(name, "private") && !strings.Contains(string(body), "private/state"):
				t.Fatalf("under the weakened rules, %s as %q does not read the private state: %s", c.path, tc.user, body)
			case strings.Contains(name, "seat document") && !strings.Contains(string(body), `{\"card\":`):
				t.Fatalf("under the weakened rules, %s as %q does not read the seat's card: %s", c.path, tc.user, body)
			case strings.Contains(name, "listing") && !strings.Contains(string(body), `"reserved"`):
				t.Fatalf("under the weakened rules, %s as %q does not read the listing: %s", c.path, tc.user, body)
			case strings.Contains(name, "names") || strings.Contains(name, "user document"):
				if !strings.Contains(string(body), "Alice") {
					t.Fatalf("under the weakened rules, %s as %q does not read alice's name: %s", c.path, tc.user, body)
				}
			}
		})
	}
}

// storedLink is the link g4's staged reveal holds, read with the admin
// client.
func storedLink(t *testing.T, db *firestore.Client, w world) string {
	t.Helper()
	snap, err := db.Doc(strings.TrimPrefix(w.paths["g4 link"], "/")).Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	action, _ := snap.Data()["action"].(map[string]any)
	link, _ := action["link"].(string)
	if len(link) != 64 {
		t.Fatalf("the staged reveal holds no link: %v", snap.Data())
	}
	return link
}
