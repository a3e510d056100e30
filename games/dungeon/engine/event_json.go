package engine

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/fairboard/fairboard/rng"
)

// field is one serializable field of an Event; a type's fields are a mask.
type field uint64

const (
	fUID field = 1 << iota
	fGameID
	fSeat
	fClass
	fDeckID
	fSize
	fCommit // DeckShuffled always; GameCreated when not zero
	fRulesHash
	fFair
	fTag
	fValue
	fOrder
	fRound
	fTurn
	fWho
	fSides
	fMods // modifiers and total, when there are modifiers
	fFrom
	fTo
	fCause
	fAmount
	fHP
	fCardID
	fEffect
	fTileID
	fTier
	fChoice
	fCombatID
	fDuelID
	fTarget
	fEnemyTier
	fOutcome
	fReason
	fCandidates
	fChosen
	fWinner
	fTrust
	fJoinKeys // PlayerJoined's entropyCommitment, chainHead, publicKey, each when not zero
)

// eventFields lists each type's fields; serialization writes them in the
// fixed order of appendFields.
var eventFields = [numEventTypes]field{
	EvGameCreated:            fUID | fGameID | fRulesHash | fCommit,
	EvPlayerJoined:           fUID | fSeat | fClass | fJoinKeys,
	EvDeckShuffled:           fDeckID | fSize | fTag | fCommit,
	EvTurnOrderRolled:        fUID | fValue,
	EvTieBreakRerolled:       fUID | fValue,
	EvGameStarted:            fOrder,
	EvTurnStarted:            fUID | fRound | fTurn,
	EvDiceRolled:             fWho | fTag | fSides | fValue | fMods,
	EvMoved:                  fUID | fFrom | fTo | fCause,
	EvSlept:                  fUID | fAmount | fHP,
	EvHealed:                 fUID | fAmount | fHP,
	EvCardDrawn:              fUID | fDeckID | fCardID,
	EvChanceResolved:         fUID | fCardID | fEffect,
	EvItemUsed:               fUID | fCardID | fAmount | fHP,
	EvItemDropped:            fUID | fCardID,
	EvEnemyCompositionChosen: fTileID | fTier | fChoice,
	EvEnemySpawned:           fCombatID | fCardID | fTier | fHP,
	EvDamageDealt:            fWho | fTarget | fAmount | fHP,
	EvEnemyDefeated:          fCombatID | fCardID,
	EvLootRoll:               fEnemyTier | fOutcome,
	EvKnockedOut:             fUID | fFrom | fTo | fHP,
	EvCombatEnded:            fCombatID | fUID | fOutcome,
	EvDuelOffered:            fDuelID | fUID | fTarget,
	EvDuelCancelled:          fDuelID | fUID | fReason,
	EvRerollDeclined:         fDuelID | fUID,
	EvDuelEnded:              fDuelID | fWinner | fOutcome,
	EvItemTaken:              fUID | fTarget | fCardID,
	EvDiscarded:              fUID | fCardID,
	EvTieBreakResolved:       fReason | fCandidates | fChosen,
	EvRoundEnded:             fRound,
	EvBracketStarted:         fCandidates,
	EvGameFinished:           fWinner | fRound | fOutcome,
	EvFairnessRevealed:       fFair,
	EvActionAccepted:         fTrust,
	EvActionPending:          fTrust,
	EvRoundRevealed:          fTrust,
	EvGameAborted:            fTrust,
	EvDeckRefilled:           fDeckID | fSize,
	EvEntropyOpened:          fUID | fSeat,
	EvSeatRemoved:            fUID | fSeat | fReason,
}

// AppendJSON appends the event as one JSON object, {"seq":..,"type":..,
// then its type's fields}, to b. It allocates only if b must grow.
func (e *Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, `,"type":`...)
	b = appendString(b, e.Type.String())
	var m field
	if e.Type < numEventTypes {
		m = eventFields[e.Type]
	}
	str := func(f field, name, v string) {
		if m&f != 0 {
			b = append(b, ',', '"')
			b = append(b, name...)
			b = append(b, '"', ':')
			b = appendString(b, v)
		}
	}
	num := func(f field, name string, v int) {
		if m&f != 0 {
			b = append(b, ',', '"')
			b = append(b, name...)
			b = append(b, '"', ':')
			b = strconv.AppendInt(b, int64(v), 10)
		}
	}
	list := func(f field, name string, v []string) {
		if m&f != 0 {
			b = append(b, ',', '"')
			b = append(b, name...)
			b = append(b, `":[`...)
			for i, s := range v {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, s)
			}
			b = append(b, ']')
		}
	}
	str(fUID, "uid", e.UID)
	str(fGameID, "gameId", e.GameID)
	str(fRulesHash, "rulesHash", e.RulesHash)
	num(fSeat, "seat", e.Seat)
	str(fClass, "class", string(e.Class))
	if k := e.Keys; m&fJoinKeys != 0 && k != nil {
		for _, k := range [3]struct {
			name string
			v    *Hash32
		}{{"entropyCommitment", &k.EntropyCommitment}, {"chainHead", &k.ChainHead}, {"publicKey", &k.PublicKey}} {
			if !k.v.IsZero() {
				b = append(b, ',', '"')
				b = append(b, k.name...)
				b = append(b, `":"`...)
				b = hex.AppendEncode(b, k.v[:])
				b = append(b, '"')
			}
		}
	}
	str(fWho, "who", e.Who)
	str(fDeckID, "deckId", e.DeckID)
	num(fSize, "size", e.Size)
	str(fTag, "tag", string(e.Tag))
	if m&fCommit != 0 && (e.Type == EvDeckShuffled || !e.Commitment.IsZero()) {
		b = append(b, `,"commitment":"`...)
		b = hex.AppendEncode(b, e.Commitment[:])
		b = append(b, '"')
	}
	num(fSides, "sides", e.Sides)
	num(fValue, "value", e.Value)
	if m&fMods != 0 && e.NMods > 0 {
		b = append(b, `,"modifiers":[`...)
		for i, v := range e.Modifiers() {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, `],"total":`...)
		b = strconv.AppendInt(b, int64(e.Total), 10)
	}
	list(fOrder, "order", e.Order)
	num(fRound, "round", e.Round)
	num(fTurn, "turn", e.Turn)
	num(fFrom, "from", e.From)
	num(fTo, "to", e.To)
	str(fCause, "cause", e.Cause)
	str(fCombatID, "combatId", e.CombatID)
	str(fDuelID, "duelId", e.DuelID)
	str(fCardID, "cardId", e.CardID)
	str(fEffect, "effect", e.Effect)
	num(fTileID, "tileId", e.TileID)
	num(fTier, "tier", e.Tier)
	str(fChoice, "choice", e.Choice)
	str(fTarget, "target", e.Target)
	num(fAmount, "amount", e.Amount)
	num(fHP, "hp", e.HP)
	num(fEnemyTier, "enemyTier", e.EnemyTier)
	str(fReason, "reason", e.Reason)
	list(fCandidates, "candidates", e.Candidates)
	str(fChosen, "chosenUid", e.ChosenUID)
	str(fWinner, "winner", e.Winner)
	str(fOutcome, "outcome", e.Outcome)
	if m&fFair != 0 {
		b = append(b, `,"fairness":`...)
		f := e.Fair
		if f == nil {
			f = &Fairness{}
		}
		js, err := json.Marshal(f)
		if err != nil { // cannot happen: every field marshals
			panic("engine: encoding fairness: " + err.Error())
		}
		b = append(b, js...)
	}
	if m&fTrust != 0 {
		b = append(b, `,"trustless":`...)
		r := e.Trust
		if r == nil {
			r = &TrustRecord{}
		}
		js, err := json.Marshal(r)
		if err != nil { // cannot happen: every field marshals
			panic("engine: encoding a trustless record: " + err.Error())
		}
		b = append(b, js...)
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler with [Event.AppendJSON].
func (e Event) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

// eventWire is the decoding shape of an Event: every field optional.
type eventWire struct {
	Seq               uint64       `json:"seq"`
	Type              string       `json:"type"`
	UID               string       `json:"uid"`
	GameID            string       `json:"gameId"`
	Seat              int          `json:"seat"`
	Class             Class        `json:"class"`
	Who               string       `json:"who"`
	DeckID            string       `json:"deckId"`
	Size              int          `json:"size"`
	Commitment        string       `json:"commitment"`
	RulesHash         string       `json:"rulesHash"`
	Fairness          *Fairness    `json:"fairness"`
	Trust             *TrustRecord `json:"trustless"`
	EntropyCommitment string       `json:"entropyCommitment"`
	ChainHead         string       `json:"chainHead"`
	PublicKey         string       `json:"publicKey"`
	Tag               rng.Tag      `json:"tag"`
	Sides             int          `json:"sides"`
	Value             int          `json:"value"`
	Modifiers         []int        `json:"modifiers"`
	Total             int          `json:"total"`
	Order             []string     `json:"order"`
	Round             int          `json:"round"`
	Turn              int          `json:"turn"`
	From              int          `json:"from"`
	To                int          `json:"to"`
	Cause             string       `json:"cause"`
	CombatID          string       `json:"combatId"`
	DuelID            string       `json:"duelId"`
	CardID            string       `json:"cardId"`
	Effect            string       `json:"effect"`
	TileID            int          `json:"tileId"`
	Tier              int          `json:"tier"`
	Choice            string       `json:"choice"`
	Target            string       `json:"target"`
	Amount            int          `json:"amount"`
	HP                int          `json:"hp"`
	EnemyTier         int          `json:"enemyTier"`
	Reason            string       `json:"reason"`
	Candidates        []string     `json:"candidates"`
	ChosenUID         string       `json:"chosenUid"`
	Winner            string       `json:"winner"`
	Outcome           string       `json:"outcome"`
}

// UnmarshalJSON decodes what MarshalJSON writes. It returns an error for an
// unknown type, more modifiers than an Event holds or a commitment that is
// not 64 hex digits.
func (e *Event) UnmarshalJSON(data []byte) error {
	var w eventWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	t := ParseEventType(w.Type)
	if t == EvNone {
		return fmt.Errorf("engine: unknown event type %q", w.Type)
	}
	if len(w.Modifiers) > len(e.Mods) {
		return fmt.Errorf("engine: event %s has too many modifiers", w.Type)
	}
	var commit, ec, head, key Hash32
	for _, h := range [4]struct {
		name, s string
		v       *Hash32
	}{{"commitment", w.Commitment, &commit}, {"entropyCommitment", w.EntropyCommitment, &ec},
		{"chainHead", w.ChainHead, &head}, {"publicKey", w.PublicKey, &key}} {
		if h.s != "" {
			if err := h.v.UnmarshalText([]byte(h.s)); err != nil {
				return fmt.Errorf("engine: event %s: %s: %w", w.Type, h.name, err)
			}
		}
	}
	*e = Event{
		Seq: w.Seq, Type: t, UID: w.UID, GameID: w.GameID, Seat: w.Seat, Class: w.Class,
		Who: w.Who, DeckID: w.DeckID, Size: w.Size, Tag: w.Tag, Sides: w.Sides,
		Value: w.Value, Total: w.Total, Order: w.Order, Round: w.Round, Turn: w.Turn,
		From: w.From, To: w.To, Cause: w.Cause, CombatID: w.CombatID, DuelID: w.DuelID,
		CardID: w.CardID, Effect: w.Effect, TileID: w.TileID, Tier: w.Tier,
		Choice: w.Choice, Target: w.Target, Amount: w.Amount, HP: w.HP,
		EnemyTier: w.EnemyTier, Reason: w.Reason, Candidates: w.Candidates,
		ChosenUID: w.ChosenUID, Winner: w.Winner, Outcome: w.Outcome,
		Commitment: commit, RulesHash: w.RulesHash, Fair: w.Fairness, Trust: w.Trust,
	}
	if !ec.IsZero() || !head.IsZero() || !key.IsZero() {
		e.Keys = &JoinKeys{EntropyCommitment: ec, ChainHead: head, PublicKey: key}
	}
	e.NMods = uint8(copy(e.Mods[:], w.Modifiers))
	return nil
}

// appendString appends s as a JSON string, escaping as encoding/json does
// (quotes, backslashes, \b \f \n \r \t, other control characters as \u00XX,
// <, >, &, U+2028/9; invalid UTF-8 becomes U+FFFD).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
