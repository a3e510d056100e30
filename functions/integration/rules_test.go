package integration

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/fairboard/fairboard/functest"
)

// TestClientDirectAccess: the documents the functions write fit the
// security rules: a seated player can read games/{id} directly (the
// derived playerUids field), but a client's own REST write to it is
// refused, so every change goes through the functions. The positive
// control: the outsider's read and the owner's write, sent to a copy of
// the game under the rules with the game's rule opened to every
// signed-in user, succeed (the rules are what refuse them).
func TestClientDirectAccess(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 2)
	started(t, e, "rules-game", "rules-game", ps, false)
	direct(t, emu.Firestore().DocumentsURL()+"/games/rules-game", ps, http.StatusForbidden)
	if v := view(t, e, "rules-game", ps[0].Token); v.State.Winner != "" {
		t.Errorf("the direct write changed the game: winner %q", v.State.Winner)
	}
	weak := emu.Weakened(t, []string{"/games/{gameId}"}, "games/rules-game")
	direct(t, weak.DocumentsURL()+"/games/rules-game", ps, http.StatusOK)
}

// direct sends a seated player's, an outsider's and the owner's own
// requests to the game document at url: a read, a read, a write. The
// seated player's read must succeed; the others get denied.
func direct(t *testing.T, url string, ps []functest.Player, denied int) {
	t.Helper()
	send := func(method, tok string, body []byte) int {
		t.Helper()
		req, err := http.NewRequestWithContext(context.Background(), method, url, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := send(http.MethodGet, ps[1].Token, nil); code != http.StatusOK {
		t.Errorf("seated player's read of games/{id}: HTTP %d, want 200", code)
	}
	if code := send(http.MethodGet, token(t, "outsider"), nil); code != denied {
		t.Errorf("outsider's read of %s: HTTP %d, want %d", url, code, denied)
	}
	if code := send(http.MethodPatch, ps[0].Token, []byte(`{"fields":{"winner":{"stringValue":"p1"}}}`)); code != denied {
		t.Errorf("owner's direct write to %s: HTTP %d, want %d", url, code, denied)
	}
}
