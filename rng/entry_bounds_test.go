package rng_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// TestEntryJSONBounds: an audit entry decodes only if a stream could have
// recorded it. Each range is tried at its edge (accepted, and written back
// to the same entry) and one step past it (refused).
func TestEntryJSONBounds(t *testing.T) {
	const head = `{"seq":1,"tag":"t","kind":`
	for _, c := range []struct {
		data string // kind and data
		ok   bool
	}{
		// dice: 1 <= value <= sides <= 2^32.
		{`"dice","data":{"sides":1,"value":1}`, true},
		{`"dice","data":{"sides":6,"value":6}`, true},
		{`"dice","data":{"sides":6,"value":0}`, false},
		{`"dice","data":{"sides":0,"value":0}`, false},
		{`"dice","data":{"sides":-1,"value":-1}`, false},
		{`"dice","data":{"sides":4294967296,"value":4294967296}`, true},
		{`"dice","data":{"sides":4294967297,"value":1}`, false},
		// weighted: whole weights in [1, 2^32] summing to at most 2^32,
		// 0 <= r < sum, and the index r picks.
		{`"weighted","data":{"weights":[1],"r":0,"index":0}`, true},
		{`"weighted","data":{"weights":[0],"r":0,"index":0}`, false},
		{`"weighted","data":{"weights":[0,5],"r":0,"index":1}`, false}, // a zero weight before others
		{`"weighted","data":{"weights":[70,30],"r":69,"index":0}`, true},
		{`"weighted","data":{"weights":[70,30],"r":70,"index":1}`, true},
		{`"weighted","data":{"weights":[70,30],"r":70,"index":0}`, false},
		{`"weighted","data":{"weights":[70,30],"r":99,"index":1}`, true},
		{`"weighted","data":{"weights":[70,30],"r":-1,"index":0}`, false},
		{`"weighted","data":{"weights":[4294967296],"r":4294967295,"index":0}`, true},
		{`"weighted","data":{"weights":[4294967297],"r":0,"index":0}`, false},
		{`"weighted","data":{"weights":[4294967295,1],"r":4294967295,"index":1}`, true},
		{`"weighted","data":{"weights":[4294967295,2],"r":0,"index":0}`, false},
		// shuffle: 0 <= preview items <= size <= 2^32.
		{`"shuffle","data":{"size":0,"headPreview":[]}`, true},
		{`"shuffle","data":{"size":-1,"headPreview":[]}`, false},
		{`"shuffle","data":{"deckId":"chance","size":2,"headPreview":["a","b"]}`, true},
		{`"shuffle","data":{"size":4294967296,"headPreview":[]}`, true},
		{`"shuffle","data":{"size":4294967297,"headPreview":[]}`, false},
		// u32: 0 .. 2^32-1.
		{`"sample","data":{"op":"u32","value":0}`, true},
		{`"sample","data":{"op":"u32","value":4294967295}`, true},
		{`"sample","data":{"op":"u32","value":-1}`, false},
		// int: min <= value <= max, max-min+1 <= 2^32.
		{`"sample","data":{"op":"int","min":-3,"max":-3,"value":-3}`, true},
		{`"sample","data":{"op":"int","min":1,"max":6,"value":6}`, true},
		{`"sample","data":{"op":"int","min":1,"max":6,"value":7}`, false},
		{`"sample","data":{"op":"int","min":1,"max":6,"value":0}`, false},
		{`"sample","data":{"op":"int","min":2,"max":1,"value":1}`, false},
		{`"sample","data":{"op":"int","min":0,"max":4294967295,"value":4294967295}`, true},
		{`"sample","data":{"op":"int","min":0,"max":4294967296,"value":0}`, false},
		// float01: 0 <= value < 1.
		{`"sample","data":{"op":"float01","value":0}`, true},
		{`"sample","data":{"op":"float01","value":0.9999999997671694}`, true},
		{`"sample","data":{"op":"float01","value":-1e-300}`, false},
		{`"sample","data":{"op":"float01","value":1}`, false},
		// chooseOne: 0 <= index < n <= 2^32.
		{`"sample","data":{"op":"chooseOne","n":1,"index":0}`, true},
		{`"sample","data":{"op":"chooseOne","n":0,"index":0}`, false},
		{`"sample","data":{"op":"chooseOne","n":3,"index":-1}`, false},
		{`"sample","data":{"op":"chooseOne","n":3,"index":2}`, true},
		{`"sample","data":{"op":"chooseOne","n":4294967296,"index":4294967295}`, true},
		{`"sample","data":{"op":"chooseOne","n":4294967297,"index":0}`, false},
	} {
		in := head + c.data + `}`
		var e rng.Entry
		err := json.Unmarshal([]byte(in), &e)
		if !c.ok {
			if !errors.Is(err, rng.ErrEntryJSON) {
				t.Errorf("%s: err = %v, want it refused", in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: refused: %v", in, err)
			continue
		}
		b, err := json.Marshal(e)
		var back rng.Entry
		if err != nil || json.Unmarshal(b, &back) != nil || !reflect.DeepEqual(back, e) {
			t.Errorf("%s: written back as %s (%v), read as %+v", in, b, err, back)
		}
	}
}
