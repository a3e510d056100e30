package callable

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fakeVerifier accepts "tok-<uid>" for any uid and rejects anything else.
type fakeVerifier struct{}

func (fakeVerifier) VerifyIDToken(_ context.Context, tok string) (*Token, error) {
	uid, ok := strings.CutPrefix(tok, "tok-")
	if !ok || uid == "" {
		return nil, errors.New("fake: token signature invalid")
	}
	return &Token{UID: uid, Claims: map[string]any{}}, nil
}

// echo answers the caller's uid and data.
func echo(_ context.Context, req Request) (any, error) {
	return map[string]any{"uid": req.UID, "data": req.Data}, nil
}

// answer is a decoded response.
type answer struct {
	code   int
	header http.Header
	raw    string
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Status  Status          `json:"status"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
}

// send runs one request through h; headers are "Name: value" strings.
func send(t *testing.T, h http.Handler, method, body string, headers ...string) answer {
	t.Helper()
	req := httptest.NewRequest(method, "/fn", strings.NewReader(body))
	for _, hv := range headers {
		k, v, _ := strings.Cut(hv, ": ")
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	a := answer{code: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatalf("answer %q is not JSON: %v", a.raw, err)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("Content-Type = %q", ct)
		}
	}
	return a
}

const (
	ctJSON = "Content-Type: application/json"
	bearer = "Authorization: Bearer tok-alice"
)

func TestMalformedRequests(t *testing.T) {
	h := Handler(fakeVerifier{}, echo)
	cases := []struct {
		name, method, body string
		headers            []string
		wantMsg            string
	}{
		{"GET", "GET", `{"data":1}`, []string{ctJSON, bearer}, "POST"},
		{"PUT", "PUT", `{"data":1}`, []string{ctJSON, bearer}, "POST"},
		{"DELETE", "DELETE", "", []string{bearer}, "POST"},
		{"no content type", "POST", `{"data":1}`, []string{bearer}, "Content-Type"},
		{"text/plain", "POST", `{"data":1}`, []string{"Content-Type: text/plain", bearer}, "Content-Type"},
		{"form", "POST", `data=1`, []string{"Content-Type: application/x-www-form-urlencoded", bearer}, "Content-Type"},
		{"latin-1 charset", "POST", `{"data":1}`, []string{"Content-Type: application/json; charset=latin1", bearer}, "Content-Type"},
		{"extra parameter", "POST", `{"data":1}`, []string{"Content-Type: application/json; foo=bar", bearer}, "Content-Type"},
		{"broken media type", "POST", `{"data":1}`, []string{"Content-Type: application/json;;", bearer}, "Content-Type"},
		{"empty body", "POST", ``, []string{ctJSON, bearer}, "JSON object"},
		{"not JSON", "POST", `hello`, []string{ctJSON, bearer}, "JSON object"},
		{"array", "POST", `[{"data":1}]`, []string{ctJSON, bearer}, "JSON object"},
		{"string", "POST", `"data"`, []string{ctJSON, bearer}, "JSON object"},
		{"null", "POST", `null`, []string{ctJSON, bearer}, "JSON object"},
		{"missing data", "POST", `{}`, []string{ctJSON, bearer}, `no "data"`},
		{"extra field", "POST", `{"data":1,"context":{}}`, []string{ctJSON, bearer}, `unexpected field "context"`},
		{"only other field", "POST", `{"Data":1}`, []string{ctJSON, bearer}, `unexpected field "Data"`},
		{"data twice", "POST", `{"data":1,"data":2}`, []string{ctJSON, bearer}, "twice"},
		{"duplicate key inside data", "POST", `{"data":{"a":[{"b":1,"b":2}]}}`, []string{ctJSON, bearer}, `key "b" twice`},
		{"truncated", "POST", `{"data":{"a":1}`, []string{ctJSON, bearer}, "not valid JSON"},
		{"bad value", "POST", `{"data":tru}`, []string{ctJSON, bearer}, "not valid JSON"},
		{"trailing garbage", "POST", `{"data":1} x`, []string{ctJSON, bearer}, "after the JSON object"},
		{"two objects", "POST", `{"data":1}{"data":2}`, []string{ctJSON, bearer}, "after the JSON object"},
		{"invalid UTF-8", "POST", "{\"data\":\"\xff\"}", []string{ctJSON, bearer}, "UTF-8"},
		{"too large", "POST", `{"data":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, []string{ctJSON, bearer}, "larger than"},
		// The request's shape is checked before its token, as Firebase does.
		{"malformed and unauthenticated", "POST", `{}`, []string{ctJSON}, `no "data"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := send(t, h, tc.method, tc.body, tc.headers...)
			if a.code != http.StatusBadRequest || a.Error == nil || a.Error.Status != StatusInvalidArgument {
				t.Fatalf("got %d %s, want 400 INVALID_ARGUMENT", a.code, a.raw)
			}
			if !strings.Contains(a.Error.Message, tc.wantMsg) {
				t.Errorf("message %q lacks %q", a.Error.Message, tc.wantMsg)
			}
			if a.Result != nil {
				t.Errorf("error answer also has a result: %s", a.raw)
			}
		})
	}
}

func TestWellFormedRequests(t *testing.T) {
	h := Handler(fakeVerifier{}, echo)
	cases := []struct {
		name, body, ct, wantData string
	}{
		{"object", `{"data":{"gameId":"g1","seat":2}}`, ctJSON, `{"gameId":"g1","seat":2}`},
		{"charset utf-8", `{"data":[1,2]}`, "Content-Type: application/json; charset=UTF-8", `[1,2]`},
		{"null data", `{"data":null}`, ctJSON, `null`},
		{"scalar data", ` { "data" : "x" } `, ctJSON, `"x"`},
		{"same key in two objects", `{"data":[{"a":1},{"a":2}]}`, ctJSON, `[{"a":1},{"a":2}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := send(t, h, "POST", tc.body, tc.ct, bearer)
			if a.code != http.StatusOK || a.Error != nil {
				t.Fatalf("got %d %s, want 200", a.code, a.raw)
			}
			var got struct {
				UID  string          `json:"uid"`
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(a.Result, &got); err != nil {
				t.Fatal(err)
			}
			if got.UID != "alice" || string(got.Data) != tc.wantData {
				t.Errorf("result %s, want uid alice and data %s", a.Result, tc.wantData)
			}
		})
	}
}

func TestAuthentication(t *testing.T) {
	called := false
	h := Handler(fakeVerifier{}, func(ctx context.Context, req Request) (any, error) {
		called = true
		return req.UID, nil
	})
	for _, tc := range []struct {
		name   string
		header []string
		want   int
	}{
		{"missing", nil, 401},
		{"empty", []string{"Authorization: "}, 401},
		{"basic scheme", []string{"Authorization: Basic dG9rLWFsaWNl"}, 401},
		{"bearer without token", []string{"Authorization: Bearer "}, 401},
		{"no scheme", []string{"Authorization: tok-alice"}, 401},
		{"rejected token", []string{"Authorization: Bearer forged"}, 401},
		{"valid", []string{"Authorization: Bearer tok-bob"}, 200},
		{"lower-case scheme", []string{"Authorization: bearer tok-bob"}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called = false
			a := send(t, h, "POST", `{"data":{}}`, append([]string{ctJSON}, tc.header...)...)
			if a.code != tc.want {
				t.Fatalf("got %d %s, want %d", a.code, a.raw, tc.want)
			}
			if tc.want == 401 {
				if a.Error == nil || a.Error.Status != StatusUnauthenticated || called {
					t.Fatalf("got %s (called=%v), want UNAUTHENTICATED without calling the function", a.raw, called)
				}
				if strings.Contains(a.raw, "signature") {
					t.Errorf("verifier's reason leaked: %s", a.raw)
				}
				return
			}
			if string(a.Result) != `"bob"` {
				t.Errorf("result %s, want \"bob\"", a.Result)
			}
		})
	}
}

// A handler built without a verifier fails closed: a well-formed call
// with any token is UNAUTHENTICATED and the function never runs.
func TestNilVerifierFailsClosed(t *testing.T) {
	called := false
	h := Handler(nil, func(context.Context, Request) (any, error) { called = true; return "in", nil })
	a := send(t, h, "POST", `{"data":{}}`, ctJSON, bearer)
	if a.code != 401 || a.Error == nil || a.Error.Status != StatusUnauthenticated || called {
		t.Fatalf("nil verifier: %d %s (called=%v); want 401 UNAUTHENTICATED, function not called", a.code, a.raw, called)
	}
}

func TestStatusMapping(t *testing.T) {
	want := []struct {
		s    Status
		code int
	}{
		{StatusInvalidArgument, 400}, {StatusFailedPrecondition, 400}, {StatusOutOfRange, 400},
		{StatusUnauthenticated, 401}, {StatusPermissionDenied, 403}, {StatusNotFound, 404},
		{StatusAlreadyExists, 409}, {StatusAborted, 409}, {StatusResourceExhausted, 429},
		{StatusCancelled, 499}, {StatusUnknown, 500}, {StatusInternal, 500}, {StatusDataLoss, 500},
		{StatusUnimplemented, 501}, {StatusUnavailable, 503}, {StatusDeadlineExceeded, 504},
	}
	if len(want) != len(httpStatus) {
		t.Fatalf("table has %d statuses, test pins %d", len(httpStatus), len(want))
	}
	for _, w := range want {
		s, code := w.s, w.code
		t.Run(string(s), func(t *testing.T) {
			if got := s.HTTPStatus(); got != code {
				t.Fatalf("HTTPStatus = %d, want %d", got, code)
			}
			h := Handler(fakeVerifier{}, func(context.Context, Request) (any, error) {
				return nil, Errorf(s, "because %s", s)
			})
			a := send(t, h, "POST", `{"data":1}`, ctJSON, bearer)
			if a.code != code || a.Error == nil || a.Error.Status != s || a.Error.Message != "because "+string(s) {
				t.Fatalf("got %d %s, want %d with status %s", a.code, a.raw, code, s)
			}
			if a.Error.Details != nil {
				t.Errorf("details %s, want omitted", a.Error.Details)
			}
		})
	}
	if Status("OK").Valid() || Status("invalid-argument").Valid() {
		t.Error("OK and lower-case names must not be valid error statuses")
	}
}

func TestErrorsSentAsTheyAre(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		code    int
		status  Status
		message string
		details string
	}{
		{"details", NotFound("no game %q", "g9").WithDetails(map[string]any{"gameId": "g9"}), 404, StatusNotFound, `no game "g9"`, `{"gameId":"g9"}`},
		{"wrapped", fmt.Errorf("act: %w", Aborted("stale version")), 409, StatusAborted, "stale version", ""},
		{"constructors", FailedPrecondition("game over"), 400, StatusFailedPrecondition, "game over", ""},
		{"permission", PermissionDenied("not your seat"), 403, StatusPermissionDenied, "not your seat", ""},
		{"exists", AlreadyExists("seat taken"), 409, StatusAlreadyExists, "seat taken", ""},
		{"unauth", Unauthenticated("sign in"), 401, StatusUnauthenticated, "sign in", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Handler(fakeVerifier{}, func(context.Context, Request) (any, error) { return nil, tc.err })
			a := send(t, h, "POST", `{"data":1}`, ctJSON, bearer)
			if a.code != tc.code || a.Error == nil || a.Error.Status != tc.status || a.Error.Message != tc.message || string(a.Error.Details) != tc.details {
				t.Fatalf("got %d %s", a.code, a.raw)
			}
		})
	}
}

// captureLog sends slog's default output to a buffer for the test.
func captureLog(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

func TestInternalErrorsLeakNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fn     Func
		logged string // must be in the server log, never in the answer
	}{
		{"plain error", func(context.Context, Request) (any, error) {
			return nil, errors.New("store: seed=0xdeadbeef deck=7H,2C: connection reset")
		}, "deadbeef"},
		{"panic", func(context.Context, Request) (any, error) {
			panic("index out of range, seed=0xdeadbeef")
		}, "goroutine"},
		{"unknown status", func(context.Context, Request) (any, error) {
			return nil, &Error{Status: "TEAPOT", Message: "seed=0xdeadbeef"}
		}, "TEAPOT"},
		{"status OK", func(context.Context, Request) (any, error) {
			return nil, &Error{Status: "OK", Message: "seed=0xdeadbeef"}
		}, "seed=0xdeadbeef"},
		{"unmarshallable result", func(context.Context, Request) (any, error) {
			return map[string]any{"seed": "0xdeadbeef", "f": func() {}}, nil
		}, "unsupported type"},
		{"unmarshallable details", func(context.Context, Request) (any, error) {
			return nil, NotFound("x").WithDetails(make(chan int))
		}, "unsupported type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := captureLog(t)
			a := send(t, Handler(fakeVerifier{}, tc.fn), "POST", `{"data":1}`, ctJSON, bearer)
			if a.code != 500 || a.Error == nil || a.Error.Status != StatusInternal || a.Error.Message != "internal error" {
				t.Fatalf("got %d %s, want 500 INTERNAL \"internal error\"", a.code, a.raw)
			}
			if strings.Contains(a.raw, "deadbeef") || strings.Contains(a.raw, "goroutine") {
				t.Fatalf("answer leaks internals: %s", a.raw)
			}
			if !strings.Contains(logs.String(), tc.logged) {
				t.Errorf("server log lacks %q:\n%s", tc.logged, logs)
			}
		})
	}
}

func TestCORS(t *testing.T) {
	called := false
	h := Handler(fakeVerifier{}, func(context.Context, Request) (any, error) { called = true; return 1, nil })
	a := send(t, h, "OPTIONS", "",
		"Origin: https://game.example",
		"Access-Control-Request-Method: POST",
		"Access-Control-Request-Headers: authorization,content-type")
	if a.code != http.StatusNoContent || a.raw != "" || called {
		t.Fatalf("preflight: %d %q called=%v, want 204, empty, not called", a.code, a.raw, called)
	}
	for _, kv := range [][2]string{
		{"Access-Control-Allow-Origin", "https://game.example"},
		{"Access-Control-Allow-Methods", "POST"},
		{"Access-Control-Allow-Headers", "authorization,content-type"},
	} {
		if got := a.header.Get(kv[0]); got != kv[1] {
			t.Errorf("%s = %q, want %q", kv[0], got, kv[1])
		}
	}
	a = send(t, h, "POST", `{"data":1}`, ctJSON, bearer, "Origin: https://game.example")
	if a.code != 200 || a.header.Get("Access-Control-Allow-Origin") != "https://game.example" || !strings.Contains(strings.Join(a.header.Values("Vary"), ","), "Origin") {
		t.Fatalf("POST with Origin: %d %v", a.code, a.header)
	}
	a = send(t, h, "POST", `{"data":1}`, ctJSON, bearer)
	if a.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("no Origin, yet Access-Control-Allow-Origin = %q", a.header.Get("Access-Control-Allow-Origin"))
	}
}
