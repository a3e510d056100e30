package trustseat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxAckBytes bounds the acknowledgement a seat keeps (KeepAck): room
// for a deal message of the largest deck rng/mentalpoker deals, written
// as JSON.
const MaxAckBytes = 1 << 20

// KeepAck keeps ack with the seat's secrets (Export writes it, Restore
// gives it back): the evidence its client holds of what the server
// acknowledged last (client.TableAck, as JSON), so that a restart keeps
// it (docs/fairness.md, "Dropped, then blamed"). The seat never reads
// it. ack is a JSON object of at most MaxAckBytes, kept compact (as
// json.Compact writes it); nil forgets the one kept. Errors: anything
// else, and the seat keeps the one it had.
func (s *Seat) KeepAck(ack []byte) error {
	if ack == nil {
		s.ack = nil
		return nil
	}
	if err := checkAck(ack); err != nil {
		return fmt.Errorf("trustseat: an acknowledgement to keep: %w", err)
	}
	var c bytes.Buffer
	if err := json.Compact(&c, ack); err != nil {
		return fmt.Errorf("trustseat: an acknowledgement to keep: %w", err)
	}
	// Export writes it as json.Marshal writes a json.RawMessage (with
	// HTML's characters escaped): kept in that form, Restore's check that
	// a blob is written exactly as Export writes it holds.
	b, err := json.Marshal(json.RawMessage(c.Bytes()))
	if err == nil && len(b) > MaxAckBytes {
		err = fmt.Errorf("%d bytes as written, more than %d", len(b), MaxAckBytes)
	}
	if err != nil {
		return fmt.Errorf("trustseat: an acknowledgement to keep: %w", err)
	}
	s.ack = b
	return nil
}

// KeptAck returns the acknowledgement KeepAck kept (or Restore gave
// back), nil for none; a copy.
func (s *Seat) KeptAck() []byte { return bytes.Clone(s.ack) }

// checkAck reports what makes b no acknowledgement to keep: not a JSON
// object, or larger than MaxAckBytes.
func checkAck(b []byte) error {
	switch {
	case len(b) > MaxAckBytes:
		return fmt.Errorf("%d bytes, more than %d", len(b), MaxAckBytes)
	case !json.Valid(b):
		return errors.New("not JSON")
	case len(bytes.TrimLeft(b, " \t\r\n")) == 0 || bytes.TrimLeft(b, " \t\r\n")[0] != '{':
		return errors.New("not a JSON object")
	}
	return nil
}
