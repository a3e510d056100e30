package deploy_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/web/play/pageconfig"
)

// playConfig serves the page's configuration from the deployment's
// environment (allowSeeded exactly where createGame makes seeded games),
// and refuses to serve an incomplete one.
func TestPlayConfig(t *testing.T) {
	get := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		deploy.PlayConfig(w, httptest.NewRequest(http.MethodGet, "/config.json", nil))
		return w
	}
	t.Setenv("GOOGLE_CLOUD_PROJECT", "my-project")
	t.Setenv("GCLOUD_PROJECT", "")
	t.Setenv(deploy.EnvWebAPIKey, "AIzaFakeKey_1")
	t.Setenv(deploy.EnvWebAuthDomain, "my-project.firebaseapp.com")
	t.Setenv(deploy.EnvAllowSeeded, "")
	t.Setenv(deploy.EnvAckKey, "")
	w := get()
	require.Equal(t, http.StatusOK, w.Code)
	require.Equal(t, "no-store", w.Header().Get("Cache-Control"))
	var c pageconfig.Config
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &c))
	require.Equal(t, pageconfig.Config{ProjectID: "my-project", APIKey: "AIzaFakeKey_1", AuthDomain: "my-project.firebaseapp.com",
		Store: pageconfig.StoreFirestore}, c)
	require.Equal(t, pageconfig.CSP(pageconfig.Hosting), pageconfig.CSP(c), "the Hosting policy fits every deployment")
	require.NotContains(t, w.Body.String(), "allowSeeded", "said only where seeded games are allowed")

	t.Setenv(deploy.EnvAllowSeeded, "1")
	w = get()
	require.Equal(t, http.StatusOK, w.Code)
	c = pageconfig.Config{}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &c))
	require.True(t, c.AllowSeeded, "a deployment that allows seeded games says so to its page: %s", w.Body.String())
	t.Setenv(deploy.EnvAllowSeeded, "yes") // only "1" allows them, as createGame reads it
	require.NotContains(t, get().Body.String(), "allowSeeded")

	require.NotContains(t, w.Body.String(), "ackKey", "pinned only where the acknowledgements are signed")

	// The acknowledgement key's public half, pinned by the page: the
	// public key of the seed 00 01 ... 1f is RFC 8032's derivation,
	// computed here by crypto/ed25519 from the seed (not by deploy).
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	t.Setenv(deploy.EnvAckKey, hex.EncodeToString(seed))
	w = get()
	require.Equal(t, http.StatusOK, w.Code)
	c = pageconfig.Config{}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &c))
	require.Equal(t, hex.EncodeToString(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)), c.AckKey)
	require.NotContains(t, w.Body.String(), hex.EncodeToString(seed), "never the seed")
	t.Setenv(deploy.EnvAckKey, "abc") // malformed: the functions refuse to start, the page is not served
	require.Equal(t, http.StatusServiceUnavailable, get().Code)
	t.Setenv(deploy.EnvAckKey, "")

	t.Setenv(deploy.EnvWebAPIKey, "")
	require.Equal(t, http.StatusServiceUnavailable, get().Code)
	t.Setenv(deploy.EnvWebAPIKey, "k; script-src *")
	require.Equal(t, http.StatusServiceUnavailable, get().Code)

	w = httptest.NewRecorder()
	deploy.PlayConfig(w, httptest.NewRequest(http.MethodPost, "/config.json", nil))
	require.Equal(t, http.StatusMethodNotAllowed, w.Code)
}
