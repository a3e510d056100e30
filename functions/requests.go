package functions

// The request data of the functions (the callable body's "data") that
// every game's path shares; the dungeon's own requests are its path's
// (games/dungeon/server/dungeonfn), a table's are in tablereq.go. Unknown
// fields (names are case-sensitive), duplicate keys and wrong types are
// INVALID_ARGUMENT. Every string's maximum and format are checked before
// the store is touched (the dungeon's in one place, its service's
// limits.go: gameId and actionId: 1-128 characters of [A-Za-z0-9_-];
// target: a uid, at most 128 characters; cardId: at most 64 bytes; seed:
// at most 256 bytes; entropy: at most 128 hex digits; verifyShuffle's
// seed at most 4096 bytes and claimed_deck 1 to 4096 cards of at most 64
// bytes); a breach is INVALID_ARGUMENT naming the field. The uid always
// comes from the ID token, never from the data.

// ActReveal is an act's own reveal (the dungeon's act's and
// [TableActRequest].Reveal): the fields of a reveal's data but the game
// and the action id, which are the act's.
type ActReveal struct {
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	Link       string `json:"link"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

// ViewRequest is getView's data: the game, the last log seq the caller
// has (0 for the whole log) and, at a trustless table, how many applied
// moves its client has checked (0: none; at most the moves played; the
// view's protocol then holds the moves after them).
type ViewRequest struct {
	Game         string `json:"game,omitempty"` // "" or "dungeon": the routing hint of docs/functions.md
	GameID       string `json:"gameId"`
	AfterSeq     uint64 `json:"afterSeq,omitempty"`
	CheckedMoves uint32 `json:"checkedMoves,omitempty"`
}

// ExportRequest is exportGame's data.
type ExportRequest struct {
	Game   string `json:"game,omitempty"` // the routing hint of docs/functions.md: "dungeon" or a table's game
	GameID string `json:"gameId"`
}

// ShuffleRequest is getShuffle's data: the game and, optionally, one deck
// (an id of engine.DeckIDs, or a deck a table's game shuffled; every
// deck when empty).
type ShuffleRequest struct {
	Game   string `json:"game,omitempty"` // the routing hint of docs/functions.md: "dungeon" or a table's game
	GameID string `json:"gameId"`
	DeckID string `json:"deckId,omitempty"`
}

// VerifyShuffleRequest is verifyShuffle's data: an algorithm of
// rng/shuffles, a seed in that algorithm's encoding, and the deck claimed
// to be its shuffle (top first).
type VerifyShuffleRequest struct {
	Algorithm   string   `json:"algorithm"`
	Seed        string   `json:"seed"`
	ClaimedDeck []string `json:"claimed_deck"`
}
