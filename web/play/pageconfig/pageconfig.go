// Package pageconfig is the play page's configuration (what the page reads
// as config.json) and the Content-Security-Policy built from it: kept apart
// from package play, which embeds the page's files, so that the deployed
// functions can serve the configuration without carrying the page.
package pageconfig

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Store values of [Config.Store].
const (
	// StoreFirestore: games are in Firestore; the page reads them with
	// listeners.
	StoreFirestore = "firestore"
	// StoreMemory: games are in the server's memory (gamectl serve's
	// default); there is nothing to listen to, so the page polls getView.
	StoreMemory = "memory"
)

// Config is what the page needs to reach its backend, served as
// config.json. Every field is checked by [Config.Check]: it goes into a
// response header.
type Config struct {
	// ProjectID is the Firebase project (a demo- project on the
	// emulators): the functions and the page must name the same one.
	ProjectID string `json:"projectId"`
	// APIKey is the web app's API key (any non-empty text on the
	// emulators, which do not check it).
	APIKey string `json:"apiKey"`
	// AuthDomain is the project's auth domain ("" on the emulators).
	AuthDomain string `json:"authDomain,omitempty"`
	// FunctionsURL is the base URL of the functions (http://HOST:PORT, no
	// trailing slash); "" for the page's own origin.
	FunctionsURL string `json:"functionsUrl,omitempty"`
	// AuthEmulator is the Auth emulator's URL (http://HOST:PORT), or "".
	AuthEmulator string `json:"authEmulator,omitempty"`
	// FirestoreEmulator is the Firestore emulator's HOST:PORT, or "".
	FirestoreEmulator string `json:"firestoreEmulator,omitempty"`
	// Store is StoreFirestore or StoreMemory.
	Store string `json:"store"`
	// DevAuth: the server takes "Bearer dev:<uid>" with no proof
	// (gamectl serve --insecure-dev-auth, in-memory store only); the page
	// then signs in by name instead of with Firebase Auth.
	DevAuth bool `json:"devAuth,omitempty"`
	// AllowSeeded: the server creates seeded games (gamectl serve
	// --allow-seeded, a deployment's FAIRBOARD_ALLOW_SEEDED=1), so the
	// lobby offers a table game in seeded mode with its seed. It says
	// what the server allows, never grants it: createGame refuses a
	// seeded game by itself where the server does not allow them
	// (seeded_disabled).
	AllowSeeded bool `json:"allowSeeded,omitempty"`
	// AckKey is the server's published Ed25519 key for acknowledgements
	// (the public half of FAIRBOARD_ACK_KEY), 64 hex digits, or "" where
	// the server signs none. The page pins it: at a trustless table it
	// refuses an acknowledgement of its seat's reveal or deal message
	// that this key does not verify, and never takes a key from a
	// table's answer (docs/play.md, "Acknowledgements kept").
	AckKey string `json:"ackKey,omitempty"`
}

// Hosting is the configuration of a deployment on Firebase Hosting: the
// functions behind the Hosting origin (rewrites), Google's Auth and
// Firestore. Its CSP is the one firebase.json sends (TestFirebaseJSON).
var Hosting = Config{ProjectID: "PROJECT", APIKey: "KEY", Store: StoreFirestore}

// Check reports the first field that is not well-formed, naming it.
func (c *Config) Check() error {
	if c.ProjectID == "" || !token(c.ProjectID) {
		return fmt.Errorf("play: projectId %q: want a project id (letters, digits, -)", c.ProjectID)
	}
	if c.APIKey == "" || !token(c.APIKey) {
		return fmt.Errorf("play: apiKey: want a non-empty key of letters, digits, - and _")
	}
	if c.AuthDomain != "" && !hostOK(c.AuthDomain) {
		return fmt.Errorf("play: authDomain %q: want a host name", c.AuthDomain)
	}
	for _, u := range []struct{ name, v string }{{"functionsUrl", c.FunctionsURL}, {"authEmulator", c.AuthEmulator}} {
		if u.v == "" {
			continue
		}
		if _, err := origin(u.v); err != nil {
			return fmt.Errorf("play: %s %q: %v", u.name, u.v, err)
		}
	}
	if c.FirestoreEmulator != "" {
		if _, err := origin("http://" + c.FirestoreEmulator); err != nil {
			return fmt.Errorf("play: firestoreEmulator %q: want HOST:PORT (%v)", c.FirestoreEmulator, err)
		}
	}
	switch c.Store {
	case StoreFirestore:
		if c.DevAuth {
			return fmt.Errorf("play: devAuth is for the in-memory store only")
		}
	case StoreMemory:
		if c.FirestoreEmulator != "" {
			return fmt.Errorf("play: firestoreEmulator set with the in-memory store")
		}
	default:
		return fmt.Errorf("play: store %q: want %q or %q", c.Store, StoreFirestore, StoreMemory)
	}
	if c.AckKey != "" && !ackKeyOK(c.AckKey) {
		return fmt.Errorf("play: ackKey %.80q: want 64 hex digits (an Ed25519 public key)", c.AckKey)
	}
	if c.DevAuth && c.AuthEmulator != "" {
		return fmt.Errorf("play: devAuth and authEmulator both set")
	}
	return nil
}

// ackKeyOK: 64 lower-case hex digits.
func ackKeyOK(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// token: letters, digits, '-' and '_' only.
func token(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// hostOK: a DNS name or IP, no port.
func hostOK(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// origin returns scheme://host[:port] of an http(s) URL that has no path,
// query or credentials, or an error saying what is wrong.
func origin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("want an http or https URL")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("want scheme://host[:port] only")
	}
	host, port := u.Hostname(), u.Port()
	if !hostOK(host) {
		return "", fmt.Errorf("bad host %q", host)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("bad port %q", port)
		}
		return u.Scheme + "://" + net.JoinHostPort(host, port), nil
	}
	return u.Scheme + "://" + host, nil
}

// Google's endpoints the Firebase JS SDK talks to in a real project: Auth
// (Identity Toolkit, and the token service that refreshes ID tokens) and
// Firestore.
const (
	googleAuth      = "https://identitytoolkit.googleapis.com https://securetoken.googleapis.com"
	googleFirestore = "https://firestore.googleapis.com"
)

// webChannelProbe is the one image the Firestore SDK loads from elsewhere:
// after a network error its WebChannel transport tests the connection by
// loading this 1-pixel image (with a random query), whether the project is
// real or an emulator. An image runs nothing; allowing exactly this path
// keeps the probe from being a policy violation whenever a player's
// connection drops.
const webChannelProbe = "https://www.google.com/images/cleardot.gif"

// CSP returns the Content-Security-Policy of the page for c (which must
// pass Check): its own scripts and WebAssembly ('wasm-unsafe-eval' allows
// compiling WebAssembly and nothing else), its own styles, connections to
// its own origin and to the functions, Auth and Firestore that c names
// (and, with Firestore, the image its transport loads to test a dropped
// connection);
// no inline script, no eval, no frame, no form post, no plugin; Trusted
// Types required with no policy (the page never builds HTML from strings).
func CSP(c Config) string {
	connect := []string{"'self'"}
	add := func(s string) {
		for _, f := range strings.Fields(s) {
			if !contains(connect, f) {
				connect = append(connect, f)
			}
		}
	}
	if c.FunctionsURL != "" {
		o, _ := origin(c.FunctionsURL)
		add(o)
	}
	switch {
	case c.DevAuth:
	case c.AuthEmulator != "":
		o, _ := origin(c.AuthEmulator)
		add(o)
	default:
		add(googleAuth)
	}
	if c.Store == StoreFirestore {
		if c.FirestoreEmulator != "" {
			add("http://" + c.FirestoreEmulator)
		} else {
			add(googleFirestore)
		}
	}
	img := "'self' data:"
	if c.Store == StoreFirestore {
		img += " " + webChannelProbe
	}
	return "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src " + img + "; " +
		"connect-src " + strings.Join(connect, " ") + "; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'; frame-src 'none'; object-src 'none'; " +
		"require-trusted-types-for 'script'; trusted-types 'none'"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Headers are the security headers of every response but the CSP.
var Headers = map[string]string{
	"X-Content-Type-Options":     "nosniff",
	"Referrer-Policy":            "no-referrer",
	"Cross-Origin-Opener-Policy": "same-origin",
	"Cache-Control":              "no-cache",
}
