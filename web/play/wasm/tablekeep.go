//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A trustless table's seat kept on the device (docs/play.md, "Trustless
// tables"): the page stores the secrets each answer gives (trustseat's
// Export, opaque to it) in IndexedDB before it sends the action, and after
// a reload, or when another tab of the same player stored newer ones,
// hands them back here (tableSeat) before it asks the seat anything. The
// seat is then the one that joined: the same chain, key and deal keys
// (its passes made again and checked against the table's), and the last
// index it revealed, which it never reveals for another round.

// testAPI holds functions a test build adds to the page's API (none in
// the page served: see tableleak.go's build tag).
var testAPI []func(api map[string]any)

// tableSeat makes the page's seat of the view's table (its seat, that
// seat's uid) again from secrets, unless the seat this page holds already
// has exactly them but perhaps for their checkpoint (trustseat's Holds:
// the seat in memory may have checked moves since they were stored); it
// answers {seat}. A blob of another game, table, uid
// or seat, or a damaged one, is refused by name (trustseat.Restore).
func tableSeat(viewText, secrets string) (map[string]any, error) {
	var w struct {
		GameID string `json:"gameId"`
	}
	_ = json.Unmarshal([]byte(viewText), &w)
	v, err := tableView(viewText)
	if err != nil {
		return nil, err
	}
	if v.Seat < 0 || v.Seat >= len(v.Seats) {
		return nil, errors.New("this page holds no seat of the table")
	}
	def, err := registry.Lookup(v.Game)
	if err != nil {
		return nil, err
	}
	uid := v.Seats[v.Seat].UID
	key := w.GameID + "/" + uid
	if s := tableSeats[key]; s != nil && s.Index() == v.Seat && s.Holds([]byte(secrets)) {
		return map[string]any{"seat": v.Seat}, nil
	}
	s, err := trustseat.Restore(def, w.GameID, uid, v.Seat, []byte(secrets))
	if err != nil {
		return nil, err
	}
	tableSeats[key] = s
	return map[string]any{"seat": v.Seat, "restored": true}, nil
}

// tableChecked answers how many of the table's applied moves the page's
// seat of table gameID, for uid, has checked from the first move: its
// checkpoint (trustseat.Seat.Checked), {checked: n}, n >= 0; 0 for a
// seat this page does not hold (a fresh page, a reload before the seat
// was asked anything) and for one just made again from its secrets. The
// page sends it as getView's checkedMoves (docs/store.md, "The saved
// table's parts"), and the view then holds only the moves after it.
func tableChecked(gameID, uid string) map[string]any {
	n := 0
	if s := tableSeats[gameID+"/"+uid]; s != nil {
		n = s.Checked()
	}
	return map[string]any{"checked": n}
}

// checkedAPI adds tableChecked to the page's API.
func checkedAPI(api map[string]any) {
	api["tableChecked"] = js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) != 2 || a[0].Type() != js.TypeString || a[1].Type() != js.TypeString {
			return answer(errors.New("tableChecked takes the game id and the uid"), nil)
		}
		return answer(nil, tableChecked(a[0].String(), a[1].String()))
	})
}
