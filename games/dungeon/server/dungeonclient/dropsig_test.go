package dungeonclient_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
)

// signer is the double behind a front that signs, with key, every answer
// of success to p2's reveals (the reveal function's, act's with its
// reveal) as a server with an acknowledgement key does; and that answers
// p2's first reveal of an index from 2 on with a signed success without
// passing it on (it drops it), that index being *target.
type signer struct {
	d      *double
	key    ed25519.PrivateKey
	target *atomic.Uint32
}

type revealData struct {
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

func (f signer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	var q struct {
		Data struct {
			revealData
			Reveal *revealData `json:"reveal"`
		} `json:"data"`
	}
	rv := (*revealData)(nil)
	if r.Header.Get("Authorization") == "Bearer dev:p2" && json.Unmarshal(b, &q) == nil {
		switch r.URL.Path {
		case "/reveal":
			rv = &q.Data.revealData
		case "/act":
			rv = q.Data.Reveal
		}
	}
	if rv == nil {
		f.d.ServeHTTP(w, r)
		return
	}
	var res map[string]any
	if r.URL.Path == "/reveal" && rv.Index >= 2 && f.target.CompareAndSwap(0, rv.Index) {
		f.d.mu.Lock()
		res = map[string]any{"version": f.d.g.Public.Version, "events": []any{}, "staged": true}
		f.d.mu.Unlock()
	} else {
		rec := httptest.NewRecorder()
		f.d.ServeHTTP(rec, r)
		var out struct {
			Result map[string]any `json:"result"`
		}
		if json.Unmarshal(rec.Body.Bytes(), &out) != nil || out.Result == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		res = out.Result
	}
	d, derr := engine.ParseHash32(rv.Digest, "digest")
	tr, terr := engine.ParseHash32(rv.Transcript, "transcript")
	rs, serr := hex.DecodeString(rv.Signature)
	if derr == nil && terr == nil && serr == nil {
		at := int64(1_760_000_000_000) + int64(rv.Index)
		msg := trustless.AckMessage("tl-double", "p2", uint32(rv.Seat), rv.Index, (*[32]byte)(&d), (*[32]byte)(&tr), rs, at)
		res["ack"] = map[string]any{"at": at, "signature": hex.EncodeToString(ed25519.Sign(f.key, msg))}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"result": res})
}

// TestDroppedThenBlamedSigned: TestDroppedThenBlamed where the server
// signs its acknowledgements and p2's client pins its key: p2's client
// stops with a *dungeonclient.Dropped whose acknowledgement carries the
// server's signature, which a third party who knows the published key
// checks (dungeonclient.VerifyAck) and which fails under another key, for
// another player, or with the index changed (the controls). Its positive
// control: with the client's comparison of the abort with the
// acknowledgement it holds switched off (checks.AckHeld), p2's client
// takes the abort, though it holds the signed acknowledgement of the
// index it is blamed for.
func TestDroppedThenBlamedSigned(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	other, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	t.Run("signed", func(t *testing.T) {
		cs, errs, target := playSigned(t, key, pub)
		require.NoError(t, errs[0])
		require.NoError(t, errs[2])
		var dropped *dungeonclient.Dropped
		require.ErrorAs(t, errs[1], &dropped, "p2's client")
		require.Equal(t, target, dropped.Ack.Index)
		require.NotNil(t, dropped.Ack.Server, "the acknowledgement is signed")
		require.Contains(t, dropped.Error(), dropped.Ack.Server.Signature, "and the error cites the signature")
		t.Log(dropped.Error())
		require.True(t, dungeonclient.VerifyAck(pub, "tl-double", "p2", &dropped.Ack), "a third party checks it with the published key")
		require.False(t, dungeonclient.VerifyAck(other, "tl-double", "p2", &dropped.Ack), "not under another key")
		require.False(t, dungeonclient.VerifyAck(pub, "tl-double", "p1", &dropped.Ack), "not for another player")
		moved := dropped.Ack
		moved.Index++
		require.False(t, dungeonclient.VerifyAck(pub, "tl-double", "p2", &moved), "not for another index")
		require.Equal(t, dropped.Ack, *cs[1].LastAck())
	})
	t.Run("signed without AckHeld", func(t *testing.T) {
		checks.Off(t, checks.AckHeld)
		cs, errs, target := playSigned(t, key, pub)
		require.NoError(t, errs[0])
		require.NoError(t, errs[2])
		var dropped *dungeonclient.Dropped
		require.False(t, errors.As(errs[1], &dropped), "with AckHeld off, p2's client names no drop: %v", errs[1])
		require.NoError(t, errs[1], "with AckHeld off, p2's client takes the abort")
		held := cs[1].LastAck()
		require.NotNil(t, held)
		require.Equal(t, target, held.Index, "though it holds the acknowledgement of the index it is blamed for")
		require.True(t, dungeonclient.VerifyAck(pub, "tl-double", "p2", held), "signed by the server's key")
	})
}

// playSigned plays TestDroppedThenBlamedSigned's game: three clients on
// the double behind signer (which signs with key, and drops p2's reveal
// of the index it returns), p2's client pinning pub. It returns the
// clients and their errors once every one has stopped.
func playSigned(t *testing.T, key ed25519.PrivateKey, pub ed25519.PublicKey) ([]*dungeonclient.Client, []error, uint32) {
	t.Helper()
	d, _ := newDouble(t)
	var target atomic.Uint32
	abortOnceOthersRevealed(d, &target)
	srv := httptest.NewServer(signer{d: d, key: key, target: &target})
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	require.NoError(t, devFunctions(srv.URL, "p1").Call(ctx, "createGame", map[string]any{"gameId": "tl-double", "mode": "trustless"}, nil))
	ss, dir := seats(3), t.TempDir()
	cs := make([]*dungeonclient.Client, 3)
	for i := range 3 {
		uid := policy.UID(i)
		cfg := dungeonclient.Config{Functions: devFunctions(srv.URL, uid), UID: uid, GameID: "tl-double",
			SecretsFile: filepath.Join(dir, uid+".json"), Retry: 10 * time.Millisecond, PollEvery: 5 * time.Millisecond}
		if uid == "p2" {
			cfg.ServerKey = pub
		}
		c, err := dungeonclient.Join(ctx, cfg, i, ss[i].Class, false)
		require.NoError(t, err)
		cs[i] = c
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, c := range cs {
		wg.Go(func() {
			errs[i] = c.Play(ctx, ss[i].Policy, func(p *engine.Public) bool { return len(p.Players) == 3 })
		})
	}
	wg.Wait()
	require.NotZero(t, target.Load(), "p2 revealed an index from 2 on")
	return cs, errs, target.Load()
}
