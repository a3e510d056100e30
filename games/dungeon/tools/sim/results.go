package sim

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// Format names the layout of results.json; a change that old readers cannot
// read bumps it.
const Format = "fairboard-sim/3"

// RulesRecord identifies a ruleset: where it came from and its content hash.
type RulesRecord struct {
	Source string `json:"source"`
	Hash   string `json:"hash"`
}

// ConfigRecord is the reproducible part of a run's configuration.
type ConfigRecord struct {
	Games      int64    `json:"games"`
	Seed       string   `json:"seed"`
	SeedScheme string   `json:"seedScheme"`
	Players    int      `json:"players"`
	Classes    []string `json:"classes"` // ["mixed"] for the rotation
	Bots       []string `json:"bots"`
	// Design names how seats, classes and bots were assigned (DesignName);
	// DesignText says it in words and Aliases lists the factors the
	// options forced together (none by default).
	Design     string   `json:"design"`
	DesignText string   `json:"designText"`
	Aliases    []string `json:"aliases,omitempty"`
	Workers    int      `json:"workers"` // informational: results do not depend on it
	Shard      int      `json:"shard"`
	Shards     int      `json:"shards"`
	// Precision (in percentage points) is the half-width a run to a
	// precision (--precision) aimed at, and MaxGames its ceiling (--games);
	// Games is then the number of games it decided on.
	Precision float64 `json:"precision,omitempty"`
	MaxGames  int64   `json:"maxGames,omitempty"`
}

// Results is everything a run produced, as written to results.json: enough
// to read it without the data (measures with intervals), to reproduce it
// (command, version, configuration, ruleset hashes) and to merge shards
// exactly (the integer tallies).
type Results struct {
	Format      string              `json:"format"`
	Version     string              `json:"version"`
	Command     []string            `json:"command"`
	Config      ConfigRecord        `json:"config"`
	Rules       RulesRecord         `json:"rules"`
	CompareWith *RulesRecord        `json:"compareWith,omitempty"`
	Range       [2]int64            `json:"range"` // game indices [lo, hi) of this shard
	Done        int64               `json:"done"`  // games played: [lo, lo+done)
	Partial     bool                `json:"partial"`
	FailedGames int64               `json:"failedGames"`
	Failures    []Failure           `json:"failures,omitempty"`
	Shortest    *Replay             `json:"shortest,omitempty"`
	Longest     *Replay             `json:"longest,omitempty"`
	Measures    []Measure           `json:"measures"`
	MeasuresB   []Measure           `json:"measuresB,omitempty"`
	Comparisons []Comparison        `json:"comparisons,omitempty"`
	Tally       *Tally              `json:"tally"`
	TallyB      *Tally              `json:"tallyB,omitempty"`
	Paired      map[string]*Moments `json:"paired,omitempty"`
}

// Replay is a notable game with the command that replays it.
type Replay struct {
	Notable
	Command string `json:"command"`
}

// NewResults assembles the results of a run.
func NewResults(cfg *Config, o *Outcome, command []string) *Results {
	lo, hi := cfg.Range()
	rec := configRecord(cfg)
	if o.Hi > 0 && o.Hi < hi { // a run to a precision, precise before its ceiling
		rec.Games, hi = o.Hi, o.Hi
	}
	r := &Results{
		Format:  Format,
		Version: version(),
		Command: command,
		Config:  rec,
		Rules:   RulesRecord{Source: cfg.A.Source, Hash: cfg.A.Rules.Hash()},
		Range:   [2]int64{lo, hi},
		Done:    o.Done, Partial: o.Partial,
		FailedGames: o.FailedGames, Failures: o.Failures,
		Tally: o.A, TallyB: o.B, Paired: o.Paired,
	}
	if cfg.B != nil {
		r.CompareWith = &RulesRecord{Source: cfg.B.Source, Hash: cfg.B.Rules.Hash()}
	}
	r.Shortest = replayOf(cfg, o.Shortest)
	r.Longest = replayOf(cfg, o.Longest)
	r.derive()
	return r
}

// derive computes the measures and comparisons from the tallies.
func (r *Results) derive() {
	r.Measures = r.Tally.Measures(r.Config.Players)
	r.MeasuresB, r.Comparisons = nil, nil
	if r.TallyB != nil {
		r.MeasuresB = r.TallyB.Measures(r.Config.Players)
		paired := map[string]Moments{}
		for id, m := range r.Paired {
			paired[id] = *m
		}
		r.Comparisons = Compare(r.Measures, r.MeasuresB, paired, unpairedMeans(r.Tally, r.TallyB))
	}
}

func configRecord(cfg *Config) ConfigRecord {
	c := ConfigRecord{Games: cfg.Games, Seed: cfg.Seed, SeedScheme: cfg.Seed + "#<game index>",
		Players: cfg.Players, Bots: cfg.Bots, Workers: cfg.Workers, Shard: cfg.Shard, Shards: max(cfg.Shards, 1),
		Design: DesignName, DesignText: cfg.DescribeDesign(), Aliases: cfg.Aliases()}
	if cfg.Precision > 0 {
		c.Precision, c.MaxGames = 100*cfg.Precision, cfg.Games
	}
	if cfg.Classes == nil {
		c.Classes = []string{"mixed"}
	}
	for _, cl := range cfg.Classes {
		c.Classes = append(c.Classes, string(cl))
	}
	return c
}

// replayOf returns the notable game with its `gamectl play` command.
func replayOf(cfg *Config, n *Notable) *Replay {
	if n == nil {
		return nil
	}
	seats, names := cfg.seating(n.Index, nil, nil, nil)
	classes := make([]string, len(seats))
	for i, s := range seats {
		classes[i] = string(s.Class)
	}
	cmd := fmt.Sprintf("gamectl play --seed %s --players %d --classes %s --bots %s",
		shellQuote(n.Seed), cfg.Players, strings.Join(classes, ","), strings.Join(names, ","))
	if cfg.A.Source != DefaultSource {
		cmd += " --rules " + shellQuote(cfg.A.Source)
	}
	if searchers(names) {
		cmd += " --bot-seed " + BotSeed(cfg.Seed, n.Index)
	}
	return &Replay{Notable: *n, Command: cmd}
}

// DefaultSource is the Source of the embedded default ruleset.
const DefaultSource = "embedded default"

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:=+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// version returns the program's module version and VCS revision, if the
// build recorded them.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v
}

// ReadResults reads a results.json written by [Results.Write].
func ReadResults(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := ParseResults(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// ParseResults decodes and checks a results.json. Anything that could not
// have been written by a run (a wrong format, missing or negative counts,
// a range outside the run, more seats than tracked) is an error naming it,
// so that merging never works on a corrupt file.
func ParseResults(data []byte) (*Results, error) {
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if r.Format != Format {
		return nil, fmt.Errorf("format %q, want %q", r.Format, Format)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// normalised returns a decoded tally merged into a new one, so that maps
// and slices absent from the JSON are there, empty, as in a tally a run
// made.
func normalised(t *Tally) *Tally {
	n := NewTally()
	n.Merge(t)
	return n
}

// check validates what ParseResults decoded.
func (r *Results) check() error {
	c := r.Config
	switch {
	case r.Tally == nil:
		return fmt.Errorf("no tally")
	case c.Games <= 0 || c.Players < 1 || c.Players > MaxSeats:
		return fmt.Errorf("config: %d games of %d players is not a run", c.Games, c.Players)
	case c.Shards < 1 || c.Shard < 0 || c.Shard >= c.Shards:
		return fmt.Errorf("config: shard %d/%d", c.Shard, c.Shards)
	case r.Range[0] < 0 || r.Range[0] > r.Range[1] || r.Range[1] > c.Games:
		return fmt.Errorf("range [%d, %d) is not within the run's %d games", r.Range[0], r.Range[1], c.Games)
	case r.Done < 0 || r.Done > r.Range[1]-r.Range[0] || r.FailedGames < 0 || r.FailedGames > r.Done:
		return fmt.Errorf("done %d (failed %d) does not fit the range [%d, %d)", r.Done, r.FailedGames, r.Range[0], r.Range[1])
	case (r.TallyB == nil) != (r.CompareWith == nil):
		return fmt.Errorf("compareWith and tallyB must come together")
	}
	if err := r.Tally.check(); err != nil {
		return fmt.Errorf("tally: %w", err)
	}
	r.Tally = normalised(r.Tally)
	if r.TallyB != nil {
		if err := r.TallyB.check(); err != nil {
			return fmt.Errorf("tallyB: %w", err)
		}
		r.TallyB = normalised(r.TallyB)
	}
	for id, m := range r.Paired {
		if m == nil || m.N < 0 {
			return fmt.Errorf("paired %q: missing or negative", id)
		}
	}
	return nil
}

// Write writes results.json, the CSVs and report.html into dir (created if
// needed).
func (r *Results) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	files := map[string][]byte{
		"results.json": append(b, '\n'),
		"measures.csv": r.measuresCSV(),
		"rounds.csv":   r.roundsCSV(),
		"report.html":  r.reportHTML(),
	}
	if r.Comparisons != nil {
		files["comparison.csv"] = r.comparisonCSV()
	}
	for _, name := range sortedKeys(files) {
		if err := writeFileAtomic(filepath.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes through a temporary file and a rename, so an
// interrupted run never leaves a half-written file behind.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
