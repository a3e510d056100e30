package game

// StoredGames is implemented by a definition whose games a server of its
// own also stores, in documents of its own layout (the dungeon's:
// games/dungeon/server, a game document, its log of events and the open
// round's reveal markers), which the play page follows and plays, trustless
// games included (docs/play.md). The page's WebAssembly reaches them
// through the registry and this interface alone, so that it imports no
// game; everything in and out is plain values and JSON.
type StoredGames interface {
	// StoredBoard returns what the page draws of the default ruleset, as
	// JSON (fairboard.rules(): the tiles, cards, classes and the
	// ruleset's hash, for the dungeon).
	StoredBoard() []byte
	// FollowStored returns a follower of the stored game id under the
	// default ruleset; for "" one that follows nothing (every document
	// refused: "no game followed (reset first)").
	FollowStored(id string) StoredFollower
}

// StoredFollower follows one stored game as the page reads it: the game
// document, the log's events in order, the open round's markers; for a
// trustless game it replays the log as the game's own client does and,
// once the page gives it the seat's secrets, makes this seat's reveals.
// The first problem found in what was read sticks (Err): every later
// document or event is refused with it. Not safe for concurrent use.
type StoredFollower interface {
	// State takes the game document (JSON) as read; the error is the
	// problem in force (the sticky one, or the document's own, which
	// then sticks): not a game document, another game, another ruleset,
	// a version or a log that went back, or a trustless game's document
	// that is not the replay's.
	State(doc []byte) error
	// Events takes new log events (a JSON list), checked in order: seq
	// following the last (no gap), an event delivered again exactly the
	// one accepted. It returns how many were new, how many are accepted
	// in all, and the problem in force.
	Events(list []byte) (added, checked int, err error)
	// Legal returns the actions uid may send now, as a JSON list ("[]"
	// for none, before a document, or after a problem), the fairness
	// protocols' kinds left out (the page holds no chain, key or
	// contribution).
	Legal(uid string) []byte
	// Marks takes the open round's reveal markers (a JSON list) as read
	// and checks them against the replay; the error is the problem in
	// force.
	Marks(list []byte) error
	// TakeSeat makes this player's seat of a trustless game from its
	// secrets (JSON, the key's seed left out, with the seat's public
	// key) and returns the head of its chain. Its errors do not stick.
	TakeSeat(secrets []byte) (head string, err error)
	// SignBytes returns the bytes the seat signs for an action (JSON),
	// once the seat is taken. Its errors do not stick.
	SignBytes(action []byte) ([]byte, error)
	// Reveal returns the reveal the checked game waits for from this
	// seat (None when it waits for none, or no seat is taken); an error
	// is the problem in force (what the server shows that the log does
	// not make sticks).
	Reveal() (StoredReveal, error)
	// ActReveal returns the reveal to send with this seat's signed action
	// (JSON) if the action draws (None if it draws nothing). Its errors,
	// but the one in force, do not stick: no seat, a game not checked up
	// to its document, not an action, or one the replay refuses.
	ActReveal(action []byte) (StoredReveal, error)
	// Err returns the first problem found, or nil.
	Err() error
}

// StoredReveal is a reveal a StoredFollower makes: its action (JSON,
// without the signature), the bytes the signature covers, its index and
// digest; or None.
type StoredReveal struct {
	None    bool
	Action  []byte
	Message []byte
	Index   int
	Digest  string
}
