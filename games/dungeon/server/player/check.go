package player

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
)

// CheckShown requires the game document a server shows to be the state
// the public log, replayed, makes (mine: a Follower's Game().Public, read
// up to shown.LogSeq), but for the last action id, which the log does not
// carry (it is the server's). A trustless game's pending action is
// compared first, so that the error names the round it differs on. The
// reveals the document shows applied into the pending round (an action's
// own reveal, applied with it: Public.trustless.pending.reveals), which
// the log records only when the round closes, must each be a seated
// seat's, once, signed by its key over the pending action's digest and
// transcript; the replay is then taken to have applied them (each one
// version). The error says what differs, in words for the player.
func CheckShown(mine, shown engine.Public) error {
	mine.LastActionID, shown.LastActionID = "", ""
	if mt, st := mine.Trustless, shown.Trustless; mt != nil && st != nil {
		mp, sp := mt.Pending, st.Pending
		switch {
		case sp != nil && mp == nil:
			return fmt.Errorf("the server shows %s by %s pending at index %d, which the log has not recorded", sp.Action.Kind, sp.Action.Actor, sp.Index)
		case sp == nil && mp != nil:
			return fmt.Errorf("the log has %s by %s pending at index %d; the server shows nothing pending", mp.Action.Kind, mp.Action.Actor, mp.Index)
		case sp != nil && sp.Index != mp.Index && checks.On(checks.ShownIndex):
			return fmt.Errorf("the server asks for index %d; the log's pending action (%s by %s) uses index %d", sp.Index, mp.Action.Kind, mp.Action.Actor, mp.Index)
		case sp != nil && (sp.Digest != mp.Digest || sp.Transcript != mp.Transcript || sp.Action != mp.Action) && checks.On(checks.ShownPending):
			return fmt.Errorf("the server shows another pending action at index %d (%s by %s, digest %s) than the log's (%s by %s, digest %s)",
				sp.Index, sp.Action.Kind, sp.Action.Actor, sp.Digest, mp.Action.Kind, mp.Action.Actor, mp.Digest)
		case sp != nil && len(sp.Reveals) > len(mp.Reveals):
			if err := checkApplied(mine.GameID, mt, sp.Reveals[len(mp.Reveals):]); err != nil {
				return err
			}
			t, pd := *mt, *mp
			pd.Reveals = slices.Clone(sp.Reveals)
			t.Pending = &pd
			mine.Trustless = &t
			mine.Version += uint64(len(sp.Reveals) - len(mp.Reveals))
		}
	}
	a, _ := json.Marshal(&mine)
	b, _ := json.Marshal(&shown)
	if bytes.Equal(a, b) {
		return nil
	}
	var am, bm map[string]json.RawMessage
	json.Unmarshal(a, &am)
	json.Unmarshal(b, &bm)
	var diff []string
	for k := range bm {
		if !bytes.Equal(am[k], bm[k]) {
			diff = append(diff, k)
		}
	}
	for k := range am {
		if _, ok := bm[k]; !ok {
			diff = append(diff, k)
		}
	}
	slices.Sort(diff)
	k := diff[0]
	return fmt.Errorf("the game document's %v differ from what the log makes (at seq %d): %s shows %.300s; the log's replay %.300s",
		diff, shown.LogSeq, k, bm[k], am[k])
}

// checkApplied checks the reveals a game document shows applied into t's
// pending round beyond the replay's: each a seated seat's, once (and not
// one the replay has), signed by the seat's key over the pending action's
// digest and transcript.
func checkApplied(gameID string, t *engine.Trustless, marks []engine.RevealMark) error {
	pd := t.Pending
	seen := map[int]bool{}
	for _, m := range pd.Reveals {
		seen[m.Seat] = true
	}
	for _, m := range marks {
		ts, _ := t.Seat(m.UID)
		if (ts == nil || ts.Seat != m.Seat) && checks.On(checks.AppliedSeat) {
			return fmt.Errorf("the server shows a reveal of %s for seat %d at index %d, which is not that seat's player", m.UID, m.Seat, pd.Index)
		}
		if seen[m.Seat] && checks.On(checks.AppliedOnce) {
			return fmt.Errorf("the server shows seat %d's reveal for index %d twice", m.Seat, pd.Index)
		}
		seen[m.Seat] = true
		if !checks.On(checks.AppliedSignature) {
			continue
		}
		sig, err := hex.DecodeString(m.Signature)
		if ts == nil || err != nil || !trustless.Verify(ts.PublicKey[:], trustless.RevealMessage(gameID, pd.Index, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript)), sig) {
			return fmt.Errorf("the server shows a reveal of seat %d (%s) for index %d that its key did not sign over the pending action (digest %s, transcript %s)",
				m.Seat, m.UID, pd.Index, pd.Digest, pd.Transcript)
		}
	}
	return nil
}

// CheckMarks requires every reveal marker of the round the replayed game
// (mine) has pending to be its seat's signature over the pending action's
// digest and transcript: a marker signed over another action shows that
// the server showed the seats different games. Markers of other rounds
// are ignored. gameID is the game's id.
func CheckMarks(gameID string, mine *engine.Public, marks []store.Mark) error {
	t := mine.Trustless
	if t == nil || t.Pending == nil {
		return nil
	}
	pd := t.Pending
	for _, m := range marks {
		if m.Index != pd.Index {
			continue
		}
		ts, _ := t.Seat(m.UID)
		if ts == nil || ts.Seat != m.Seat {
			return fmt.Errorf("a reveal marker of %s for seat %d, which is not that seat's player", m.UID, m.Seat)
		}
		d, derr := engine.ParseHash32(m.Digest, "digest")
		tr, terr := engine.ParseHash32(m.Transcript, "transcript")
		sig, serr := hex.DecodeString(m.Signature)
		if derr != nil || terr != nil || serr != nil ||
			!trustless.Verify(ts.PublicKey[:], trustless.RevealMessage(gameID, m.Index, (*[32]byte)(&d), (*[32]byte)(&tr)), sig) {
			return fmt.Errorf("a reveal of seat %d (%s) for index %d that its key did not sign", m.Seat, m.UID, m.Index)
		}
		if (d != pd.Digest || tr != pd.Transcript) && checks.On(checks.MarkDigest) {
			return fmt.Errorf("seat %d (%s) revealed index %d for the action of digest %s after transcript %s; the log has %s by %s pending there (digest %s, transcript %s): the server shows the seats different games",
				m.Seat, m.UID, m.Index, d, tr, pd.Action.Kind, pd.Action.Actor, pd.Digest, pd.Transcript)
		}
	}
	return nil
}
