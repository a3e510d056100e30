// The page's safe defaults and your-turn title, run by Node
// (TestSafeDefaultsInNode): expected values written here by hand.

import { clearStale, guestMustConfirm, isIrreversible, noteStatus, ordered, pageTitle, TITLE } from "../src/safety";
import type { Action, Player, Public } from "../src/types";
import { delta } from "../src/board";
import type { Engine, KindInfo } from "../src/engine";
import { orderedMoves } from "../src/genericboard";

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}

// The engine lists a manage step as use, drop, end (issue 30: "Drop
// Leather armor" came first and took the focus).
const a = (kind: string, cardId?: string): Action => ({ kind, actor: "u", ...(cardId ? { cardId } : {}) }) as Action;
const listed = [a("useItem", "t1-potion"), a("dropItem", "t1-leather"), a("dropItem", "t1-potion"), a("endManage")];
const kinds = ordered(listed).map((x) => x.kind + (x.cardId ? ":" + x.cardId : "")).join(",");
check(kinds === "useItem:t1-potion,endManage,dropItem:t1-leather,dropItem:t1-potion", "drops last, each part in the engine's order: " + kinds);
check(ordered([a("discard", "x"), a("discard", "y")]).map((x) => x.cardId).join() === "x,y", "all irreversible: the engine's order");
check(ordered([]).length === 0, "nothing offered");
for (const k of ["dropItem", "discard"]) check(isIrreversible(k), k + " asks first");
for (const k of ["useItem", "endManage", "move", "sleep", "offerDuel", "skipDuel", "resolveCombatRound", "reroll", "declineReroll", "start", "abandon"]) {
  check(!isIrreversible(k), k + " does not ask (abandon has its own confirmation)");
}

// On the generic board a game's forfeit (Leduc's fold, facing a raise
// listed first by the game) comes last; a game without one keeps its order.
const leducKinds: KindInfo[] = [
  { name: "fold", doc: "", args: [], forfeit: true },
  { name: "call", doc: "", args: [] },
  { name: "raise", doc: "", args: [] },
];
const moves = (ks: string[]) => ks.map((kind) => ({ kind }));
check(orderedMoves(moves(["fold", "call", "raise"]), leducKinds).map((m) => m.kind).join() === "call,raise,fold", "the fold last");
check(orderedMoves(moves(["call", "raise"]), leducKinds).map((m) => m.kind).join() === "call,raise", "no fold: the game's order");
check(orderedMoves(moves(["pass", "bet"]), []).map((m) => m.kind).join() === "pass,bet", "no forfeit declared: the game's order");

// A status line said at version 7 stays at 7 and clears at 8; text set
// without noteStatus (another tab's note, "Sending…") is left alone.
const el = { textContent: "", dataset: {} as Record<string, string> } as unknown as HTMLElement;
noteStatus(el, "Refused: it is not your turn.", 7, "not_your_turn");
clearStale(el, 7);
check(el.textContent === "Refused: it is not your turn." && el.dataset.code === "not_your_turn", "kept at its own version");
clearStale(el, 8);
check(el.textContent === "" && el.dataset.code === "" && el.dataset.statusAt === undefined, "cleared once the game moved on");
el.textContent = "Sending…";
clearStale(el, 99);
check(el.textContent === "Sending…", "a line not noted is left alone");

// The title: only a page in the background says anything; a reveal first.
check(pageTitle({ hidden: false, yourMove: true, revealDue: true }) === TITLE, "a visible page keeps its title");
// Signing out: a guest seated in a game not over is asked first; an
// account (which signs in again as itself), or a guest with nothing at
// stake, is not.
check(guestMustConfirm("guest", true), "a seated guest is warned");
check(guestMustConfirm("guest (development sign-in)", true), "a development guest too");
check(!guestMustConfirm("guest", false), "a guest with no seat in play is not");
check(!guestMustConfirm("alice@example.com", true), "an account is not");
check(!guestMustConfirm(undefined, true), "nobody signed in");
check(pageTitle({ hidden: true, yourMove: true, revealDue: false }) === "Your move — fairboard", "your move, in the background");
check(pageTitle({ hidden: true, yourMove: true, revealDue: true }) === "Your reveal is due — fairboard", "a reveal has a deadline: it comes first");
check(pageTitle({ hidden: true, yourMove: false, revealDue: false }) === TITLE, "nothing waits for you");
// What the last move changed for a player, said on its card (issue 30,
// item 2): HP, tile, items gained and lost, against the state before.
const eng = { cardName: (c: string) => ({ "t1-potion-1": "Potion", "t1-dagger-2": "Dagger" })[c] ?? c } as unknown as Engine;
const pl = (hp: number, pos: number, items: string[]): Player => ({ uid: "u", seat: 0, class: "monk", hp, pos, items, atkBonus: 0, defBonus: 0 }) as unknown as Player;
const was = { players: [pl(10, 3, ["t1-potion-1", "t1-dagger-2"])] } as unknown as Public;
check(delta(eng, pl(10, 3, ["t1-potion-1", "t1-dagger-2"]), was) === "", "nothing changed");
check(delta(eng, pl(7, 6, ["t1-dagger-2"]), was) === "HP −3, tile 3 → 6, −Potion", delta(eng, pl(7, 6, ["t1-dagger-2"]), was));
check(delta(eng, pl(10, 3, ["t1-potion-1", "t1-dagger-2", "t1-potion-1"]), was) === "+Potion", "a second copy gained");
check(delta(eng, pl(12, 3, ["t1-potion-1", "t1-dagger-2"]), was) === "HP +2", "healed");
check(delta(eng, pl(5, 0, []), null) === "", "no state before: nothing to say");
console.log("ok");
