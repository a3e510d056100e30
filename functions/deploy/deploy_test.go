package deploy_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/functions/deploy"
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
