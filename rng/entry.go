package rng

// Ctx is the context of one random decision: the spec's suggested shape
// { gameId, actionId, turn, actorUid, phase, tileId, combatId, duelId,
// deckId, enemyTier, reason }, plus enemyId for the enemy dice ("ctx includes
// enemyId or index"). Every field is optional; a zero field is unset and
// omitted from JSON, so turns, tiles and tiers that are recorded count from 1
// (tile 0, the start, is never the context of a draw).
type Ctx struct {
	GameID    string `json:"gameId,omitempty"`
	ActionID  string `json:"actionId,omitempty"`
	Turn      int    `json:"turn,omitempty"`
	ActorUID  string `json:"actorUid,omitempty"`
	Phase     string `json:"phase,omitempty"`
	TileID    int    `json:"tileId,omitempty"`
	CombatID  string `json:"combatId,omitempty"`
	DuelID    string `json:"duelId,omitempty"`
	DeckID    string `json:"deckId,omitempty"`
	EnemyTier int    `json:"enemyTier,omitempty"`
	EnemyID   string `json:"enemyId,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// Kind is the kind of an audit entry: the spec's "dice", "shuffle",
// "weighted" and "sample" (everything else: raw words, integers, floats,
// choose-one).
type Kind string

// The audit entry kinds of the spec.
const (
	KindDice     Kind = "dice"
	KindShuffle  Kind = "shuffle"
	KindWeighted Kind = "weighted"
	KindSample   Kind = "sample"
)

// The Op of a "sample" entry: which operation consumed the entropy.
const (
	OpUint32    = "u32"
	OpInt       = "int"
	OpFloat01   = "float01"
	OpChooseOne = "chooseOne"
)

// Entry is one audit record, made after each consumption of entropy.
//
// Data holds the per-kind payload of the spec; which fields are meaningful
// depends on Kind (see [Data]). Entries are passed by value and own their
// slices.
type Entry struct {
	Seq  uint64
	Tag  Tag
	Ctx  Ctx
	Kind Kind
	Data Data
}

// Data is the payload of an [Entry]:
//
//   - dice: Sides, Value.
//   - weighted: Weights, R (the 0..sum-1 draw), Index.
//   - shuffle: DeckID, Size, HeadPreview (the first three items after the
//     shuffle, as text).
//   - sample: Op and, by Op, Value ("u32", "int" with Min and Max),
//     Float ("float01"), or N and Index ("chooseOne").
type Data struct {
	Sides       int
	Value       int64
	Weights     []float64
	R           int64
	Index       int
	DeckID      string
	Size        int
	HeadPreview []string
	Op          string
	Min, Max    int64
	Float       float64
	N           int
}

// Auditor receives every audit entry of a stream, in seq order, right after
// the consumption it records. Record must not call back into the stream.
// An Auditor cannot fail the draw: whatever goes wrong in it is its own to
// report.
type Auditor interface {
	Record(Entry)
}

// AuditorFunc adapts a function to [Auditor].
type AuditorFunc func(Entry)

// Record calls f(e).
func (f AuditorFunc) Record(e Entry) { f(e) }
