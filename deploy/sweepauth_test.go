package deploy

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"testing"
	"time"

	"google.golang.org/api/option"
)

// googleKeys serves a JWK set as Google's certificate endpoint would:
// the key the test signs with stands in for Google's.
type googleKeys struct{ jwks []byte }

func (g googleKeys) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(g.jwks)), Request: r}, nil
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// jwt signs claims with key under kid (RS256).
func jwt(t *testing.T, key *rsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	h, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": kid, "typ": "JWT"})
	p, _ := json.Marshal(claims)
	unsigned := b64(h) + "." + b64(p)
	sum := sha256.Sum256([]byte(unsigned))
	sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	return unsigned + "." + b64(sig)
}

// TestOIDCSweepAuthorizer: the sweep takes exactly the token Cloud
// Scheduler sends (Google-signed, for the sweep's URL, of the invoker
// service account, verified, unexpired), checked by the real idtoken
// validator against a key set served in place of Google's; every other
// token is refused.
func TestOIDCSweepAuthorizer(t *testing.T) {
	key, err := rsa.GenerateKey(nil, 2048) // Go 1.26: the source is the system's, whatever is passed
	if err != nil {
		t.Fatal(err)
	}
	other, err := rsa.GenerateKey(nil, 2048) // Go 1.26: the source is the system's, whatever is passed
	if err != nil {
		t.Fatal(err)
	}
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]string{"kid": "k1", "kty": "RSA", "alg": "RS256", "use": "sig",
		"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes())}}})
	const aud, inv = "https://europe-west1-demo.cloudfunctions.net/sweep", "scheduler@demo.iam.gserviceaccount.com"
	auth, err := OIDCSweepAuthorizer(context.Background(), aud, inv, option.WithHTTPClient(&http.Client{Transport: googleKeys{jwks}}))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	claims := func(change func(map[string]any)) map[string]any {
		c := map[string]any{"iss": "https://accounts.google.com", "aud": aud, "email": inv, "email_verified": true,
			"sub": "1234567890", "iat": now, "exp": now + 3600}
		if change != nil {
			change(c)
		}
		return c
	}
	for _, tc := range []struct {
		name  string
		auth  string
		allow bool
	}{
		{"the scheduler's token", "Bearer " + jwt(t, key, "k1", claims(nil)), true},
		{"the other issuer spelling", "Bearer " + jwt(t, key, "k1", claims(func(c map[string]any) { c["iss"] = "accounts.google.com" })), true},
		{"no token", "", false},
		{"not a bearer", "Basic " + jwt(t, key, "k1", claims(nil)), false},
		{"garbage", "Bearer not.a.jwt", false},
		{"another audience", "Bearer " + jwt(t, key, "k1", claims(func(c map[string]any) { c["aud"] = "https://elsewhere/sweep" })), false},
		{"another account", "Bearer " + jwt(t, key, "k1", claims(func(c map[string]any) { c["email"] = "someone@example.com" })), false},
		{"an unverified email", "Bearer " + jwt(t, key, "k1", claims(func(c map[string]any) { c["email_verified"] = false })), false},
		{"another issuer", "Bearer " + jwt(t, key, "k1", claims(func(c map[string]any) { c["iss"] = "https://securetoken.google.com/demo" })), false},
		{"expired", "Bearer " + jwt(t, key, "k1", claims(func(c map[string]any) { c["exp"] = now - 10 })), false},
		{"signed by another key", "Bearer " + jwt(t, other, "k1", claims(nil)), false},
		{"an unknown key id", "Bearer " + jwt(t, key, "k9", claims(nil)), false},
	} {
		r, _ := http.NewRequest(http.MethodPost, aud, nil)
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		err := auth.AuthorizeSweep(r)
		if (err == nil) != tc.allow {
			t.Errorf("%s: %v, want allowed %v", tc.name, err, tc.allow)
		}
	}
	if _, err := OIDCSweepAuthorizer(context.Background(), "", inv); err == nil {
		t.Error("an authorizer without an audience")
	}
}

// TestFairDeadline: FAIRBOARD_FAIR_DEADLINE's values.
func TestFairDeadline(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 0, "off": -1, "48h": 48 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := FairDeadline(v); err != nil || got != want {
			t.Errorf("FairDeadline(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"0s", "-1h", "soon"} {
		if _, err := FairDeadline(v); err == nil {
			t.Errorf("FairDeadline(%q) accepted", v)
		}
	}
}
