// A table's seats in its lobby, run by Node (TestTableSeatsInNode): the
// log's words for a leave and a removal, the news of this player's own
// seat freed, when the seats may change, and the refusals of a leave or a
// removal in words.

import { CallError } from "../src/callerror";
import { refusal } from "../src/errors";
import { freedWords, seatNews, seatsMayChange, type SeatNews } from "../src/tableseats";
import { describeTableEvent, seatName, uidName, type TableView } from "../src/tablewords";

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  check(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// The log's words (the events as tablestore writes them: the seat from 0,
// the uid of the player who left or was removed).
const seats = [{ uid: "alice", options: [] }, { uid: "", options: [] }];
const name = seatName(seats, 0);
const who = uidName({ bob: "Bob" });
eq(describeTableEvent({ seq: 3, type: "Left", seat: 1, uid: "bob" }, "pig", name, who), "Bob left seat 2", "a leave");
eq(describeTableEvent({ seq: 4, type: "SeatRemoved", seat: 1, uid: "bob" }, "pig", name, who), "The owner removed Bob from seat 2", "a removal, its player named");
eq(describeTableEvent({ seq: 4, type: "SeatRemoved", seat: 0, uid: "carol" }, "pig", name, who), "The owner removed carol from seat 1", "a removal of a player without a name");

// The news of bob's own seat: the last of his joins, leaves and removals.
const log = [
  { seq: 1, type: "TableCreated", uid: "alice", seats: 2 },
  { seq: 2, type: "Joined", seat: 0, uid: "alice" },
  { seq: 3, type: "Joined", seat: 1, uid: "bob" },
  { seq: 4, type: "Left", seat: 1, uid: "bob" },
];
let news: SeatNews = seatNews(null, log, "bob");
eq(news, { seq: 4, type: "Left", seat: 1 }, "bob's leave is the news");
eq(seatNews(null, log, "alice"), { seq: 2, type: "Joined", seat: 0 }, "alice's join");
eq(seatNews(null, log, "carol"), null, "nothing of carol");
eq(seatNews(news, [{ seq: 3, type: "Joined", seat: 1, uid: "bob" }], "bob"), news, "an older event read again is no news");
eq(seatNews(news, [{ seq: 5, type: "Rolled", game: true, seat: 1, uid: "bob" }], "bob"), news, "a game's event is not about the seat");
news = seatNews(news, [{ seq: 5, type: "Joined", seat: 0, uid: "bob" }, { seq: 6, type: "SeatRemoved", seat: 0, uid: "bob" }], "bob");
eq(news, { seq: 6, type: "SeatRemoved", seat: 0 }, "a removal after a join again");

const lobby = (seat: number, free: boolean) => ({ phase: "lobby" as const, seat, seats: [{ uid: "alice", options: [] }, { uid: free ? "" : "carol", options: [] }] });
eq(freedWords(news, lobby(-1, true)), "The owner removed you from seat 1. You may take a free seat again below.", "removed, a seat free");
eq(freedWords(news, lobby(-1, false)), "The owner removed you from seat 1.", "removed, every seat taken");
eq(freedWords(news, { ...lobby(-1, true), phase: "playing" }), "The owner removed you from seat 1.", "removed, the game started");
eq(freedWords({ seq: 4, type: "Left", seat: 1 }, lobby(-1, true)), "You left seat 2. You may take a free seat again below.", "left");
eq(freedWords(news, lobby(1, false)), "", "seated again (the view shows it before the log's join is read)");
eq(freedWords({ seq: 7, type: "Joined", seat: 1 }, lobby(-1, true)), "", "the last news is a join");
eq(freedWords(null, lobby(-1, true)), "", "never seated");

// The seats may change in the lobby, and at a table with openings until
// the first opening (table/lobbyact.go, seatsFixed).
const view = (phase: TableView["phase"], opened?: boolean[]) =>
  ({ phase, fairness: opened ? { commitmentHex: "", openings: { opened, commitmentsHex: [], deadline: 0, deadlineMs: 60000 } } : null }) as unknown as TableView;
check(seatsMayChange(view("lobby")), "the lobby");
check(!seatsMayChange(view("playing")) && !seatsMayChange(view("finished")), "not once started");
check(seatsMayChange(view("lobby", [false, false, false])), "openings, none opened");
check(!seatsMayChange(view("lobby", [false, true, false])), "openings, one opened: the seats are fixed");

// A leave's or a removal's refusals, in words (table/lobbyact.go's codes
// and the checks before them), never the generic words.
const refused = (code: string, msg = "m") => refusal(new CallError("functions/failed-precondition", msg, { code }));
eq(refused("not_seated"), "You hold no seat in this game (the owner may have removed you).", "a leave without a seat");
eq(refused("seat_free"), "That seat is free already.", "a removal of a free seat");
eq(refused("not_owner"), "Only the game's owner may do that.", "a removal by another");
eq(refused("already_started", "leave is for the lobby; the game has started"), "The game has already started.", "a leave after the start");
eq(refused("unknown_player", "no seat 7"), "That player is not in the game (no seat 7).", "a removal of no seat");
for (const code of ["not_seated", "seat_free", "not_owner", "already_started", "unknown_player", "stale_version", "game_over"]) {
  check(!refused(code).startsWith("The server refused it") && !refused(code).startsWith("The game is not in a state"), code + " has its own words");
}
check(refused("no_such_code").startsWith("The game is not in a state"), "positive control: a code without words gets the status's");

console.log("ok");
