package functions_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/tablestore"
)

// guestVerifier is InsecureDevVerifier whose "guest:<uid>" tokens carry
// the claim of an anonymous Firebase account.
type guestVerifier struct{}

func (guestVerifier) VerifyIDToken(ctx context.Context, tok string) (*callable.Token, error) {
	if uid, ok := strings.CutPrefix(tok, "guest:"); ok {
		return &callable.Token{UID: uid, Claims: map[string]any{"firebase": map[string]any{"sign_in_provider": "anonymous"}}}, nil
	}
	return functions.InsecureDevVerifier{}.VerifyIDToken(ctx, tok)
}

// newNamesServer serves the dungeon and the tables, in memory.
func newNamesServer(t *testing.T) *functest.Client {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, AllowSeeded: true, Logger: quiet})
	api := functions.New(dungeonfn.New(svc), guestVerifier{}, quiet).WithTables(tablestore.NewMemory(registry.Lookup))
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}
}

type nameResult struct {
	Name    string   `json:"name"`
	Chosen  bool     `json:"chosen"`
	Updated []string `json:"updated"`
}

type viewNames struct {
	Names map[string]string `json:"names"`
}

// Every refusal of setName names what is wrong, as INVALID_ARGUMENT
// invalid_name, and changes nothing; accepted names are stored trimmed.
func TestSetNameValidation(t *testing.T) {
	ctx := context.Background()
	c := newNamesServer(t)
	var r nameResult
	require.NoError(t, c.Call(ctx, "setName", "dev:p1", map[string]any{"name": "  Alice  "}, &r))
	require.Equal(t, nameResult{Name: "Alice", Chosen: true}, r)

	cases := []struct{ name, says string }{
		{"", "must not be empty"},
		{"   \u3000 ", "must not be empty"},
		{strings.Repeat("x", 33), "must be at most 32 characters, not 33"},
		{strings.Repeat("é", 33), "must be at most 32 characters, not 33"},
		{"Al\nice", "must not contain control characters (U+000A at character 3)"},
		{"Al\x00ice", "must not contain control characters (U+0000 at character 3)"},
		{"A\u0085l", "must not contain control characters (U+0085 at character 2)"},
		{"abc\u202Egnp.exe", "must not contain invisible or formatting characters (U+202E at character 4)"},
		{"a\u200Bb", "must not contain invisible or formatting characters (U+200B at character 2)"},
		{"a\u2028b", "must not contain invisible or formatting characters (U+2028 at character 2)"},
		{"a\uE000", "must not contain invisible or formatting characters (U+E000 at character 2)"},
		{"a\uFFFF", "must not contain invisible or formatting characters (U+FFFF at character 2)"},
		{"<img src=x onerror=alert(1)>", "must not contain < or > (character 1)"},
		{"a>b", "must not contain < or > (character 2)"},
	}
	for _, tc := range cases {
		err := c.Call(ctx, "setName", "dev:p1", map[string]any{"name": tc.name}, nil)
		require.Error(t, err, "%q", tc.name)
		st, code := status(err)
		require.Equal(t, "INVALID_ARGUMENT", st, "%q", tc.name)
		require.Equal(t, "invalid_name", code, "%q", tc.name)
		require.Contains(t, err.Error(), "data.name "+tc.says, "%q", tc.name)
	}
	// Not UTF-8: the callable layer refuses the body before setName.
	a, err := c.Raw(ctx, "setName", "dev:p1", []byte("{\"data\":{\"name\":\"a\xffb\"}}"))
	require.NoError(t, err)
	require.Equal(t, 400, a.HTTP)
	// Wrong shapes.
	for _, data := range []map[string]any{{"name": 3}, {"name": "x", "extra": 1}, {"Name": "x"}} {
		st, _ := status(c.Call(ctx, "setName", "dev:p1", data, nil))
		require.Equal(t, "INVALID_ARGUMENT", st, "%v", data)
	}
	require.NoError(t, c.Call(ctx, "getName", "dev:p1", map[string]any{}, &r))
	require.Equal(t, nameResult{Name: "Alice", Chosen: true}, r, "the refusals changed nothing")
}

// An account that never chose a name has a default: "Guest XXXX" for an
// anonymous one, "Player XXXX" for another, XXXX the first two bytes of
// SHA-256(uid) (computed outside the code: `echo -n p1 | sha256sum`
// starts f645, g1's 7114).
func TestDefaultNames(t *testing.T) {
	ctx := context.Background()
	c := newNamesServer(t)
	var r nameResult
	require.NoError(t, c.Call(ctx, "getName", "dev:p1", map[string]any{}, &r))
	require.Equal(t, nameResult{Name: "Player F645"}, r)
	require.NoError(t, c.Call(ctx, "getName", "guest:g1", map[string]any{}, &r))
	require.Equal(t, nameResult{Name: "Guest 7114"}, r)
}

// A name is copied into the game at the join (the chosen one, or the
// default), shown by getView to every player, and a rename reaches the
// games its account is seated in that are not over, the dungeon's and a
// table's, and no finished one.
func TestNamesCopiedAtJoinAndRenamed(t *testing.T) {
	ctx := context.Background()
	c := newNamesServer(t)
	require.NoError(t, c.Call(ctx, "setName", "dev:p1", map[string]any{"name": "Alice"}, nil))

	// The dungeon.
	lobby(t, c, "d1") // p1 (named Alice) and p2 (never named) seated
	names := func(g, tok string) map[string]string {
		t.Helper()
		var v viewNames
		require.NoError(t, c.Call(ctx, "getView", tok, map[string]any{"gameId": g}, &v))
		return v.Names
	}
	want := map[string]string{"p1": "Alice", "p2": "Player 3946"}
	require.Equal(t, want, names("d1", "dev:p1"))
	require.Equal(t, want, names("d1", "dev:p2"))

	// A table (Pig): joined through functest.TableLobby, started.
	pigDef, err := registry.Lookup("pig") // the machinery's tests reach games through the registry
	require.NoError(t, err)
	require.NoError(t, functest.TableLobby(ctx, c, pigDef, "t1", "s", []string{"dev:p1", "dev:p2"}))
	require.Equal(t, want, names("t1", "dev:p2"))

	// A dungeon game over: p1 creates it, both join, p1 abandons it.
	must := func(fn, tok string, d map[string]any) {
		t.Helper()
		require.NoError(t, c.Call(ctx, fn, tok, d, nil), fn)
	}
	must("createGame", "dev:p1", map[string]any{"gameId": "d2", "actionId": "c", "mode": "seeded", "seed": "x"})
	must("joinGame", "dev:p1", map[string]any{"gameId": "d2", "actionId": "j1", "seat": 0, "class": "warrior"})
	must("joinGame", "dev:p2", map[string]any{"gameId": "d2", "actionId": "j2", "seat": 1, "class": "monk"})
	must("act", "dev:p1", map[string]any{"gameId": "d2", "actionId": "ab", "kind": "abandon"})

	// p2 renames: d1 and t1 follow, d2 (over) keeps the name it was played under.
	var r nameResult
	require.NoError(t, c.Call(ctx, "setName", "dev:p2", map[string]any{"name": "Bob"}, &r))
	require.Equal(t, "Bob", r.Name)
	require.ElementsMatch(t, []string{"d1", "t1"}, r.Updated)
	want2 := map[string]string{"p1": "Alice", "p2": "Bob"}
	require.Equal(t, want2, names("d1", "dev:p1"))
	require.Equal(t, want2, names("t1", "dev:p1"))
	require.Equal(t, want, names("d2", "dev:p1"))

	// A retried join (same actionId) answers as the first time and copies
	// the current name again.
	must("joinGame", "dev:p2", map[string]any{"gameId": "d1", "actionId": "j2", "seat": 1, "class": "monk"})
	require.Equal(t, want2, names("d1", "dev:p1"))

	// A stranger's refused join copies nothing; the game's names are not
	// shown to a stranger once it has started (NOT_FOUND, as before).
	must("startGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "s"})
	err = c.Call(ctx, "joinGame", "dev:p9", map[string]any{"gameId": "d1", "actionId": "j9", "seat": 2, "class": "scout"}, nil)
	require.Error(t, err)
	require.Equal(t, want2, names("d1", "dev:p1"))
	st, _ := status(c.Call(ctx, "getView", "dev:p9", map[string]any{"gameId": "d1"}, nil))
	require.Equal(t, "NOT_FOUND", st)
}
