// The retry decision of a trustless seat open in several tabs, run by
// Node (TestSeatRaceDecisionInNode): which refusals another tab's
// progress explains, and what a tab does after one.

import { anotherTabsProgress, decide, legalNow, MAX_RETRIES, sameAction, StaleSeat, type Race } from "../src/seatact";

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}

/** refusal is a refused call as the page's backend reports it. */
function refusal(code: string): Error & { details: { code: string } } {
  return Object.assign(new Error("refused"), { code: "functions/failed-precondition", details: { code } });
}

// Another tab's progress: the game moved on, the action or the index is
// already the server's, the record is ahead of this board.
for (const code of ["stale_version", "duplicate_action", "action_id_reused", "not_your_turn", "wrong_step", "pending", "wrong_index", "already_revealed", "game_over"]) {
  check(anotherTabsProgress(refusal(code)), code + " is another tab's progress");
}
check(anotherTabsProgress(new StaleSeat(12, 11)), "the record holds an action signed after this board's version");
check(anotherTabsProgress(new Error("player: resolveCombatRound would use index 4, not the next after 2, the last this seat revealed")), "the index check of an action (issue 26's refusal)");
check(anotherTabsProgress(new Error("player: index 5 is not the next after 6, the last this seat revealed")), "the index check of a reveal");

// Anything else is said as it is: no retry hides it.
for (const code of ["bad_signature", "invalid_action", "item_not_held", "not_owner", "deadline_passed"]) {
  check(!anotherTabsProgress(refusal(code)), code + " is not another tab's progress");
}
check(!anotherTabsProgress(Object.assign(new Error("internal"), { code: "functions/internal" })), "a failed call without a code");
check(!anotherTabsProgress(new Error("player: index 4 was revealed for the action of digest ab; move by u has digest cd: a revealed index serves that action or none")),
  "an index revealed for another action (a link that left with a refused action) is not a race");
check(!anotherTabsProgress(new Error("this seat's key is on another device")), "no key here");
check(!anotherTabsProgress(undefined) && !anotherTabsProgress(null) && !anotherTabsProgress("stale_version"), "not an error");

const race = (r: Partial<Race>): Race => ({ at: 10, signedAt: 0, sameAction: false, legalNow: true, tries: 0, ...r });
const stale = refusal("stale_version");

// The other tab made this very move at this version: nothing to send.
check(decide(stale, race({ signedAt: 10, sameAction: true })) === "shown", "the same action at the same version: shown");
check(decide(new StaleSeat(10, 10), race({ signedAt: 10, sameAction: true, legalNow: true })) === "shown", "the same action, still legal after it: shown, not sent twice");
// Another move at this version, or the game moved on: the click is sent
// again as a new action while it is legal on the fresh board...
check(decide(new StaleSeat(10, 10), race({ signedAt: 10, sameAction: false, legalNow: true })) === "retry", "another action at this version, this one still legal: retry");
check(decide(stale, race({ signedAt: 8, legalNow: true })) === "retry", "the game moved on without this seat, still legal: retry");
check(decide(new Error("player: move would use index 4, not the next after 2, the last this seat revealed"), race({ legalNow: true })) === "retry", "the index check, still legal: retry");
check(decide(new StaleSeat(12, 10), race({ signedAt: 12, sameAction: true, legalNow: true })) === "retry", "the seat moved twice since: its last move is no answer to this click");
// ...and only shown once it is not.
check(decide(stale, race({ legalNow: false })) === "shown", "no longer legal: shown");
check(decide(refusal("game_over"), race({ legalNow: false })) === "shown", "the game is over: shown");
// Bounded: a refusal that comes back after every fresh read is said.
check(decide(stale, race({ tries: MAX_RETRIES - 1 })) === "retry", "under the bound: retry");
check(decide(stale, race({ tries: MAX_RETRIES })) === "refused", "at the bound: refused");
// Not another tab's progress: refused whatever the record and board say.
check(decide(refusal("bad_signature"), race({ signedAt: 10, sameAction: true })) === "refused", "a bad signature is said");

// sameAction: the function, kind, card and target.
const req = { fn: "act", data: { gameId: "g", actionId: "v10", version: 10, kind: "useItem", cardId: "potion-1", signature: "ab" } };
check(sameAction(req, "act", { gameId: "g", actionId: "a123", kind: "useItem", cardId: "potion-1" }), "the same use of an item, whatever its id");
check(!sameAction(req, "act", { kind: "useItem", cardId: "potion-2" }), "another card");
check(!sameAction(req, "act", { kind: "dropItem", cardId: "potion-1" }), "another kind");
check(!sameAction(req, "startGame", { kind: "useItem", cardId: "potion-1" }), "another function");
check(!sameAction(undefined, "act", { kind: "move" }), "no stored action");
check(sameAction({ fn: "startGame", data: { gameId: "g" } }, "startGame", { gameId: "g", actionId: "x" }), "a start is a start");

// legalNow: among the engine's offered actions, by kind, card and target.
const offered = [
  { kind: "useItem", actor: "u", cardId: "potion-1" },
  { kind: "offerDuel", actor: "u", target: "v" },
  { kind: "endManage", actor: "u" },
];
check(legalNow({ kind: "endManage", actor: "u" }, offered), "endManage offered");
check(legalNow({ kind: "useItem", actor: "u", cardId: "potion-1" }, offered), "that potion offered");
check(!legalNow({ kind: "useItem", actor: "u", cardId: "potion-2" }, offered), "not that potion");
check(!legalNow({ kind: "offerDuel", actor: "u", target: "w" }, offered), "not that target");
check(!legalNow({ kind: "move", actor: "u" }, offered), "move not offered");
check(!legalNow({ kind: "endManage", actor: "u" }, []), "nothing offered");

console.log("ok");
