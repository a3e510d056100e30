package deploy

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"os"

	"github.com/fairboard/fairboard/web/play/pageconfig"
)

// The play page's settings in a deployment (playConfig).
const (
	// EnvWebAPIKey is the Firebase web app's API key (Firebase console,
	// project settings): the page's Auth client needs it.
	EnvWebAPIKey = "FAIRBOARD_WEB_API_KEY"
	// EnvWebAuthDomain is the project's auth domain (PROJECT.firebaseapp.com).
	EnvWebAuthDomain = "FAIRBOARD_WEB_AUTH_DOMAIN"
)

// PlayConfigName is the function that serves the play page's
// configuration; firebase.json rewrites the page's config.json to it.
const PlayConfigName = "playConfig"

// PlayConfig answers GET with the play page's configuration for the
// deployment's project (GOOGLE_CLOUD_PROJECT, EnvWebAPIKey,
// EnvWebAuthDomain): the page and the functions then always name the same
// project, and the page offers seeded tables exactly where createGame
// makes them (EnvAllowSeeded), and pins the public half of the key that
// signs the acknowledgements (EnvAckKey: the page checks each one of its
// trustless seats' under it). The functions sit behind the Hosting origin (firebase.json's
// rewrites), so the page calls them on its own origin. It answers 503,
// logging why, while the environment is incomplete or malformed.
func PlayConfig(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	project := os.Getenv("GOOGLE_CLOUD_PROJECT")
	if project == "" {
		project = os.Getenv("GCLOUD_PROJECT")
	}
	c := pageconfig.Config{ProjectID: project, APIKey: os.Getenv(EnvWebAPIKey), AuthDomain: os.Getenv(EnvWebAuthDomain),
		Store: pageconfig.StoreFirestore, AllowSeeded: os.Getenv(EnvAllowSeeded) == "1"}
	ackKey, err := AckKey(os.Getenv(EnvAckKey))
	if err != nil {
		slog.Error("deploy: playConfig not configured", "err", err)
		http.Error(w, "the play page is not configured", http.StatusServiceUnavailable)
		return
	}
	if ackKey != nil {
		c.AckKey = AckPublicKey(ackKey)
	}
	if err := c.Check(); err != nil {
		slog.Error("deploy: playConfig not configured", "err", err)
		http.Error(w, "the play page is not configured", http.StatusServiceUnavailable)
		return
	}
	b, _ := json.Marshal(c)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(b)
}
