package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fairboard/fairboard/game"
)

// The strategy file that "gamectl solve --out DIR" writes and a cfr:DIR
// bot reads: DIR/StrategyFileName, JSON with StrategyFormat and
// StrategyVersion.
const (
	StrategyFileName = "strategy.json"
	StrategyFormat   = "fairboard-cfr-strategy"
	StrategyVersion  = 1
	// MaxStrategyBytes bounds a strategy file read.
	MaxStrategyBytes = 256 << 20
)

// strategyJSON is the file: the game, its ruleset (canonical JSON and
// hash), how it was solved and its figures (informative), and the
// average strategy per information set.
type strategyJSON struct {
	Format         string          `json:"format"`
	Version        int             `json:"version"`
	Game           string          `json:"game"`
	Rules          json.RawMessage `json:"rules"`
	RulesHash      string          `json:"rulesHash"`
	Solver         string          `json:"solver"`
	Iterations     int             `json:"iterations"`
	Value          float64         `json:"value"`
	Exploitability float64         `json:"exploitability"`
	NashConv       float64         `json:"nashConv"`
	Infos          []infoJSON      `json:"infos"`
}

type infoJSON struct {
	Seat  int        `json:"seat"`
	Key   string     `json:"key"`
	Moves []moveJSON `json:"moves"`
	Probs []float64  `json:"probs"`
}

type moveJSON struct {
	Seat int     `json:"seat"`
	Kind string  `json:"kind"`
	Args []int64 `json:"args,omitempty"` // trailing zeros dropped
}

// WriteStrategy writes sol, solved under r, as a strategy file to w.
// Errors: w's; an information key that is not valid UTF-8 (JSON could
// not keep it).
func WriteStrategy(w io.Writer, sol *Solution, r game.Ruleset) error {
	f := strategyJSON{Format: StrategyFormat, Version: StrategyVersion, Game: sol.Game, Rules: r.CanonicalJSON(),
		RulesHash: r.Hash(), Solver: "CFR+", Iterations: sol.Iterations, Value: sol.Value[0],
		Exploitability: sol.Exploitability, NashConv: sol.NashConv}
	for _, is := range sol.Infos {
		if !utf8.ValidString(is.Key) {
			return fmt.Errorf("seat %d's information key %q is not valid UTF-8: a strategy file cannot hold it", is.Seat, is.Key)
		}
		ij := infoJSON{Seat: is.Seat, Key: is.Key, Probs: is.Probs}
		for _, m := range is.Moves {
			args := m.Args[:]
			for len(args) > 0 && args[len(args)-1] == 0 {
				args = args[:len(args)-1]
			}
			ij.Moves = append(ij.Moves, moveJSON{Seat: m.Seat, Kind: m.Kind, Args: args})
		}
		f.Infos = append(f.Infos, ij)
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Strategy is a strategy file read back: a table per seat from the
// information key to its moves and probabilities.
type Strategy struct {
	Path      string
	Game      string
	RulesHash string
	infos     [2]map[string]InfoStrategy
}

// Info returns seat's entry at key, and whether the table has one.
func (s *Strategy) Info(seat int, key []byte) (InfoStrategy, bool) {
	if seat < 0 || seat > 1 {
		return InfoStrategy{}, false
	}
	is, ok := s.infos[seat][string(key)]
	return is, ok
}

// LoadStrategy reads dir's strategy file, for def: every refusal names
// the file and the problem: unreadable, larger than MaxStrategyBytes,
// not JSON of this format and version, a game other than def's, a seat
// other than 0 or 1, a move kind def does not have, probabilities that
// are not a distribution over the entry's moves, a move or a key twice.
// The ruleset is checked apart (Strategy.CheckRules). A file is read
// and checked once per game and kept while its size and time are
// unchanged.
func LoadStrategy(def game.Definition, dir string) (*Strategy, error) {
	path := filepath.Join(dir, StrategyFileName)
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("strategy %s: %w", path, err)
	}
	ck := def.Name() + "\x00" + path
	strategies.Lock()
	c, ok := strategies.m[ck]
	strategies.Unlock()
	if !ok || c.size != st.Size() || !c.mod.Equal(st.ModTime()) {
		c = cachedStrategy{size: st.Size(), mod: st.ModTime()}
		c.s, c.err = readStrategy(path)
		if c.err == nil {
			c.err = c.s.checkGame(def)
		}
		strategies.Lock()
		strategies.m[ck] = c
		strategies.Unlock()
	}
	return c.s, c.err
}

// checkGame refuses a strategy of another game than def, or with a move
// kind def does not have.
func (s *Strategy) checkGame(def game.Definition) error {
	if s.Game != def.Name() {
		return fmt.Errorf("strategy %s is for the game %s, not %s", s.Path, s.Game, def.Name())
	}
	for seat := range s.infos {
		for key, is := range s.infos[seat] {
			for _, m := range is.Moves {
				if _, ok := game.Kind(def.Kinds(), m.Kind); !ok {
					return fmt.Errorf("strategy %s: seat %d at %q: %s has no move kind %q", s.Path, seat, key, def.Name(), m.Kind)
				}
			}
		}
	}
	return nil
}

// CheckRules refuses a strategy solved under another ruleset than r.
func (s *Strategy) CheckRules(r game.Ruleset) error {
	if s.RulesHash != r.Hash() {
		return fmt.Errorf("strategy %s was solved under the ruleset %s, not this game's %s (%s): solve it again with these rules", s.Path, s.RulesHash, r.Hash(), r.CanonicalJSON())
	}
	return nil
}

type cachedStrategy struct {
	size int64
	mod  time.Time
	s    *Strategy
	err  error
}

var strategies = struct {
	sync.Mutex
	m map[string]cachedStrategy
}{m: map[string]cachedStrategy{}}

// readStrategy reads and checks the file at path, apart from the game.
func readStrategy(path string) (*Strategy, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("strategy %s: %w", path, err)
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxStrategyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("strategy %s: %w", path, err)
	}
	if len(b) > MaxStrategyBytes {
		return nil, fmt.Errorf("strategy %s: larger than %d bytes", path, MaxStrategyBytes)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("strategy %s: %s", path, fmt.Sprintf(format, a...))
	}
	var f strategyJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, bad("not a strategy file: %v", err)
	}
	if dec.More() {
		return nil, bad("data after the strategy")
	}
	switch {
	case f.Format != StrategyFormat:
		return nil, bad("format %q, want %q", f.Format, StrategyFormat)
	case f.Version != StrategyVersion:
		return nil, bad("version %d; this build reads version %d", f.Version, StrategyVersion)
	case f.Game == "" || f.RulesHash == "":
		return nil, bad("no game or no rulesHash")
	case len(f.Infos) == 0:
		return nil, bad("no information sets")
	}
	s := &Strategy{Path: path, Game: f.Game, RulesHash: f.RulesHash, infos: [2]map[string]InfoStrategy{{}, {}}}
	for _, ij := range f.Infos {
		if ij.Seat < 0 || ij.Seat > 1 {
			return nil, bad("seat %d at %q: want 0 or 1", ij.Seat, ij.Key)
		}
		if _, dup := s.infos[ij.Seat][ij.Key]; dup {
			return nil, bad("seat %d's key %q twice", ij.Seat, ij.Key)
		}
		if len(ij.Moves) == 0 {
			return nil, bad("seat %d at %q: no moves", ij.Seat, ij.Key)
		}
		is := InfoStrategy{Seat: ij.Seat, Key: ij.Key, Probs: make([]float64, len(ij.Moves))}
		for _, mj := range ij.Moves {
			if len(mj.Args) > game.MaxArgs {
				return nil, bad("seat %d at %q: %s has %d arguments, at most %d", ij.Seat, ij.Key, mj.Kind, len(mj.Args), game.MaxArgs)
			}
			m := game.Move{Seat: mj.Seat, Kind: mj.Kind}
			copy(m.Args[:], mj.Args)
			if moveIndex(is.Moves, m) >= 0 {
				return nil, bad("seat %d at %q: the move %s twice", ij.Seat, ij.Key, mj.Kind)
			}
			is.Moves = append(is.Moves, m)
		}
		if err := setDistribution(is.Probs, ij.Probs); err != nil {
			return nil, bad("seat %d at %q: %v", ij.Seat, ij.Key, err)
		}
		s.infos[ij.Seat][ij.Key] = is
	}
	return s, nil
}
