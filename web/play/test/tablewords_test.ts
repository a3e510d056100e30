// The generic board's words, run by Node (TestTableWordsInNode): the log
// events, the moves' labels and the public state's rows of a table game.

import { describeTableEvent, gameLabel, isTableView, moveDoc, moveLabel, outcomeLine, seatName, stateRows, uidName, words, type TableView } from "../src/tablewords";

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  check(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const seats = [{ uid: "alice", options: [] }, { uid: "bob", options: [] }];
const name = seatName(seats, 1);
eq(name(0), "Seat 1 · alice", "a seat by its number from 1 and its uid");
eq(name(1), "Seat 2 · bob (you)", "the reader's own seat");
eq(seatName([{ uid: "", options: null }], -1)(0), "Seat 1", "a free seat");

eq(words("turnTotal"), "turn total", "camel case in words");
eq(words("dieSides"), "die sides", "camel case in words");
eq(words("GameStarted"), "game started", "an event type in words");

// Pig's events in its own words.
eq(describeTableEvent({ seq: 5, type: "Rolled", game: true, seat: 0, value: 5, turnTotal: 8 }, "pig", name), "Seat 1 · alice rolled 5 (turn total 8)", "a roll");
eq(describeTableEvent({ seq: 6, type: "Rolled", game: true, seat: 1, value: 1, turnTotal: 0 }, "pig", name), "Seat 2 · bob (you) rolled 1", "a roll of 1");
eq(describeTableEvent({ seq: 7, type: "Busted", game: true, seat: 1, lost: 9 }, "pig", name), "Seat 2 · bob (you) lost the turn total of 9", "a bust");
eq(describeTableEvent({ seq: 7, type: "Busted", game: true, seat: 0, lost: 0 }, "pig", name), "Seat 1 · alice ends the turn with nothing", "a bust at 0");
eq(describeTableEvent({ seq: 8, type: "Held", game: true, seat: 0, banked: 21 }, "pig", name), "Seat 1 · alice held: banked 21", "a hold");
eq(describeTableEvent({ seq: 9, type: "Won", game: true, seat: 0, score: 102 }, "pig", name), "Seat 1 · alice won with 102", "the win");
eq(describeTableEvent({ seq: 4, type: "GameStarted", game: true, seats: 2, goal: 100, dieSides: 6 }, "pig", name),
  "The game starts: 2 players, first to 100 wins, a 6-sided die.", "the start");
// Leduc's events in its own words, its cards by name.
eq(describeTableEvent({ seq: 5, type: "Dealt", game: true, to: 1, card: 5 }, "leduc", name), "Your card: Kh", "a private card");
eq(describeTableEvent({ seq: 6, type: "Checked", game: true, seat: 0 }, "leduc", name), "Seat 1 · alice checked", "a check");
eq(describeTableEvent({ seq: 7, type: "Raised", game: true, seat: 1, pot: 4 }, "leduc", name), "Seat 2 · bob (you) raised (pot 4)", "a raise");
eq(describeTableEvent({ seq: 8, type: "Called", game: true, seat: 0, pot: 6 }, "leduc", name), "Seat 1 · alice called (pot 6)", "a call");
eq(describeTableEvent({ seq: 9, type: "PublicCard", game: true, card: 2 }, "leduc", name), "The public card: Qs", "the public card");
eq(describeTableEvent({ seq: 10, type: "Showdown", game: true, card0: 0, card1: 5 }, "leduc", name), "Showdown: Seat 1 · alice shows Js, Seat 2 · bob (you) shows Kh", "a showdown, its players named");
eq(describeTableEvent({ seq: 11, type: "Won", game: true, seat: 1, pot: 6 }, "leduc", name), "Seat 2 · bob (you) won the pot of 6", "the win");
eq(describeTableEvent({ seq: 11, type: "Split", game: true, pot: 10 }, "leduc", name), "Equal ranks: the pot of 10 is split", "a split");
eq(describeTableEvent({ seq: 12, type: "Folded", game: true, seat: 0 }, "leduc", name), "Seat 1 · alice folded", "a fold");
// Kuhn's own words: its cards by name (0 J, 1 Q, 2 K), never "card0 2".
eq(describeTableEvent({ seq: 5, type: "Dealt", game: true, to: 1, card: 2 }, "kuhn", name), "Your card: K", "Kuhn: a private card");
eq(describeTableEvent({ seq: 6, type: "Passed", game: true, seat: 0, pot: 2 }, "kuhn", name), "Seat 1 · alice passed (pot 2)", "Kuhn: a pass");
eq(describeTableEvent({ seq: 7, type: "Bet", game: true, seat: 1, pot: 3 }, "kuhn", name), "Seat 2 · bob (you) bet (pot 3)", "Kuhn: a bet");
eq(describeTableEvent({ seq: 8, type: "Called", game: true, seat: 0, pot: 4 }, "kuhn", name), "Seat 1 · alice called (pot 4)", "Kuhn: a call");
eq(describeTableEvent({ seq: 8, type: "Folded", game: true, seat: 0 }, "kuhn", name), "Seat 1 · alice folded", "Kuhn: a fold");
eq(describeTableEvent({ seq: 9, type: "Showdown", game: true, card0: 1, card1: 2 }, "kuhn", name), "Showdown: Seat 1 · alice shows Q, Seat 2 · bob (you) shows K", "Kuhn: the showdown");
eq(describeTableEvent({ seq: 10, type: "Won", game: true, seat: 1, pot: 4 }, "kuhn", name), "Seat 2 · bob (you) won the pot of 4", "Kuhn: the win");
// A trustless table's protocol events, in words.
const byName = uidName({ alice: "Alice", bob: "Bob" });
eq(describeTableEvent({ seq: 6, type: "Pending", index: 3, seat: 0, uid: "alice" }, "pig", name, byName), "Seat 1 · alice moved: the move waits for reveal round 3", "a move pending its round");
eq(describeTableEvent({ seq: 6, type: "Pending", index: 0, seat: 1, uid: "bob" }, "kuhn", name, byName), "Seat 2 · bob (you) moved: the move waits for the players' keys of the cards it shows", "a move pending the deal's keys");
eq(describeTableEvent({ seq: 7, type: "Revealed", index: 3, seat: 1, uid: "bob" }, "pig", name, byName), "Seat 2 · bob (you) revealed a link for reveal round 3", "a reveal");
eq(describeTableEvent({ seq: 8, type: "RoundClosed", index: 3 }, "pig", name, byName), "Reveal round 3: every player's link is revealed; the draw follows", "a round closed");
eq(describeTableEvent({ seq: 9, type: "Aborted", index: 4, uid: "alice", options: ["deadline", "bob"] }, "pig", name, byName), "The game ended at reveal round 4: no reveal came from Bob by the deadline", "an abort at the deadline");
eq(describeTableEvent({ seq: 9, type: "Aborted", index: 0, options: ["chainExhausted"] }, "pig", name, byName), "The game ended: a move needed more rounds than the players' chains hold", "an abort: the chains used up");
eq(describeTableEvent({ seq: 9, type: "Aborted", index: 0, uid: "alice", options: ["unopened", "bob"] }, "pig", name, byName), "The table ended before its start: Bob did not open their contribution by the deadline", "an abort of a table with openings");
eq(describeTableEvent({ seq: 8, type: "Opened", uid: "bob" }, "pig", name, byName), "Bob opened their contribution", "an opening");
eq(describeTableEvent({ seq: 9, type: "DealSettled", uid: "bob", options: ["settled"] }, "kuhn", name, byName), "The hand is settled: every player's keys are in and the deal checks", "a hand settled");
eq(describeTableEvent({ seq: 5, type: "DeckCommitted", k: 0, cards: 3, options: ["kuhn", "kuhn.deal", "3fad73aff5a021c98ba103289feedad7598836c95743e319eb71c056ff37d359"] }, "kuhn", name, byName), "The deck kuhn was shuffled (3 cards): its order is committed as 3fad73aff5a021c9…, opened at the end", "a deck's commitment");
eq(describeTableEvent({ seq: 9, type: "DealSettled", uid: "alice", options: ["deadline", "bob"] }, "kuhn", name, byName), "The hand ended: no pass or key came from Bob by the deadline, who loses what they had put in", "a hand forfeited at the deadline");
eq(describeTableEvent({ seq: 9, type: "DealSettled", uid: "alice", options: ["cheat", "alice"] }, "kuhn", name, byName), "The hand ended: a pass or key from Alice did not check, who loses the most the hand could cost", "a hand forfeited by a bad key");
// A game without a phrasebook: the definition's names in words.
eq(describeTableEvent({ seq: 12, type: "Rolled", game: true, seat: 0, value: 5, turnTotal: 8 }, "other", name), "Rolled: Seat 1 · alice, value 5, turn total 8", "the generic words");
eq(describeTableEvent({ seq: 13, type: "CardPlayed", game: true, to: 1, seat: 1, cardId: 7 }, "other", name), "Card played: Seat 2 · bob (you), card id 7", "an addressed event");
eq(describeTableEvent({ seq: 14, type: "Addressed", seat: 0 }, "kuhn", name), "Seat 1 · alice was told something only they can see", "the trace of an event addressed to another seat");
eq(describeTableEvent({ seq: 14, type: "Shuffled", game: true }, "other", name), "Shuffled", "an event with no field");
// The table's own events.
eq(describeTableEvent({ seq: 1, type: "TableCreated", seats: 2, uid: "alice" }, "pig", name), "alice created the table (2 seats)", "created");
eq(describeTableEvent({ seq: 2, type: "Joined", seat: 1, uid: "bob", options: [] }, "pig", name), "bob took seat 2", "joined");
eq(describeTableEvent({ seq: 2, type: "Joined", seat: 0, uid: "carol", options: ["monk"] }, "x", name), "carol took seat 1 (monk)", "joined with options");
eq(describeTableEvent({ seq: 3, type: "Started" }, "pig", name), "The game started", "started");
eq(describeTableEvent({ seq: 3, type: "Abandoned", uid: "alice" }, "pig", name), "The owner abandoned the game", "abandoned");
eq(describeTableEvent({ seq: 3, type: "Abandoned", uid: "@server", options: ["idle"] }, "pig", name), "The server closed the table: nobody acted at it for too long", "closed as idle");

// Moves.
eq(moveLabel({ kind: "roll" }), "Roll", "a move without arguments");
eq(moveLabel({ kind: "placeBet", amount: 3, slot: 1 }), "Place bet (amount 3, slot 1)", "a move with arguments");
const kinds = [{ name: "roll", doc: "roll the die", args: [] }];
eq(moveDoc({ kind: "roll" }, kinds), "roll the die", "a kind's doc");
eq(moveDoc({ kind: "hold" }, kinds), "", "no doc");

// The public state: Pig's labels, a row per seat for a per-seat array.
const pig = stateRows({ banked: [12, 30], turn: 1, turnTotal: 8, turns: 7, over: false }, "pig", 2, name);
eq(pig.map((r) => [r.key, r.label, r.value, r.seat]), [
  ["banked.0", "Score", "12", 0],
  ["banked.1", "Score", "30", 1],
  ["turn", "To move", "Seat 2 · bob (you)", -1],
  ["turnTotal", "Turn total", "8", -1],
  ["turns", "Turns played", "7", -1],
], "Pig's state");
check(pig.find((r) => r.key === "turn")?.toMove === true && !pig.some((r) => r.key !== "turn" && r.toMove), "the seat to move is marked as such");
// Leduc's labels, by path in the seat's view; the seat to move by name.
const leduc = stateRows({ public: { round: 2, round1: "rc", round2: "", publicCard: "Js", in: [3, 3], pot: 6, toMove: 0, shown: ["Kh", "Jh"] }, private: { card: "Jh" } }, "leduc", 2, name);
eq(leduc.map((r) => [r.key, r.label, r.value, r.seat]), [
  ["public.round", "Round", "2", -1],
  ["public.round1", "Round 1 betting", "raise, call", -1],
  ["public.round2", "Round 2 betting", "—", -1],
  ["public.publicCard", "Public card", "Js", -1],
  ["public.in.0", "Chips in", "3", 0],
  ["public.in.1", "Chips in", "3", 1],
  ["public.pot", "Pot", "6", -1],
  ["public.toMove", "To move", "Seat 1 · alice", -1],
  ["public.shown.0", "Shown", "Kh", 0],
  ["public.shown.1", "Shown", "Jh", 1],
  ["private.card", "Your card", "Jh", -1],
], "Leduc's state");
check(leduc.find((r) => r.key === "public.toMove")?.toMove === true, "Leduc's seat to move is marked as such");
// A round's 'c' is a check until someone raises, a call after (the log
// says "checked" and "called" so); a round that went check, check said
// "call, call".
const rounds = stateRows({ public: { round: 2, round1: "crc", round2: "cc" } }, "leduc", 2, name);
eq(rounds.filter((r) => r.key.startsWith("public.round") && r.key !== "public.round").map((r) => r.value), ["check, raise, call", "check, check"], "Leduc's checks and calls");
// A spectator's state is the public part alone: the same labels (it said
// "Round1", "In" and "To move 0").
const watched = stateRows({ round: 1, round1: "", round2: "", publicCard: null, in: [1, 1], pot: 2, toMove: 0 }, "leduc", 2, name);
eq(watched.map((r) => [r.label, r.value]), [
  ["Round", "1"],
  ["Round 1 betting", "—"],
  ["Round 2 betting", "—"],
  ["Public card", "—"],
  ["Chips in", "1"],
  ["Chips in", "1"],
  ["Pot", "2"],
  ["To move", "Seat 1 · alice"],
], "Leduc's state as a spectator reads it");
eq(stateRows({ history: "p", pot: 2, toMove: 1 }, "kuhn", 2, name).map((r) => [r.label, r.value]), [
  ["Betting", "pass"],
  ["Pot", "2"],
  ["To move", "Seat 2 · bob (you)"],
], "Kuhn's state as a spectator reads it");
// Kuhn's: the betting and the cards in words, the seat to move by name
// (it said "To move 0" and "History pb").
const kuhn = stateRows({ public: { history: "pb", pot: 3, toMove: 0, shown: [2, 0] }, private: { card: 1 } }, "kuhn", 2, name);
eq(kuhn.map((r) => [r.key, r.label, r.value, r.seat]), [
  ["public.history", "Betting", "pass, bet", -1],
  ["public.pot", "Pot", "3", -1],
  ["public.toMove", "To move", "Seat 1 · alice", -1],
  ["public.shown.0", "Shown", "K", 0],
  ["public.shown.1", "Shown", "J", 1],
  ["private.card", "Your card", "Q", -1],
], "Kuhn's state");
eq(stateRows({ public: { history: "", pot: 2, toMove: 1 }, private: { card: 0 } }, "kuhn", 2, name).map((r) => r.value), ["—", "2", "Seat 2 · bob (you)", "J"], "Kuhn before any bet");
// Leduc with more seats names its cards from a longer deck (2(n+1) cards,
// the n+1 highest ranks up to the King): with three seats card 0 is Ts,
// with ten 3s (games/leduc NameCard).
const three = seatName([...seats, { uid: "carol", options: [] }], 1);
eq(describeTableEvent({ seq: 5, type: "Dealt", game: true, to: 1, card: 0 }, "leduc", three, uidName(), 3), "Your card: Ts", "three seats' lowest card");
eq(describeTableEvent({ seq: 5, type: "Dealt", game: true, to: 1, card: 7 }, "leduc", three, uidName(), 3), "Your card: Kh", "three seats' highest card");
eq(describeTableEvent({ seq: 5, type: "Dealt", game: true, to: 1, card: 3 }, "leduc", three, uidName(), 3), "Your card: Jh", "three seats' fourth card");
eq(describeTableEvent({ seq: 5, type: "PublicCard", game: true, card: 0 }, "leduc", three, uidName(), 10), "The public card: 3s", "ten seats' lowest card");
eq(describeTableEvent({ seq: 9, type: "Shown", game: true, seat: 2, card: 6 }, "leduc", three, uidName(), 3), "Seat 3 · carol shows Ks", "a card shown at a three-seat showdown");
eq(describeTableEvent({ seq: 10, type: "Shared", game: true, seat: 0, pot: 7 }, "leduc", three, uidName(), 3), "Seat 1 · alice has one of the best hands and shares the pot of 7", "a share");
// Any game's: field names in words, nested objects by path.
const other = stateRows({ pot: 40, board: { cells: [1, 2, 3] }, done: true, who: "x" }, "other", 2, name);
eq(other.map((r) => [r.label, r.value]), [["Pot", "40"], ["Board cells 1", "1"], ["Board cells 2", "2"], ["Board cells 3", "3"], ["Done", "yes"], ["Who", "x"]], "a generic state");
eq(stateRows(null, "pig", 2, name), [], "no state before the start");

// The outcome, to each reader.
const view = (seat: number, outcome: TableView["outcome"]): TableView => ({ game: "pig", gameId: "g", mode: "crypto", owner: "alice", phase: "finished", version: 9, seats, seat, toMove: -1, state: null, legal: [], log: [], outcome });
eq(outcomeLine(view(0, { abandoned: false, winners: [0], payoffs: [1, 0] }), seatName(seats, 0)), "You won.", "the winner");
eq(outcomeLine(view(1, { abandoned: false, winners: [0], payoffs: [1, 0] }), seatName(seats, 1)), "Seat 1 · alice won.", "the other");
eq(outcomeLine(view(1, { abandoned: true, winners: [], payoffs: [0, 0] }), seatName(seats, 1)), "The game was abandoned: no winner.", "abandoned");
eq(outcomeLine(view(1, { abandoned: true, winners: [], payoffs: [0, 0], reason: "idle" }), seatName(seats, 1)), "The table was closed: nobody acted at it for too long. No winner.", "closed as idle");
eq(
  outcomeLine(view(0, { abandoned: true, winners: [], payoffs: [0, 0], reason: "unopened", missing: [1] }), seatName(seats, 0)),
  "The table ended before its start: Seat 2 · bob did not open the contribution committed to at the join by the deadline. No winner.",
  "ended: a seat did not open",
);
// With the game's names: players by name (untrusted text, kept as it
// is), the reader's "(you)", the uid where no name is known.
const names = { alice: "Alice", bob: "<b>Bob</b>" };
const named = seatName(seats, 1, names);
eq(named(0), "Alice", "a seat by its player's name");
eq(named(1), "<b>Bob</b> (you)", "the reader's own seat, by name");
eq(seatName(seats, 1, { alice: "Alice" })(1), "Seat 2 · bob (you)", "a seat whose name is not known yet");
const who = uidName(names);
eq(describeTableEvent({ seq: 2, type: "Joined", seat: 1, uid: "bob" }, "pig", named, who), "<b>Bob</b> took seat 2", "a join by name");
eq(describeTableEvent({ seq: 1, type: "TableCreated", seats: 2, uid: "carol" }, "pig", named, who), "carol created the table (2 seats)", "an account with no name by its uid");
eq(describeTableEvent({ seq: 5, type: "Rolled", game: true, seat: 0, value: 5, turnTotal: 8 }, "pig", named, who), "Alice rolled 5 (turn total 8)", "a roll by name");
eq(outcomeLine(view(1, { abandoned: false, winners: [0], payoffs: [1, 0] }), named), "Alice won.", "the other, by name");
eq(outcomeLine(view(0, { abandoned: false, winners: [0], payoffs: [1, 0] }), seatName(seats, 0, names)), "You won.", "the winner, named or not");
check(isTableView(view(0, null)) && !isTableView({ state: {}, events: [] }) && !isTableView(null), "a table's view names its game");
eq(gameLabel({ name: "pig" }), "Pig", "a game's name in the lobby");
console.log("ok");
