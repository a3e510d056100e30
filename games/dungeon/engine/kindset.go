package engine

// KindSet is a set of action kinds: bit i stands for ActionKinds[i].
type KindSet uint32

// KindsOf returns the set of the kinds given; a kind outside [ActionKinds]
// adds nothing.
func KindsOf(kinds ...ActionKind) KindSet {
	var s KindSet
	for _, k := range kinds {
		if i := kindIndex(k); i >= 0 {
			s |= 1 << i
		}
	}
	return s
}

// Has reports whether k is in the set.
func (s KindSet) Has(k ActionKind) bool {
	i := kindIndex(k)
	return i >= 0 && s&(1<<i) != 0
}

// The bit of each kind, in the order of ActionKinds (kindIndex).
const (
	kCreate KindSet = 1 << iota
	kJoin
	kStart
	kUseItem
	kDropItem
	kEndManage
	kOfferDuel
	kSkipDuel
	kMove
	kSleep
	kCombatRound
	kDuelRound
	kReroll
	kDeclineReroll
	kDiscard
	kAbandon
	kReveal
	kAbort
	kOpen
	kRemoveSeat
)

// Every kind has its bit, and no bit is left over.
var _ [0]struct{} = [(AllKinds | kCreate) + 1 - 1<<numActionKinds]struct{}{}

// The sets of kinds a caller of [LegalActions] usually asks for.
const (
	// TurnKinds are the decisions of a game in play: everything the
	// awaited player sends to move the game on (manage, preDuel,
	// moveOrSleep, combat, duel, re-roll and capacity actions). A bot
	// chooses among these.
	TurnKinds = kUseItem | kDropItem | kEndManage | kOfferDuel | kSkipDuel | kMove | kSleep |
		kCombatRound | kDuelRound | kReroll | kDeclineReroll | kDiscard
	// ProtocolKinds are the kinds of the fairness protocols
	// (docs/fairness.md): a trustless game's reveal and the abort at a
	// round's deadline, a fair game's open and the owner's removeSeat with
	// openings. What sends them is a client's protocol code, which holds
	// the secrets they carry (a chain link, a contribution) or watches the
	// clock; never a policy choosing a move, so TurnKinds leaves them out.
	ProtocolKinds = kReveal | kAbort | kOpen | kRemoveSeat
	// AllKinds is every kind but create (which needs no game): the
	// lobby's join and start, the turn kinds, the abandon, and the
	// protocol kinds. A caller that cannot send the protocol kinds (the
	// browser's board, which holds no chain, key or contribution) asks for
	// AllKinds &^ ProtocolKinds.
	AllKinds = TurnKinds | kJoin | kStart | kAbandon | ProtocolKinds
)
