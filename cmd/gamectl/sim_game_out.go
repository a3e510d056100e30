package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairboard/fairboard/match"
)

// gameOut is the --out DIR of a game's design command (sensitivity,
// --by-skill, the tuner): its files reserved before any game (a directory
// that cannot be made or written is refused, exit 2) and written together
// when the run is done, each moved into place whole (pendingFile).
type gameOut struct {
	dir   string
	names []string
	files []*pendingFile
}

// reserveGameOut makes dir if need be and reserves names in it; "" is no
// --out (nil, nil). On an error nothing stays reserved.
func reserveGameOut(dir string, names ...string) (*gameOut, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, usagef("--out %s: %v", dir, err)
	}
	o := &gameOut{dir: dir, names: names}
	for _, name := range names {
		p, err := reserveFile("--out", filepath.Join(dir, name))
		if err != nil {
			o.discard()
			return nil, err
		}
		o.files = append(o.files, p)
	}
	return o, nil
}

// discard drops the reserved files (nil: nothing).
func (o *gameOut) discard() {
	if o == nil {
		return
	}
	for _, p := range o.files {
		p.discard()
	}
}

// commit writes data[i] to the i-th file, moves every file into place and
// says so on stdout (nil: nothing). A write that fails leaves none of them.
func (o *gameOut) commit(stdout io.Writer, data ...[]byte) error {
	if o == nil {
		return nil
	}
	for i, p := range o.files {
		if _, err := p.Write(data[i]); err != nil {
			o.discard()
			return fmt.Errorf("writing %s: %w", p.path, err)
		}
	}
	var errs []error
	for _, p := range o.files {
		errs = append(errs, p.commit())
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	last := len(o.names) - 1
	list := strings.Join(o.names[:last], ", ") + " and " + o.names[last]
	fmt.Fprintf(stdout, "\nwrote %s/%s\n", o.dir, list)
	return nil
}

// commitCSV writes the CSV file write gives as the first file and the
// pages' bytes as the next ones, then commits them (nil: nothing).
func (o *gameOut) commitCSV(stdout io.Writer, write func(io.Writer) error, pages ...func() []byte) error {
	if o == nil {
		return nil
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		o.discard()
		return err
	}
	data := [][]byte{b.Bytes()}
	for _, p := range pages {
		data = append(data, p())
	}
	return o.commit(stdout, data...)
}

// tuneOutNames are the tuner's --out files, in commitTune's order.
var tuneOutNames = []string{"tune.csv", "rules.json", "report.html"}

// commitTune writes tune.csv, rules.json (the confirmed ruleset, which
// "gamectl sim --game NAME --rules" takes) and report.html.
func (o *gameOut) commitTune(stdout io.Writer, rep tuneReport) error {
	return o.commitCSV(stdout, func(w io.Writer) error { return match.WriteTuneCSV(w, rep.paths, rep.rows) },
		func() []byte { return []byte(rep.confirm.Rules + "\n") }, func() []byte { return tuneHTML(rep) })
}

// tuneReport is what a tuner's report shows: the grid's or NTBEA's run.
type tuneReport struct {
	def     string
	search  string // "grid" or "NTBEA"
	paths   []string
	ranges  []string // "[LO, HI]" by path
	rows    []match.TuneRow
	confirm *match.SimResult
	met     bool
	target  float64
	gens    []match.NTBEAGenRow // NTBEA's generations
}

func gridReport(r *match.TuneResult) tuneReport {
	rep := tuneReport{def: r.Def, search: "grid", rows: r.Rows(), confirm: r.Confirm, met: r.Met, target: r.Target}
	for _, p := range r.Params {
		rep.paths = append(rep.paths, p.Path)
		rep.ranges = append(rep.ranges, fmt.Sprintf("[%g, %g]", p.Lo, p.Hi))
	}
	return rep
}

func ntbeaReport(st *match.NTBEARun) tuneReport {
	rep := tuneReport{def: st.Game, search: "NTBEA", rows: st.Rows(), confirm: st.Confirm, met: st.Met,
		target: st.Target, gens: st.GenRows()}
	for _, p := range st.Params {
		rep.paths = append(rep.paths, p.Path)
		rep.ranges = append(rep.ranges, fmt.Sprintf("[%g, %g], %d values", p.Lo, p.Hi, len(p.Values)))
	}
	return rep
}
