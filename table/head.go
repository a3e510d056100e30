package table

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
)

// A table saved in parts (docs/store.md, "The saved table's parts"): a
// store that keeps a table in documents of bounded size (Firestore's
// 1 MiB) saves it with SaveHead instead of Save. The head (HeadFormat)
// is Save's table without its stored results, each of which the store
// keeps apart, found by its ResultID (AddResult brings back the one an
// action needs), and with only an open tail of its log, moves and draws:
// once the tail reaches the store's chunk size, SaveHead seals it into a
// chunk (ChunkFormat) the store keeps apart too, never to change again.
// Restore takes a head alone (the table then plays on, and its views
// show the open tail of its log: SealedSeqs); JoinHead puts the head and
// its chunks back into a whole table (SavedFormat, for Record and a full
// view). A head seals only what a table restores without: its log in
// the lobby, and its log, moves and draws once started if it has a
// snapshot (snapshot.go). A trustless table's applied moves' protocol
// (their signatures and rounds' reveals) is sealed with its moves, one
// for one; the head keeps the rest of its protocol state, which is of
// bounded size (the transcript's hash, the next round's index, each
// seat's commitments and last link, the pending round, the abort). A
// dealing trustless table (trustdealing.go) has no snapshot: once
// started it seals nothing, its head keeping its one hand whole (its
// deal's log, moves and events, bounded by the hand).

// HeadFormat is the format of a table's head (SaveHead); ChunkFormat
// that of a sealed chunk.
const (
	HeadFormat  = "fairboard-table/v2"
	ChunkFormat = "fairboard-table-chunk/v1"
)

// sealedPart is what a head's sealed chunks hold: how many chunks, log
// events, moves and draws, and deck commitments (decks.go) they hold,
// and their log's addressed events (a seat's part: SeatPart), which the
// head keeps, as the seat documents do.
type sealedPart struct {
	Chunks    int     `json:"chunks,omitempty"`
	Log       int     `json:"logBase,omitempty"`
	Moves     int     `json:"moveBase,omitempty"`
	Draws     int     `json:"drawBase,omitempty"`
	Decks     int     `json:"sealedDecks,omitempty"`
	Addressed []Event `json:"addressed,omitempty"`
}

// chunk is one sealed chunk: the log events, moves and draws after the
// bases, in order.
type chunk struct {
	Format   string      `json:"format"`
	Index    int         `json:"index"`
	LogBase  int         `json:"logBase"`
	MoveBase int         `json:"moveBase"`
	DrawBase int         `json:"drawBase"`
	Log      []Event     `json:"log"`
	Moves    []game.Move `json:"moves,omitempty"`
	Draws    []int64     `json:"draws,omitempty"`
	// Trust is a trustless table's protocol of Moves, one for one
	// (trust.Moves); absent in other modes.
	Trust []trustMove `json:"trust,omitempty"`
}

// Head is a table saved as its head (SaveHead).
type Head struct {
	// Saved is the head (HeadFormat).
	Saved []byte
	// Chunk is the chunk this save sealed (ChunkFormat), nil if none;
	// ChunkIndex its index, from 0 (the head's chunks count it).
	Chunk      []byte
	ChunkIndex int
	// Results are the results stored since the table was made or
	// restored, for the store to keep apart (each under its ResultID).
	Results []StoredResult
	// Audit are the audit entries an audited table's game drew since the
	// table was made or restored (audit.go; the last audit.RingSize of
	// them at most), in seq order, for the store to ring in the same
	// commit; none if audit is off.
	Audit []AuditEntry
}

// StoredResult is one stored result as a store keeps it apart: its actor
// and action id, and Data, which AddResult takes back.
type StoredResult struct {
	Actor, ActionID string
	Data            []byte
}

// ResultID is the id of actor's stored result of actionID: 64 hex digits
// of SHA-256(actor "/" actionID) ('/' is in neither).
func ResultID(actor, actionID string) string {
	h := sha256.Sum256([]byte(actor + "/" + actionID))
	return hex.EncodeToString(h[:])
}

// SaveHead returns the table saved as its head, the chunk it sealed and
// the results to keep apart. It seals the open tail (its log events and,
// once started, its moves and draws) when any of them holds chunkSize or
// more (chunkSize >= 1) and the table may seal (see above). A head's
// stored results are only those a table saved whole (SavedFormat) held,
// which it keeps. The same table saves to the same head.
func (t *Table) SaveHead(chunkSize int) (*Head, error) {
	if chunkSize < 1 {
		return nil, fmt.Errorf("table: save head: chunk size %d", chunkSize)
	}
	s, err := t.toSaved()
	if err != nil {
		return nil, err
	}
	s.Format, s.sealedPart = HeadFormat, t.sealed
	s.sealedPart.Addressed = slices.Clone(t.sealed.Addressed)
	s.Records = slices.DeleteFunc(s.Records, func(r savedRecord) bool {
		return t.apart[recordKey{r.Actor, r.ActionID}] || slices.Contains(t.fresh, recordKey{r.Actor, r.ActionID})
	})
	h := &Head{}
	if t.aud != nil {
		h.Audit = slices.Clone(t.aud.fresh)
	}
	for _, k := range t.fresh {
		b, err := json.Marshal(savedRecord{Actor: k.actor, ActionID: k.id, Fingerprint: t.records[k].fp, Result: t.records[k].res})
		if err != nil {
			return nil, err
		}
		h.Results = append(h.Results, StoredResult{Actor: k.actor, ActionID: k.id, Data: b})
	}
	canSeal := !s.Started || s.Snapshot != nil
	if canSeal && (len(s.Log) >= chunkSize || len(s.Moves) >= chunkSize || len(s.Draws) >= chunkSize) {
		c := chunk{Format: ChunkFormat, Index: s.Chunks, LogBase: s.sealedPart.Log, MoveBase: s.sealedPart.Moves, DrawBase: s.sealedPart.Draws,
			Log: s.Log, Moves: s.Moves, Draws: s.Draws}
		if s.Trustless != nil {
			if len(s.Trustless.Moves) != len(s.Moves) {
				return nil, fmt.Errorf("table: save head: %d moves' protocol for %d moves", len(s.Trustless.Moves), len(s.Moves))
			}
			tl := *s.Trustless // the table's own stays whole
			c.Trust, tl.Moves = tl.Moves, []trustMove{}
			s.Trustless = &tl
		}
		if h.Chunk, err = json.Marshal(c); err != nil {
			return nil, err
		}
		h.ChunkIndex = s.Chunks
		s.Chunks++
		s.sealedPart.Log += len(s.Log)
		s.sealedPart.Moves += len(s.Moves)
		s.sealedPart.Draws += len(s.Draws)
		for _, e := range s.Log {
			switch {
			case !e.Game && e.Type == TypeDeckCommitted && len(e.Options) >= 3:
				s.Decks++
			case e.To != game.All:
				s.Addressed = append(s.Addressed, e)
			}
		}
		s.Log, s.Moves, s.Draws = []Event{}, nil, nil
	}
	if h.Saved, err = json.Marshal(s); err != nil {
		return nil, err
	}
	return h, nil
}

// checkSealed checks a saved table's sealed part: none in SavedFormat
// or for a replay; counts not negative; moves and draws sealed only with
// a snapshot; the open log from the seq after the sealed ones; addressed
// events only among those sealed.
func checkSealed(s *saved, replay bool) error {
	p := &s.sealedPart
	switch {
	case (s.Format == SavedFormat || replay) && (p.Chunks != 0 || p.Log != 0 || p.Moves != 0 || p.Draws != 0 || p.Decks != 0 || p.Addressed != nil):
		return errors.New("sealed chunks without their head's format, or for a replay (JoinHead them first)")
	case p.Chunks < 0 || p.Log < 0 || p.Moves < 0 || p.Draws < 0 || p.Decks < 0 || p.Decks > p.Log || len(p.Addressed) > p.Log:
		return errors.New("sealed counts out of range")
	case p.Chunks == 0 && (p.Log != 0 || p.Moves != 0 || p.Draws != 0):
		return errors.New("sealed events, moves or draws without a chunk")
	case (p.Moves != 0 || p.Draws != 0) && s.Snapshot == nil:
		return errors.New("sealed moves or draws in a head without a snapshot")
	case len(s.Log) > 0 && s.Log[0].Seq != p.Log+1:
		return fmt.Errorf("the open log begins at seq %d after %d sealed events", s.Log[0].Seq, p.Log)
	}
	for _, e := range p.Addressed {
		if e.To == game.All || e.Seq < 1 || e.Seq > p.Log {
			return errors.New("a sealed addressed event that is not one")
		}
	}
	return nil
}

// AddResult brings back a stored result the store kept apart
// (Head.Results' Data), before the action that may retry it (Do, or
// Retry for a create). Errors: data that does not decode strictly, or
// an actor or action id out of their formats.
func (t *Table) AddResult(data []byte) error {
	var r savedRecord
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return fmt.Errorf("table: stored result: %w", err)
	}
	if !(ValidID(r.Actor) || r.Actor == ServerActor) || !ValidID(r.ActionID) {
		return errors.New("table: stored result: an actor or action id out of its format")
	}
	if t.apart == nil {
		t.apart = map[recordKey]bool{}
	}
	k := recordKey{r.Actor, r.ActionID}
	t.records[k], t.apart[k] = record{fp: r.Fingerprint, res: r.Result}, true
	return nil
}

// SealedSeqs returns how many log events the table's sealed chunks hold
// (0 for a table saved or joined whole): its views' logs begin after
// them. SealedChunks returns how many chunks it has.
func (t *Table) SealedSeqs() int { return t.sealed.Log }

// SealedMoves returns how many of the game's moves the table's sealed
// chunks hold (0 for a table saved or joined whole): its match's moves,
// and a trustless table's protocol of them, begin after them.
func (t *Table) SealedMoves() int { return t.sealed.Moves }

// SealedChunks returns how many sealed chunks the table has (JoinHead
// takes them all, in order).
func (t *Table) SealedChunks() int { return t.sealed.Chunks }

// JoinHead returns the table of head (HeadFormat, or SavedFormat, which
// it returns as it is) and its chunks, every one in order, saved whole
// (SavedFormat): the stored results it kept (none, but a table first
// saved whole's) and no other. Errors: a head or chunk that does not
// decode strictly, chunks missing, out of order or that do not add up
// to the head's counts.
func JoinHead(head []byte, chunks [][]byte) ([]byte, error) {
	var s saved
	if err := strict(head, &s); err != nil {
		return nil, fmt.Errorf("table: join head: %w", err)
	}
	if s.Format == SavedFormat && len(chunks) == 0 {
		return head, nil
	}
	if s.Format != HeadFormat || len(chunks) != s.Chunks {
		return nil, fmt.Errorf("table: join head: %d chunks for a head of format %q with %d", len(chunks), s.Format, s.Chunks)
	}
	var log []Event
	var moves []game.Move
	var draws []int64
	var trust []trustMove
	for i, b := range chunks {
		var c chunk
		if err := strict(b, &c); err != nil {
			return nil, fmt.Errorf("table: join head: chunk %d: %w", i, err)
		}
		if c.Format != ChunkFormat || c.Index != i || c.LogBase != len(log) || c.MoveBase != len(moves) || c.DrawBase != len(draws) {
			return nil, fmt.Errorf("table: join head: chunk %d does not follow the ones before it", i)
		}
		if s.Trustless != nil && len(c.Trust) != len(c.Moves) || s.Trustless == nil && c.Trust != nil {
			return nil, fmt.Errorf("table: join head: chunk %d holds %d moves' trustless protocol for %d moves", i, len(c.Trust), len(c.Moves))
		}
		log, moves, draws = append(log, c.Log...), append(moves, c.Moves...), append(draws, c.Draws...)
		trust = append(trust, c.Trust...)
	}
	if len(log) != s.sealedPart.Log || len(moves) != s.sealedPart.Moves || len(draws) != s.sealedPart.Draws {
		return nil, errors.New("table: join head: the chunks do not hold what the head counts")
	}
	s.Log, s.Moves, s.Draws = append(log, s.Log...), append(moves, s.Moves...), append(draws, s.Draws...)
	if s.Trustless != nil {
		s.Trustless.Moves = slices.Concat([]trustMove{}, trust, s.Trustless.Moves)
	}
	if len(s.Moves) == 0 {
		s.Moves = nil
	}
	if len(s.Draws) == 0 {
		s.Draws = nil
	}
	s.Format, s.sealedPart = SavedFormat, sealedPart{}
	return json.Marshal(s)
}

func strict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	return d.Decode(v)
}
