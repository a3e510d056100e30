package trustless

import "encoding/binary"

// DomainTableAction begins the canonical encoding of a table game's
// action (a game on the game definition: docs/fairness.md, "Trustless
// tables"). No dungeon action begins with it (a dungeon action's first
// field is its kind), so the two encodings never meet.
const DomainTableAction = "fairboard/table-action/v1"

// AppendTableAction appends the canonical bytes of a table game's action
// that its digest and signature cover (ActionDigest, ActionMessage):
//
//	field("fairboard/table-action/v1") ‖ field(kind) ‖ field(actor) ‖ u64be(version)
//	‖ field(body) ‖ field(chainHead) ‖ field(publicKey)
//
// where kind is the table's action kind ("join", "move"), actor the
// sender's uid, version the table's version the action was made against,
// body the game's pinned canonical bytes of the seat (a join:
// game.AppendSeatCanonical) or of the move (game.AppendMoveCanonical),
// and chainHead and publicKey a join's 32 raw bytes each (empty for a
// move).
func AppendTableAction(dst []byte, kind, actor string, version uint64, body, chainHead, publicKey []byte) []byte {
	b := appendFieldString(dst, DomainTableAction)
	b = appendFieldString(b, kind)
	b = appendFieldString(b, actor)
	b = binary.BigEndian.AppendUint64(b, version)
	b = AppendField(b, body)
	b = AppendField(b, chainHead)
	return AppendField(b, publicKey)
}
