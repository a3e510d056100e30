package fstables_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/fstables"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// The emulator enforces firestore.rules for the clients' REST reads; the
// store's own client is the admin, as in production.
var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true, Rules: "firestore.rules"})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

// newStore is a store on the package's emulator, emptied first: each test
// (and each run of it under -count) starts from an empty database, so
// that its fixed game ids are free.
func newStore(t *testing.T) *fstables.Store {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	return fstables.New(emu.Client(t), registry.Lookup)
}

func TestFirestorePlaysPigAsMatch(t *testing.T) {
	s := newStore(t)
	storetest.CheckAgainstMatch(t, s, pig.Def, "fs-pig-1", 2)
	storetest.CheckAgainstMatch(t, s, pig.Def, "fs-pig-2", 3)
}

func TestFirestoreRefusals(t *testing.T) {
	storetest.CheckRefusals(t, newStore(t), pig.Def, "fs-refusals")
}

func TestFirestoreCreate(t *testing.T) {
	storetest.CheckCreate(t, newStore(t), pig.Def, "fs-create")
}

// A game id a dungeon game (or anything else) holds is not a table: a
// create there is already_created and writes nothing.
func TestFirestoreCreateOnAnotherGame(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	fc := emu.Client(t)
	_, err := fc.Collection("games").Doc("fs-dungeon").Set(ctx, map[string]any{"ownerUid": "x", "version": 3})
	require.NoError(t, err)
	_, err = s.Create(ctx, "fs-dungeon", "pig", table.CreateRequest{Actor: "x", ActionID: "c", Mode: rng.ModeCrypto})
	require.ErrorIs(t, err, table.CodeAlreadyCreated)
	_, err = s.Game(ctx, "fs-dungeon")
	require.ErrorIs(t, err, table.CodeNotCreated)
	snap, err := fc.Collection("games").Doc("fs-dungeon").Get(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"ownerUid": "x", "version": int64(3)}, snap.Data())
}

// The documents: the public one and one log document per action, its id
// the last public event's seq, the public events in order with no gap
// but the addressed ones (Pig has none); the private one holds the saved
// table, which restores to the table the store shows.
func TestFirestoreLayout(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	fc := emu.Client(t)
	storetest.CheckAgainstMatch(t, s, pig.Def, "fs-layout", 2)
	pub, _, err := s.View(ctx, "fs-layout", "")
	require.NoError(t, err)

	snap, err := fc.Collection("games").Doc("fs-layout").Get(ctx)
	require.NoError(t, err)
	d := snap.Data()
	require.Equal(t, "pig", d["game"])
	require.Equal(t, "finished", d["phase"])
	require.Equal(t, int64(pub.Version), d["version"])
	require.Equal(t, []any{storetest.UID(0), storetest.UID(1)}, d["playerUids"])
	require.Equal(t, string(pub.State), d["state"])
	require.NotNil(t, d["outcome"])

	docs, err := fc.Collection("games").Doc("fs-layout").Collection("log").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Len(t, docs, int(pub.Version)) // create, 2 joins, start, the moves: one document each
	seq := int64(0)
	for _, doc := range docs {
		evs := doc.Data()["events"].([]any)
		for _, e := range evs {
			seq++
			require.Equal(t, seq, e.(map[string]any)["seq"])
		}
		require.Equal(t, fmt.Sprintf("%020d", seq), doc.Ref.ID)
	}
	require.Equal(t, int64(len(pub.Log)), seq)

	saved, err := s.Saved(ctx, "fs-layout")
	require.NoError(t, err)
	tb, err := table.Restore(pig.Def, saved)
	require.NoError(t, err)
	require.Equal(t, pub, tb.Public())
}

// The security rules: a seated player's client reads games/{id} and its
// log; another signed-in user reads neither; nobody reads the private
// table, a seated player included. Positive control: the same reads of
// the private table under rules opened to every signed-in user succeed
// (it is the rules that refuse them).
func TestFirestoreRulesTableDocuments(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	seated, seatedTok, err := emu.Auth().SignInAnonymously(ctx)
	require.NoError(t, err)
	other, otherTok, err := emu.Auth().SignInAnonymously(ctx)
	require.NoError(t, err)
	g := "fs-rules"
	_, err = s.Create(ctx, g, "pig", table.CreateRequest{Actor: seated, ActionID: "c", Mode: rng.ModeCrypto})
	require.NoError(t, err)
	_, err = s.Do(ctx, g, table.Action{Actor: seated, ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0})
	require.NoError(t, err)

	read := func(f *emulator.Firestore, path, tok string) int {
		t.Helper()
		code, body, err := f.REST(ctx, http.MethodGet, path, tok, nil)
		require.NoError(t, err)
		if code == http.StatusOK && path == "/games/"+g {
			var doc struct{ Fields map[string]any }
			require.NoError(t, json.Unmarshal(body, &doc))
			require.Contains(t, doc.Fields, "game")
			require.NotContains(t, doc.Fields, "saved")
		}
		return code
	}
	fs := emu.Firestore()
	require.Equal(t, http.StatusOK, read(fs, "/games/"+g, seatedTok))
	require.Equal(t, http.StatusOK, read(fs, fmt.Sprintf("/games/%s/log/%020d", g, 2), seatedTok))
	require.Equal(t, http.StatusForbidden, read(fs, "/games/"+g, otherTok))
	require.Equal(t, http.StatusForbidden, read(fs, fmt.Sprintf("/games/%s/log/%020d", g, 2), otherTok))
	require.Equal(t, http.StatusForbidden, read(fs, "/games/"+g+"/private/table", seatedTok))
	require.Equal(t, http.StatusForbidden, read(fs, "/games/"+g+"/private/table", otherTok))
	_ = other

	weak := emu.Weakened(t, []string{"/private/{doc}"}, "games/"+g, "games/"+g+"/private/table")
	require.Equal(t, http.StatusOK, read(weak, "/games/"+g+"/private/table", seatedTok))
}

// Four joins sent at once at one version: Firestore's transactions
// serialise them, exactly one applies, the others are refused
// (stale_version once they run on the winner's table, or contention if
// they kept losing) and write nothing.
func TestFirestoreConcurrentJoins(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	g := "fs-race"
	_, err := s.Create(ctx, g, "pig", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seats: 4})
	require.NoError(t, err)
	errs := make(chan error, 4)
	for i := range 4 {
		go func() {
			_, err := s.Do(ctx, g, table.Action{Actor: storetest.UID(i), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: i})
			errs <- err
		}()
	}
	applied := 0
	for range 4 {
		err := <-errs
		if err == nil {
			applied++
			continue
		}
		require.True(t, errors.Is(err, table.CodeStaleVersion) || errors.Is(err, tablestore.ErrContention), "%v", err)
	}
	require.Equal(t, 1, applied)
	pub, _, err := s.View(ctx, g, "")
	require.NoError(t, err)
	require.Equal(t, uint64(2), pub.Version)
	taken := 0
	for _, st := range pub.Seats {
		if st.UID != "" {
			taken++
		}
	}
	require.Equal(t, 1, taken)
	docs, err := emu.Client(t).Collection("games").Doc(g).Collection("log").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Len(t, docs, 2)
}

// A fair table's public document carries what getView shows of its
// fairness, for a page that follows it by listeners: the commitment from
// the create on (fair.Commitment of the server seed, from rng/fair's
// Node vectors), nothing more in play, and at the end the server seed,
// the contributions in seat order and the game seed, as the table's view.
func TestFirestoreFairnessInPublicDocument(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	fc := emu.Client(t)
	const seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	const commitment = "f0801414b8cc0d61808ff1e53fb4c28927019c291603fc3ce7012e67e01b8f82" // rng/fair/testdata/vectors.json, "counting"
	res, err := s.Create(ctx, "fs-fair", "pig", table.CreateRequest{Actor: storetest.UID(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: seed, Seats: 2})
	require.NoError(t, err)
	fairness := func() map[string]any {
		snap, err := fc.Collection("games").Doc("fs-fair").Get(ctx)
		require.NoError(t, err)
		f, _ := snap.Data()["fairness"].(map[string]any)
		return f
	}
	require.Equal(t, map[string]any{"commitmentHex": commitment}, fairness())
	v := res.Version
	for i, e := range []string{"c0ffee", ""} {
		r, err := s.Do(ctx, "fs-fair", table.Action{Actor: storetest.UID(i), ActionID: "j", Version: v, Kind: table.KindJoin, Seat: i, Entropy: e})
		require.NoError(t, err)
		v = r.Version
	}
	r, err := s.Do(ctx, "fs-fair", table.Action{Actor: storetest.UID(0), ActionID: "s", Version: v, Kind: table.KindStart})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"commitmentHex": commitment}, fairness(), "nothing revealed in play")
	_, err = s.Do(ctx, "fs-fair", table.Action{Actor: storetest.UID(0), ActionID: "a", Version: r.Version, Kind: table.KindAbandon})
	require.NoError(t, err)
	pub, _, err := s.View(ctx, "fs-fair", "")
	require.NoError(t, err)
	require.Equal(t, map[string]any{"commitmentHex": commitment, "serverSeedHex": seed, "contributionsHex": []any{"c0ffee", ""},
		"gameSeedHex": pub.Fairness.GameSeedHex}, fairness())
	require.Len(t, pub.Fairness.GameSeedHex, 64)

	// A table of another mode has none.
	storetest.CheckAgainstMatch(t, s, pig.Def, "fs-crypto", 2)
	snap, err := fc.Collection("games").Doc("fs-crypto").Get(ctx)
	require.NoError(t, err)
	require.NotContains(t, snap.Data(), "fairness")
}

// A fair table with openings: its public document carries each seat's
// commitment, whether it opened and the deadline (table.Openings), for a
// page that opens its seat's contribution by listeners; ended at the
// deadline, its outcome names the seats that did not open. Seat 0's
// commitment is rng/trustless/testdata/vectors.json's ("g1", seat 0, 32
// zero bytes: Node's SHA-256), which the table checks the opening against.
func TestFirestoreOpeningsInPublicDocument(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	fc := emu.Client(t)
	const seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	const commit0 = "8346373fe8022682f7d170cf71ae2e8bd49c0ff1ddc22f1d37e22c82499394b3"
	commit1 := strings.Repeat("ab", 32)
	res, err := s.Create(ctx, "g1", "pig", table.CreateRequest{Actor: storetest.UID(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: seed, Seats: 2, GameID: "g1", Openings: true, DeadlineMs: 1000})
	require.NoError(t, err)
	doc := func() map[string]any {
		snap, err := fc.Collection("games").Doc("g1").Get(ctx)
		require.NoError(t, err)
		return snap.Data()
	}
	openings := func() any { return doc()["fairness"].(map[string]any)["openings"] }
	require.Equal(t, map[string]any{"deadlineMs": int64(1000), "deadline": int64(0), "commitmentsHex": []any{"", ""}, "opened": []any{false, false}}, openings())
	v := res.Version
	for i, c := range []string{commit0, commit1} {
		r, err := s.Do(ctx, "g1", table.Action{Actor: storetest.UID(i), ActionID: "j", Version: v, Kind: table.KindJoin, Seat: i, EntropyCommitment: c})
		require.NoError(t, err)
		v = r.Version
	}
	const at = 1_760_000_000_000
	r, err := s.Do(ctx, "g1", table.Action{Actor: storetest.UID(0), ActionID: "o", Version: v, Kind: table.KindOpen, Entropy: strings.Repeat("00", 32), At: at})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"deadlineMs": int64(1000), "deadline": int64(at + 1000), "commitmentsHex": []any{commit0, commit1}, "opened": []any{true, false}}, openings())
	_, err = s.Do(ctx, "g1", table.Action{Actor: table.ServerActor, ActionID: "abort", Version: r.Version, Kind: table.KindAbort, At: at + 1001})
	require.NoError(t, err)
	out := doc()["outcome"].(map[string]any)
	require.Equal(t, "unopened", out["reason"])
	require.Equal(t, []any{int64(1)}, out["missing"])
}
