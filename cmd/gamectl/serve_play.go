package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/fairboard/fairboard/web/play"
)

// pageConfig is the play page's configuration for serve's store and
// tokens: the functions at the page's own origin; the emulators' hosts when
// serve uses them; the development sign-in with --insecure-dev-auth. On a
// real project the web app's API key comes from FAIRBOARD_WEB_API_KEY (and
// its auth domain from FAIRBOARD_WEB_AUTH_DOMAIN); without it there is no
// page to serve (nil). The page offers seeded tables where serve allows
// them (--allow-seeded), and pins the public half of the key that signs
// the acknowledgements where serve signs them (FAIRBOARD_ACK_KEY).
func pageConfig(c *serveConfig) *play.Config {
	pc := play.Config{ProjectID: c.project, APIKey: os.Getenv("FAIRBOARD_WEB_API_KEY"),
		AuthDomain: os.Getenv("FAIRBOARD_WEB_AUTH_DOMAIN"), Store: play.StoreMemory, AllowSeeded: c.allowSeeded}
	if c.ackKey != nil {
		pc.AckKey = hex.EncodeToString(c.ackKey.Public().(ed25519.PublicKey))
	}
	if c.firestore {
		pc.Store = play.StoreFirestore
		pc.FirestoreEmulator = c.firestoreHost
	}
	if c.authEmu {
		pc.AuthEmulator = "http://" + c.authH
	}
	if c.insecureDevAuth {
		pc.DevAuth = true
		pc.ProjectID = emulatorProject
	}
	if pc.APIKey == "" && (c.insecureDevAuth || (c.authEmu && (!c.firestore || c.firestoreHost != ""))) {
		pc.APIKey = "emulator-api-key" // the emulators and dev tokens check no key
	}
	if pc.APIKey == "" {
		return nil
	}
	return &pc
}

// mountPlayPage adds the play page (web/play) at /play/ to serve's mux, or
// a page saying what it lacks when pc is nil.
func mountPlayPage(m *http.ServeMux, pc *play.Config) error {
	if pc == nil {
		m.HandleFunc("/play/", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "the play page needs the web app's API key on a real project: set FAIRBOARD_WEB_API_KEY (and FAIRBOARD_WEB_AUTH_DOMAIN)", http.StatusNotFound)
		})
		return nil
	}
	h, err := play.Handler(*pc)
	if err != nil {
		return usagef("%v", err)
	}
	m.Handle("/play/", http.StripPrefix("/play", h))
	m.Handle("/{$}", http.RedirectHandler("/play/", http.StatusFound))
	return nil
}

// checkEmulatorFlags refuses what --emulators cannot be combined with.
func (c *serveConfig) checkEmulatorFlags() error {
	switch {
	case !cloudBuilt:
		return usagef("--emulators: %s", errNoCloud)
	case c.insecureDevAuth:
		return usagef("--emulators and --insecure-dev-auth: the emulators verify real tokens; leave out --insecure-dev-auth")
	case os.Getenv("FIRESTORE_EMULATOR_HOST") != "" || os.Getenv("FIREBASE_AUTH_EMULATOR_HOST") != "":
		return usagef("--emulators starts its own emulators: unset FIRESTORE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST, or leave out --emulators")
	case c.project != "" && !strings.HasPrefix(c.project, "demo-"):
		return usagef("--emulators with project %q: the emulators run a demo- project (leave out --project)", c.project)
	}
	return nil
}

// emulatorsReady says where the emulators run.
func emulatorsReady(fsHost, authHost string) string {
	return fmt.Sprintf("gamectl serve: the Firestore emulator at %s (rules: firestore.rules) and the Auth emulator at %s are ready", fsHost, authHost)
}
