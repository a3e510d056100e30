// The board registry and what the games' own boards read from a view,
// run by Node (TestBoardsInNode): a game without a board of its own is
// drawn on the generic board; Pig's, Kuhn's and Leduc's boards read the
// values written by hand below from the views getView answers.

import { boardFor, genericBoard, seenEvents } from "../src/boards";
import { cardWords } from "../src/boardparts";
import { pigBoard, pigGoal, pigModel } from "../src/pigboard";
import { cardName, kuhnBoard, leducBoard, pokerModel } from "../src/pokerboard";
import { eightsBoard, eightsModel, eightsMoveLabel } from "../src/eightsboard";
import { eightsCard, eightsRanks } from "../src/eightscards";
import { describeTableEvent, seatName, type TableEvent, type TableView } from "../src/tablewords";

function eq(got: unknown, want: unknown, what: string): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`FAIL: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// The registry: the three games' own boards; any other name, the
// generic one (a game without a renderer still plays).
eq(boardFor("pig") === pigBoard, true, "Pig's board");
eq(boardFor("kuhn") === kuhnBoard, true, "Kuhn's board");
eq(boardFor("leduc") === leducBoard, true, "Leduc's board");
eq(boardFor("eights") === eightsBoard, true, "Crazy Eights' board");
for (const g of ["dice-race", "", "toString", "__proto__", "constructor"]) {
  eq(boardFor(g) === genericBoard, true, `no board of its own: ${JSON.stringify(g)} plays on the generic board`);
}
eq(genericBoard.own, false, "the generic board is not a game's own");
eq([pigBoard, kuhnBoard, leducBoard].every((b) => b.own), true, "the games' own boards say so");

const seats = [{ uid: "ada", options: [] }, { uid: "ben", options: [] }];
const view = (game: string, state: unknown, more: Partial<TableView> = {}): TableView => ({
  game, gameId: "g", mode: "crypto", owner: "ada", phase: "playing", version: 9, seats, seat: 1, toMove: 0,
  state, legal: [], log: [], outcome: null, ...more,
});
const name = seatName(seats, 1);
const ev = (seq: number, type: string, fields: Record<string, unknown>): TableEvent => ({ seq, type, game: true, ...fields });

// Events are given in the order of their seqs, whatever order they came in.
eq(seenEvents(new Map([[7, ev(7, "B", {})], [3, ev(3, "A", {})]])).map((e) => e.seq), [3, 7], "events by seq");

// Pig: the goal from the ruleset, else from the start's event.
eq(pigGoal({ goal: 50, dieSides: 6 }, []), 50, "the ruleset's goal");
eq(pigGoal(null, [ev(4, "GameStarted", { seats: 2, goal: 30, dieSides: 6 })]), 30, "the start's goal");
eq(pigGoal(null, []), null, "no goal known");
// Ada (seat 0) banked 21 and rolled 3 then 5 this turn (turn total 8).
const pigEvents = [ev(4, "GameStarted", { seats: 2, goal: 100, dieSides: 6 }), ev(5, "Rolled", { seat: 0, value: 3, turnTotal: 3 }), ev(6, "Rolled", { seat: 0, value: 5, turnTotal: 8 })];
const pig = pigModel(view("pig", { banked: [21, 40], turn: 0, turnTotal: 8, turns: 3, over: false }), pigEvents, { goal: 100, dieSides: 6 });
eq(pig.goal, 100, "Pig's goal");
eq(pig.seats.map((s) => s.banked), [21, 40], "Pig's banked scores");
eq(pig.seats.map((s) => [s.toMove, s.me]), [[true, false], [false, true]], "Ada to move, Ben reads");
eq([pig.turnTotal, pig.toMove], [8, 0], "Pig's turn total and the seat to move");
eq(pig.lastRoll, { seat: 0, value: 5 }, "the last die: Ada's 5");
const over = pigModel(view("pig", { banked: [101, 40], turn: 0, turnTotal: 0, turns: 9, over: true }, { phase: "finished" }), pigEvents, null);
eq([over.toMove, over.seats[0]!.toMove, over.goal], [-1, false, 100], "over: nobody to move; the goal from the log");
eq(pigModel(view("pig", null, { phase: "lobby" }), [], null).started, false, "Pig before its start");

// Cards in words.
eq(cardWords("Kh"), "King of hearts", "Leduc's King of hearts");
eq(cardWords("Ts"), "Ten of spades", "a ten");
eq(cardWords("Q"), "Queen", "Kuhn's Queen");
eq(cardWords("zz"), "zz", "a name it does not know");
eq(cardName("kuhn", 2, 2), "K", "Kuhn's card 2");
eq(cardName("kuhn", -1, 2), null, "Kuhn's closed card");
eq(cardName("leduc", 5, 2), "Kh", "Leduc's card 5 of two seats");
eq(cardName("leduc", "-", 2), null, "Leduc's closed card");

// Kuhn: Ben (seat 1) holds the Queen; Ada passed, Ben bet: pot 3.
const kuhnEvents = [ev(5, "Dealt", { to: 1, card: 1 }), ev(6, "Passed", { seat: 0, pot: 2 }), ev(7, "Bet", { seat: 1, pot: 3 })];
const kuhn = pokerModel("kuhn", view("kuhn", { public: { history: "pb", pot: 3, toMove: 0 }, private: { card: 1 } }), kuhnEvents, name, null);
eq(kuhn.seats.map((s) => s.card), [null, "Q"], "Kuhn: Ben's own card face up, Ada's face down");
eq([kuhn.pot, kuhn.publicCard, kuhn.round, kuhn.betting], [3, undefined, "Betting", "pass, bet"], "Kuhn's pot and betting");
eq(kuhn.seats.map((s) => [s.action, s.toMove, s.chipsIn]), [["passed", true, null], ["bet", false, null]], "Kuhn's seats");
// The showdown: both cards face up.
const shown = pokerModel("kuhn", view("kuhn", { public: { history: "pbc", pot: 4, toMove: 0, shown: [2, 1] }, private: { card: 1 } }, { phase: "finished" }), kuhnEvents, name, null);
eq(shown.seats.map((s) => [s.card, s.toMove]), [["K", false], ["Q", false]], "Kuhn's showdown");
// Trustless: the server's card is closed (-1); the card opened on the
// device is shown, and none ("being dealt") before it is open.
const trust = (opened: number[] | null) => pokerModel("kuhn", view("kuhn", { public: { history: "", pot: 2, toMove: 0 }, private: { card: -1 } }, { mode: "trustless" }), [], name, opened);
eq([trust(null).seats[1]!.card, trust(null).dealing], [null, true], "trustless: not open yet");
eq([trust([2]).seats[1]!.card, trust([2]).dealing], ["K", false], "trustless: the card opened on the device");

// Leduc, round 2: Ada raised and Ben called in round 1; the public card
// is the Queen of spades; Ben holds the King of hearts; chips in 3 each.
const leduc = pokerModel("leduc", view("leduc", { public: { round: 2, round1: "rc", round2: "", publicCard: "Qs", in: [3, 3], pot: 6, toMove: 0 }, private: { card: "Kh" } }),
  [ev(6, "Raised", { seat: 0, pot: 4 }), ev(7, "Called", { seat: 1, pot: 6 }), ev(8, "PublicCard", { card: 2 })], name, null);
eq([leduc.publicCard, leduc.pot, leduc.round, leduc.betting], ["Qs", 6, "Round 2 of 2", "no bet yet"], "Leduc's middle in round 2");
eq(leduc.seats.map((s) => [s.card, s.chipsIn, s.action]), [[null, 3, "raised"], ["Kh", 3, "called"]], "Leduc's seats");
const leduc1 = pokerModel("leduc", view("leduc", { public: { round: 1, round1: "r", round2: "", publicCard: null, in: [3, 1], pot: 4, toMove: 1 }, private: { card: "Js" } }), [], name, null);
eq([leduc1.publicCard, leduc1.round, leduc1.betting], [null, "Round 1 of 2", "raise"], "Leduc in round 1: no public card yet");
// A spectator reads the public part alone, with a fold at three seats.
const three = [...seats, { uid: "cy", options: [] }];
const spect = pokerModel("leduc", view("leduc", { round: 1, round1: "rf", round2: "", publicCard: null, in: [3, 1, 1], folded: [false, true, false], pot: 5, toMove: 2, shown: null }, { seats: three, seat: -1, spectating: true }), [], seatName(three, -1), null);
eq(spect.seats.map((s) => [s.card, s.folded, s.me, s.chipsIn]), [[null, false, false, 3], [null, true, false, 1], [null, false, false, 1]], "a spectator: every card face down");

// Crazy Eights: card c of R ranks is rank c%R+1 of suit floor(c/R)
// (spades, hearts, diamonds, clubs), worked by hand: with 8 ranks, 0 is
// the ace of spades, 7 the eight of spades, 8 the ace of hearts, 31 the
// eight of clubs; with 13, 9 is the ten of spades, 12 its king, 51 the
// king of clubs.
eq([0, 7, 8, 13, 31].map((c) => eightsCard(c, 8)), ["As", "8s", "Ah", "6h", "8c"], "8 ranks");
eq([9, 10, 12, 13, 51].map((c) => eightsCard(c, 13)), ["Ts", "Js", "Ks", "Ah", "Kc"], "13 ranks");
eq([-1, 32, 1.5, "3", null].map((c) => eightsCard(c, 8)), [null, null, null, null, null], "no card");
eq([eightsRanks({ ranks: 13, suits: 4 }), eightsRanks('{"ranks":9}'), eightsRanks(null), eightsRanks({ ranks: 20 }), eightsRanks("{")], [13, 9, 8, 8, 8], "the ranks");
eq([cardWords("As"), cardWords("2d"), cardWords("Th")], ["Ace of spades", "Two of diamonds", "Ten of hearts"], "cards in words");
// Ben (seat 1) holds the 7 of hearts (14), the 8 of spades (7) and the
// ace of clubs (24); the top card is the 7 of spades (6), spades in
// force; Ada holds 4 cards; 20 cards to draw, 2 discarded.
const eightsView = view("eights", { public: { top: 6, suit: 0, toMove: 1, hands: [4, 3], stock: 20, discards: [3, 6], moves: 5, passes: 0, winner: -1, ended: 0 }, private: { hand: [14, 7, 24] } }, { toMove: 1 });
eq(eightsModel(eightsView, { ranks: 8, suits: 4 }), {
  started: true, top: "7s", suit: "spades", hand: ["7h", "8s", "Ac"],
  seats: [{ seat: 0, cards: 4, me: false, toMove: false }, { seat: 1, cards: 3, me: true, toMove: true }],
  stock: 20, discards: 2,
}, "Crazy Eights' board");
eq(eightsModel({ ...eightsView, seat: -1, state: (eightsView.state as { public: unknown }).public }, null).hand, null, "a spectator sees no hand");
eq([
  eightsMoveLabel({ kind: "play", card: 0, suit: 1 }, eightsView, null),
  eightsMoveLabel({ kind: "play", card: 1, suit: 2 }, eightsView, null),
  eightsMoveLabel({ kind: "draw" }, eightsView, null),
  eightsMoveLabel({ kind: "play", card: 7, suit: 0 }, eightsView, null),
], ["Play 7♥", "Play 8♠, naming diamonds", "Draw a card", "Play card 8"], "Crazy Eights' moves as cards");
// Its log in words, under 13 ranks (card 20 is the eight of hearts).
const said = (e: TableEvent) => describeTableEvent(e, "eights", name, undefined, 2, { ranks: 13, suits: 4 });
eq([
  said(ev(2, "Played", { seat: 0, card: 20, suit: 3, left: 4 })),
  said(ev(3, "Played", { seat: 1, card: 9, suit: 0, left: 2 })),
  said(ev(4, "Drawn", { card: 51 })),
  said(ev(5, "Reshuffled", { cards: 11 })),
  said(ev(6, "Ended", { reason: 2, moves: 500 })),
], [
  "Seat 1 · ada played Eight of hearts, naming clubs (4 left in hand)",
  "Seat 2 · ben (you) played Ten of spades (2 left in hand)",
  "You drew King of clubs",
  "The discards were shuffled into a new draw pile of 11 cards",
  "A draw: the game reached its limit of 500 moves",
], "Crazy Eights' log");

console.log("ok");
