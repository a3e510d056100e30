//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"

	"github.com/fairboard/fairboard/table/trustseat"
)

// The markers of a trustless table's pending round (docs/play.md,
// "Markers checked"; docs/fairness.md, "Split view, replays and
// duplicates at a table"), checked as the Go table client checks them,
// with its code (trustseat.CheckMarks):
//
//	fairboard.tableMarks(view)  getView's answer view: {lie: false} when
//	                            every marker of its pending round (none:
//	                            nothing to check) is its seat's signature
//	                            over that round; {lie: true, words} naming
//	                            the first that is not (the server shows the
//	                            seats different games, or forged a reveal)
//
// The page checks every trustless view it reads, whether it holds a seat
// or watches, and the wasm's tableReveal checks again before the seat
// reveals (tableseat.go).

func tableMarks(viewText string) (map[string]any, error) {
	v, err := tableView(viewText)
	if err != nil {
		return nil, err
	}
	err = trustseat.CheckMarks(v.Trustless)
	var lie *trustseat.MarksLie
	if errors.As(err, &lie) {
		return map[string]any{"lie": true, "words": lie.What}, nil
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"lie": false}, nil
}

// marksAPI adds tableMarks to the page's API.
func marksAPI(api map[string]any) {
	api["tableMarks"] = js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) != 1 || a[0].Type() != js.TypeString {
			return answer(errors.New("tableMarks takes the view"), nil)
		}
		m, err := tableMarks(a[0].String())
		return answer(err, m)
	})
}
