package game

// Nobody is what State.ToMove returns when no seat is to move: the game is
// over.
const Nobody = -1

// All is the Event.To of an event for every seat: the public log.
const All = -1

// Definition is a game: everything the machinery knows of it. Its methods
// are safe for concurrent use (a definition holds no game).
type Definition interface {
	// Name is the game's registry name: lower-case letters, digits and
	// '-', unique among the registered games.
	Name() string
	// DefaultRuleset returns the ruleset a game gets when none is given.
	DefaultRuleset() Ruleset
	// DecodeRuleset decodes a ruleset strictly: an unknown field, a
	// missing field, trailing data or a number outside its Param's range
	// is an *Error with CodeBadRuleset naming the problem.
	DecodeRuleset(data []byte) (Ruleset, error)
	// Params names the ruleset's numbers a designer may sweep, rank and
	// tune, by JSON path, with their ranges (see [Number], [WithNumber]).
	Params() []Param
	// Seats says how many seats a game takes and the options a seat
	// picks when it joins.
	Seats() Seats
	// Kinds lists the move kinds with their argument schemas.
	Kinds() []KindSpec
	// EventTypes lists the event types with the names of their values.
	EventTypes() []EventSpec
	// Styles lists the game's heuristic bot styles (none is fine).
	Styles() []Style
	// Setup returns the first state of a game under r (a ruleset of this
	// definition) with one seat per element of seats, drawing any
	// randomness from rnd and appending its events to ev. A seat count
	// outside Seats().Min..Max, or an option that is not one of its
	// SeatOption's values, is an *Error with CodeBadSetup.
	Setup(r Ruleset, seats []Seat, rnd Rand, ev []Event) (State, []Event, error)
}

// State is one game in progress. Its methods are not safe for concurrent
// use; Clone gives another goroutine its own.
//
// A state has three parts: public (every seat and spectator may read it),
// private to each seat (that seat alone), and secret (the server alone).
// A seat's view is a function of the public part and its own private part
// only; the machinery's contract suite checks that it is.
type State interface {
	// NumSeats is the number of seats, fixed at setup.
	NumSeats() int
	// ToMove is the seat whose move the game awaits, or Nobody once it
	// is over.
	ToMove() int
	// Legal appends to buf[:0] every move seat may make now, in a fixed
	// order, computed from that seat's view only (the public part and
	// its own private part): none when it is not the seat's move.
	Legal(seat int, buf []Move) []Move
	// Apply applies m, drawing randomness only from rnd, in the game's
	// canonical entropy order, and appends the events to ev. It accepts
	// exactly the moves Legal lists for m.Seat. On refusal it returns
	// an *Error and ev unchanged, having changed nothing and drawn
	// nothing: it validates in full before it draws or mutates.
	Apply(m Move, rnd Rand, ev []Event) ([]Event, error)
	// Outcome says whether the game is over and, if so, its winners (in
	// seat order; none for a game nobody won) and a payoff per seat.
	Outcome() Outcome
	// AbortPayoffs returns the payoff per seat of a game stopped before
	// its end (abandoned, or a trustless game past its chains).
	AbortPayoffs() []float64
	// Check returns an error naming every broken invariant of the
	// state, or nil.
	Check() error
	// Clone returns a deep copy: nothing the copy does reaches s.
	Clone() State
	// AppendPublic, AppendPrivate and AppendSecret append the canonical
	// bytes of the three parts (empty for a part the game has not).
	AppendPublic(b []byte) []byte
	AppendPrivate(b []byte, seat int) []byte
	AppendSecret(b []byte) []byte
	// AppendView appends the canonical bytes of what seat may see.
	AppendView(b []byte, seat int) []byte
	// AppendInfoKey appends seat's information-state key: two states
	// with the same key are indistinguishable to seat (OpenSpiel's
	// InformationStateString).
	AppendInfoKey(b []byte, seat int) []byte
	// Sample returns a new state with the same view for seat, whose
	// hidden part (other seats' private parts, the secret part) is dealt
	// from rnd consistently with that view (OpenSpiel's
	// ResampleFromInfostate). A game without hidden parts returns a
	// clone and draws nothing.
	Sample(seat int, rnd Rand) State
	// ChanceOutcomes lists the outcomes of the random step that the
	// legal move m makes, each as the values rnd returns, in call order,
	// and its probability (they sum to 1); none (and true) for a move
	// that draws nothing; false when they cannot be listed.
	ChanceOutcomes(m Move) ([]Chance, bool)
}

// Outcome is how a game ended.
type Outcome struct {
	Over    bool
	Winners []int     // seats, ascending
	Payoffs []float64 // one per seat
}

// Chance is one outcome of a random step: the values a [Scripted] rand
// returns to reach it, and its probability.
type Chance struct {
	Draws []int64
	P     float64
}

// Seats is what a game takes in seats.
type Seats struct {
	Min, Max, Default int
	// Options are what each seat picks when it joins (the dungeon's
	// class); none for Pig.
	Options []SeatOption
}

// SeatOption is one choice a seat makes at join.
type SeatOption struct {
	Name   string
	Values []string
	Doc    string
}

// Seat is one seat at setup: a value of each of Seats().Options, in order.
type Seat struct {
	Options []string
}

// KindSpec is a move kind and its argument schema.
type KindSpec struct {
	Name string
	Args []ArgSpec // at most MaxArgs
	Doc  string
	// Forfeit marks a move that gives something up for good (poker's
	// fold): a page offers it after the others, so that the first
	// button, which takes the focus and which Enter presses, is never
	// it. It changes nothing in the rules.
	Forfeit bool
}

// ArgSpec is one integer argument of a move kind, within [Min, Max].
type ArgSpec struct {
	Name     string
	Min, Max int64
}

// EventSpec is an event type and the names of its values, in order.
type EventSpec struct {
	Type   string
	Fields []string // at most MaxVals
	Doc    string
}

// Param is a ruleset number a designer may sweep: its JSON path (keys
// joined by '.'), its default and its range [Min, Max].
type Param struct {
	Path     string
	Default  float64
	Min, Max float64
	Integer  bool
	Doc      string
}

// Style is a heuristic bot style of a game, named "NAME" or "NAME:N" when
// it takes a parameter (Param non-empty) in [Min, Max], Default if omitted.
type Style struct {
	Name              string
	Param             string
	Default, Min, Max int
	Doc               string
	New               func(n int) Policy
}

// Policy chooses a move for seat, which the game awaits, among legal (the
// state's own list, never empty). It reads only what the seat may see,
// draws no randomness, and returns one of legal.
type Policy interface {
	Choose(s State, seat int, legal []Move) Move
}

// DirectPolicy is a Policy that can choose without the legal list: a
// heuristic that builds its move from the state (as the dungeon's engine
// bots do). The machinery may call ChooseDirect instead of listing the
// seat's legal moves for it; the move must be legal, since Apply refuses
// any other (a policy's bug, then, is the game's refusal). ChooseDirect
// chooses as Choose would over the legal list.
type DirectPolicy interface {
	Policy
	ChooseDirect(s State, seat int) Move
}

// Quieter is implemented by a State that can skip building the events of
// its moves. The machinery calls Quiet once, after Setup, on a state whose
// events nobody will read (a lean match: a simulation's), and from then
// on Apply may append no event. A quiet state plays exactly as before:
// the same draws in the same order, the same legal moves, whose turn and
// outcome; only its events, and what the game keeps for a verifier alone
// (its secret part's records), may be left out. Its clones are not quiet.
type Quieter interface {
	Quiet()
}

// Resetter is implemented by a State that can set a new game up in its
// own memory, as a simulation that plays game after game wants: the
// machinery calls SetupAgain on the finished state of the game before
// (a lean match's, match.Match.Reset), never on a state anyone else
// holds. SetupAgain(r, seats, rnd, ev) must leave the state as
// Definition.Setup(r, seats, rnd, ev) would make it, with the same draws
// in the same order and the same refusals, and return the same events;
// a quiet state (Quieter) stays quiet and may return none. On refusal the
// state is unusable until a SetupAgain succeeds.
type Resetter interface {
	SetupAgain(r Ruleset, seats []Seat, rnd Rand, ev []Event) ([]Event, error)
}
