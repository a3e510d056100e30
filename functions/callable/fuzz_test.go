package callable

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzDecodeRequest feeds arbitrary bodies to the envelope decoder, to
// DecodeData and to the whole handler: nothing panics; every rejection is
// INVALID_ARGUMENT; an accepted envelope held exactly one "data" whose raw
// value is valid JSON and survives a round trip; the handler answers only
// 200 or 400 with a JSON body.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"data":null}`, `{"data":{"gameId":"g1","seat":2}}`, `{"data":[1,{"a":2}]}`,
		`{}`, `{"data":1,"x":2}`, `{"data":1,"data":1}`, `{"data":{"a":1,"a":1}}`,
		`[]`, `null`, `"x"`, ``, `{"data":1}x`, "{\"data\":\"\xff\"}", `{"data":{"seat":256}}`,
		`{"data":{"move":{"kind":"bet","bet":1e400}}}`, `{"data":[[[[[[[[[[1]]]]]]]]]]}`,
	} {
		f.Add([]byte(seed))
	}
	h := Handler(fakeVerifier{}, func(_ context.Context, req Request) (any, error) {
		var v actData
		if err := DecodeData(req.Data, &v); err != nil {
			return nil, err
		}
		return v.Seat, nil
	})
	f.Fuzz(func(t *testing.T, body []byte) {
		data, cerr := decodeEnvelope(body)
		if cerr != nil {
			if cerr.Status != StatusInvalidArgument {
				t.Fatalf("envelope error %v, want INVALID_ARGUMENT", cerr)
			}
		} else {
			if !json.Valid(data) {
				t.Fatalf("accepted data %q is not valid JSON", data)
			}
			again, err := json.Marshal(map[string]json.RawMessage{"data": data})
			if err != nil {
				t.Fatal(err)
			}
			data2, cerr := decodeEnvelope(again)
			if cerr != nil {
				t.Fatalf("round trip of %q rejected: %v", again, cerr)
			}
			var a, b any
			if json.Unmarshal(data, &a) != nil || json.Unmarshal(data2, &b) != nil {
				t.Fatal("data does not unmarshal")
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Fatalf("round trip changed data: %s vs %s", ja, jb)
			}
			var v actData
			if err := DecodeData(data, &v); err != nil {
				var ce *Error
				if !errors.As(err, &ce) || ce.Status != StatusInvalidArgument {
					t.Fatalf("DecodeData error %v, want INVALID_ARGUMENT", err)
				}
			}
		}
		req := httptest.NewRequest("POST", "/fn", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer tok-fuzz")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
			t.Fatalf("handler answered %d %s", rec.Code, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("handler answer %q is not JSON", rec.Body)
		}
		if (rec.Code == http.StatusOK) != (cerr == nil && DecodeData(data, new(actData)) == nil) {
			t.Fatalf("handler %d disagrees with the decoders for %q", rec.Code, body)
		}
	})
}
