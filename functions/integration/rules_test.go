package integration

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
)

// TestClientDirectAccess: the documents the functions write fit the
// security rules: a seated player can read games/{id} directly (the
// derived playerUids field), but a client's own REST write to it is
// refused, so every change goes through the functions.
func TestClientDirectAccess(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 2)
	started(t, e, "rules-game", "rules-game", ps, false)
	url := emu.Firestore().DocumentsURL() + "/games/rules-game"
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
	if code := send(http.MethodGet, token(t, "outsider"), nil); code != http.StatusForbidden {
		t.Errorf("outsider's read of games/{id}: HTTP %d, want 403", code)
	}
	if code := send(http.MethodPatch, ps[0].Token, []byte(`{"fields":{"winner":{"stringValue":"p1"}}}`)); code != http.StatusForbidden {
		t.Errorf("owner's direct write to games/{id}: HTTP %d, want 403", code)
	}
	if v := view(t, e, "rules-game", ps[0].Token); v.State.Winner != "" {
		t.Errorf("the direct write changed the game: winner %q", v.State.Winner)
	}
}
