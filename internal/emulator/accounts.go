package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// The emulator accepts any API key.
const apiKey = "fake-api-key"

// SignUp creates an email/password account in the emulator and returns its
// uid and a fresh ID token for it (valid for one hour). It fails if the
// email is taken or malformed, or the password is shorter than six
// characters.
func (a *Auth) SignUp(ctx context.Context, email, password string) (uid, idToken string, err error) {
	return a.signIn(ctx, "accounts:signUp", map[string]any{"email": email, "password": password})
}

// SignInAnonymously creates an anonymous account and returns its uid and an
// ID token for it.
func (a *Auth) SignInAnonymously(ctx context.Context) (uid, idToken string, err error) {
	return a.signIn(ctx, "accounts:signUp", map[string]any{})
}

// SignInWithCustomToken exchanges a custom token (e.g. from the Admin SDK's
// CustomToken, which in emulator mode needs no key) for the uid and an ID
// token issued by the emulator. The account is created if it is new.
func (a *Auth) SignInWithCustomToken(ctx context.Context, customToken string) (uid, idToken string, err error) {
	return a.signIn(ctx, "accounts:signInWithCustomToken", map[string]any{"token": customToken})
}

// signIn posts body to the Identity Toolkit method and, from the returned ID
// token, looks the account up to learn its uid.
func (a *Auth) signIn(ctx context.Context, method string, body map[string]any) (string, string, error) {
	body["returnSecureToken"] = true
	var out struct {
		IDToken string `json:"idToken"`
	}
	if err := a.call(ctx, method, body, &out); err != nil {
		return "", "", err
	}
	if out.IDToken == "" {
		return "", "", fmt.Errorf("emulator: %s returned no idToken", method)
	}
	var look struct {
		Users []struct {
			LocalID string `json:"localId"`
		} `json:"users"`
	}
	if err := a.call(ctx, "accounts:lookup", map[string]any{"idToken": out.IDToken}, &look); err != nil {
		return "", "", err
	}
	if len(look.Users) != 1 || look.Users[0].LocalID == "" {
		return "", "", errors.New("emulator: accounts:lookup found no user for the new token")
	}
	return look.Users[0].LocalID, out.IDToken, nil
}

// call posts body as JSON to the emulator's Identity Toolkit v1 method and
// decodes a 200 answer into out.
func (a *Auth) call(ctx context.Context, method string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("emulator: %w", err)
	}
	url := "http://" + a.Host + "/identitytoolkit.googleapis.com/v1/" + method + "?key=" + apiKey
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("emulator: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("emulator: %s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("emulator: %s: %w", method, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("emulator: %s: %s: %s", method, resp.Status, raw)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("emulator: %s: %w", method, err)
	}
	return nil
}
