//go:build js && wasm && leaktest

package main

import (
	"errors"
	"syscall/js"
)

// A test build's leaking seat (go build -tags leaktest; never in the page
// served): fairboard.tableLeak(gameId, uid) makes the page's seat's deal
// client publish its own key of its own card with its deal keys, the
// positive control of the browser test that a page never sends the key
// of its own card (tablekeep_test.go).
func init() {
	testAPI = append(testAPI, func(api map[string]any) {
		api["tableLeak"] = js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 2 {
				return answer(errors.New("tableLeak takes the game id and the uid"), nil)
			}
			s := tableSeats[a[0].String()+"/"+a[1].String()]
			if s == nil {
				return answer(errors.New("no seat of that table in this page"), nil)
			}
			s.LeakAtDeal()
			return answer(nil, map[string]any{})
		})
	})
}
