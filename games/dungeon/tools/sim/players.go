package sim

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// playersFixed are players.csv's first columns: who played what, and how
// the game went for them. The per-player counters of the ruleset's schema
// follow (schema.header), then playersLast.
var playersFixed = []string{"game", "seed", "seat", "uid", "class", "bot", "position", "won",
	"rounds", "end", "bracket", "final_hp", "final_tile", "items_held"}

// playersLast is players.csv's last column, the one every game's
// players.csv has (match.PlayersHeader): the game's utility for the seat.
// The dungeon's payoff is won (1 for the winner, else 0).
const playersLast = "payoff"

// PlayersHeader returns the header line of players.csv under a ruleset,
// without its newline.
func PlayersHeader(r *engine.Ruleset) string {
	cols := append(append([]string{}, playersFixed...), newSchema(r).header()...)
	return strings.Join(append(cols, playersLast), ",")
}

// appendRows appends game i's players.csv rows, one per seat, from the
// counters the last scan left and the final state g.
func (sc *gameScan) appendRows(b []byte, i int64, seed string, classes []engine.Class, bots []string, g *engine.Game) []byte {
	for j := range bots {
		b = strconv.AppendInt(b, i, 10)
		b = append(b, ',')
		b = appendCSVField(b, seed)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, ",p"...)
		b = strconv.AppendInt(b, int64(j+1), 10)
		b = append(b, ',')
		b = append(b, classes[j]...)
		b = append(b, ',')
		b = append(b, bots[j]...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(sc.pos[j]+1), 10)
		b = append(b, ',')
		b = appendBool(b, j == sc.winner)
		b = append(b, ',')
		b = strconv.AppendInt(b, sc.rounds, 10)
		b = append(b, ',')
		b = append(b, sc.end...)
		b = append(b, ',')
		b = appendBool(b, sc.bracket)
		hp, tile, held := 0, 0, 0
		if j < len(g.Public.Players) {
			p := &g.Public.Players[j]
			hp, tile, held = p.HP, p.Pos, len(p.Items)
		}
		for _, v := range [3]int{hp, tile, held} {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(v), 10)
		}
		for _, v := range sc.counts[j] {
			b = append(b, ',')
			b = strconv.AppendInt(b, v, 10)
		}
		b = append(b, ',')
		b = appendBool(b, j == sc.winner) // payoff
		b = append(b, '\n')
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, '1')
	}
	return append(b, '0')
}

// appendCSVField appends s as one RFC 4180 field, quoted when it holds a
// comma, a quote, a line break or leading or trailing space (as
// encoding/csv quotes).
func appendCSVField(b []byte, s string) []byte {
	if s == "" || (!strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t' && s[len(s)-1] != ' ' && s[len(s)-1] != '\t') {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// maxPending bounds the finished games a sink holds while an earlier game
// is still being played; a worker that would exceed it waits.
const maxPending = 1024

// orderedSink writes the rows of each game in game order, whatever order
// the workers finish them in. Memory stays bounded: at most maxPending
// games wait. The first write error is kept and stops the writing.
type orderedSink struct {
	mu      sync.Mutex
	cond    sync.Cond
	w       *bufio.Writer
	next    int64 // the game whose rows come next
	pending map[int64][]byte
	free    [][]byte
	err     error
	onErr   func() // called once, on the first write error
}

func newOrderedSink(w io.Writer, header string, first int64, onErr func()) *orderedSink {
	s := &orderedSink{w: bufio.NewWriterSize(w, 256<<10), next: first, pending: map[int64][]byte{}, onErr: onErr}
	s.cond.L = &s.mu
	s.write([]byte(header + "\n"))
	return s
}

// put hands over game i's rows (nil for a game that failed: no rows) and
// returns a buffer for the caller's next rows. Every game of the range
// must be put exactly once, each by the worker that played it.
func (s *orderedSink) put(i int64, rows []byte) []byte {
	if s == nil {
		return rows[:0]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i != s.next && len(s.pending) >= maxPending {
		s.cond.Wait()
	}
	if i != s.next {
		s.pending[i] = rows
		if n := len(s.free); n > 0 {
			b := s.free[n-1]
			s.free = s.free[:n-1]
			return b
		}
		return nil
	}
	s.write(rows)
	s.next++
	for {
		b, ok := s.pending[s.next]
		if !ok {
			break
		}
		delete(s.pending, s.next)
		s.write(b)
		s.free = append(s.free, b[:0])
		s.next++
	}
	s.cond.Broadcast()
	return rows[:0]
}

func (s *orderedSink) write(b []byte) {
	if s.err != nil || len(b) == 0 {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = err
		if s.onErr != nil {
			s.onErr()
		}
	}
}

// flush writes what is buffered and returns the first error.
func (s *orderedSink) flush() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = s.w.Flush()
	}
	return s.err
}
