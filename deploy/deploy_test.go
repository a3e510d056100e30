package deploy_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/deploy"
)

// TestDeployedWithoutProject: a deployment missing GOOGLE_CLOUD_PROJECT
// answers UNAVAILABLE "service not configured" in the callable shape.
func TestDeployedWithoutProject(t *testing.T) {
	t.Setenv("GOOGLE_CLOUD_PROJECT", "")
	t.Setenv("GCLOUD_PROJECT", "")
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/act", strings.NewReader(`{"data":{}}`))
	r.Header.Set("Content-Type", "application/json")
	deploy.Act(w, r)
	var body struct {
		Error struct{ Status, Message string }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusServiceUnavailable || body.Error.Status != "UNAVAILABLE" {
		t.Errorf("HTTP %d %+v; want 503 UNAVAILABLE", w.Code, body.Error)
	}
}

// TestStoreLayout: FAIRBOARD_STORE_LAYOUT takes "", "current" and
// "previous"; anything else is refused, naming the variable and the
// values it takes, and FromEnv fails with it before it dials anything.
func TestStoreLayout(t *testing.T) {
	for layout, want := range map[string]bool{"": false, "current": false, "previous": true} {
		previous, err := deploy.StoreLayout(layout)
		if err != nil || previous != want {
			t.Errorf("StoreLayout(%q) = %v, %v; want %v", layout, previous, err, want)
		}
	}
	for _, bad := range []string{"prev", "Previous", "1"} {
		_, err := deploy.StoreLayout(bad)
		if err == nil || !strings.Contains(err.Error(), deploy.EnvStoreLayout) || !strings.Contains(err.Error(), `"previous"`) {
			t.Errorf("StoreLayout(%q) = %v; want an error naming %s and its values", bad, err, deploy.EnvStoreLayout)
		}
	}
	t.Setenv("GOOGLE_CLOUD_PROJECT", "demo-layout")
	t.Setenv(deploy.EnvStoreLayout, "prev")
	if _, err := deploy.FromEnv(t.Context()); err == nil || !strings.Contains(err.Error(), deploy.EnvStoreLayout) {
		t.Errorf("FromEnv with %s=prev = %v; want its refusal", deploy.EnvStoreLayout, err)
	}
}
