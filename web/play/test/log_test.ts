// The log reader, run by Node (TestLogReaderInNode): both layouts of the
// log's documents, mixed in one game, give the events in order.

import { deckWords, describe, docId, enemiesWords, eventsOfDoc, InOrder, type Names } from "../src/log";
import type { GameEvent } from "../src/types";

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}

// One game's log as Firestore holds it, ordered by document id: two
// documents of the old layout (one event each, the event's fields at top
// level, id = its seq), then documents of the new layout (one per applied
// action: {events: [...]}, id = the action's last event's seq).
const docs: [string, Record<string, unknown>][] = [
  [docId(1), { seq: 1, type: "GameCreated", uid: "u1", gameId: "g" }],
  [docId(2), { seq: 2, type: "PlayerJoined", uid: "u1", seat: 0, class: "warrior" }],
  [docId(4), { events: [{ seq: 3, type: "PlayerJoined", uid: "u2", seat: 1, class: "monk" }, { seq: 4, type: "RoundEnded", round: 0 }] }],
  [docId(7), { events: [{ seq: 5, type: "DiceRolled", who: "u1", tag: "move.roll", sides: 4, value: 3 }, { seq: 6, type: "Moved", uid: "u1", from: 0, to: 3, cause: "move" }, { seq: 7, type: "TurnStarted", uid: "u2", round: 1, turn: 2 }] }],
  [docId(8), { seq: 8, type: "Slept", uid: "u2", amount: 3, hp: 10 }],
];

check(docId(7) === "00000000000000000007", "a document id is the seq padded to 20 digits");
const sorted = [...docs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
check(sorted.every(([id], i) => id === docs[i]![0]), "ordering by document id keeps the events' order");
const events: GameEvent[] = sorted.flatMap(([id, data]) => eventsOfDoc(id, data));
check(events.map((e) => e.seq).join(",") === "1,2,3,4,5,6,7,8", "every event once, in order: " + events.map((e) => e.seq).join(","));
check(events[5]!.type === "Moved" && events[5]!["to"] === 3, "an action document's events keep their fields");
check(events[7]!.type === "Slept", "an old-layout document after new ones");

for (const bad of [{}, { events: [1] }, { seq: "1", type: "X" }, { type: "X" }]) {
  let threw = false;
  try {
    eventsOfDoc("x", bad as Record<string, unknown>);
  } catch {
    threw = true;
  }
  check(threw, "a document of neither layout is refused: " + JSON.stringify(bad));
}

const names: Names = { who: (u) => (u === "u1" ? "Seat 1 · Warrior" : u === "u2" ? "Seat 2 · Monk" : "someone"), card: (c) => String(c) };
check(describe(events[4]!, names) === "Seat 1 · Warrior rolled 3 on a d4 to move.", describe(events[4]!, names));
check(describe(events[5]!, names) === "Seat 1 · Warrior moved from tile 0 to tile 3.", describe(events[5]!, names));
check(describe({ seq: 9, type: "Unknown" }, names) === "Unknown.", "an unknown event is named, not dropped");
check(describe({ seq: 10, type: "ChanceResolved", cardId: "Earthquake!" }, names) === "Chance card: Earthquake!", "one stop at a sentence's end");
// A trustless game's records, said from their "trustless" field (the
// sentences written here by hand).
const pend = { seq: 11, type: "ActionPending", trustless: { index: 4, action: { kind: "move", actor: "u2" } } };
check(describe(pend, names) === "Seat 2 · Monk's signed roll to move waits for reveal round 4.", describe(pend, names));
const acc = { seq: 14, type: "ActionAccepted", trustless: { action: { kind: "endManage", actor: "u2" } } };
check(describe(acc, names) === "Seat 2 · Monk's signed end of the item step was applied.", describe(acc, names));

// The game's words, not the code's (issue 30, item 3): each sentence
// written here by hand.
const said: [Record<string, unknown>, string][] = [
  [{ type: "CardDrawn", uid: "u1", cardId: "t1-potion", deckId: "treasure.t1" }, "Seat 1 · Warrior drew t1-potion from the tier-1 treasure deck."],
  [{ type: "CardDrawn", uid: "u1", cardId: "c", deckId: "chance" }, "Seat 1 · Warrior drew c from the chance deck."],
  [{ type: "DeckShuffled", deckId: "enemy.t3", size: 6 }, "The tier-3 enemy deck (6 cards) was shuffled, its order sealed until the end."],
  [{ type: "EnemyCompositionChosen", tier: 1, tileId: 5, choice: "1xT1" }, "On tile 5, a tier-1 enemy appears."],
  [{ type: "EnemyCompositionChosen", tier: 2, tileId: 9, choice: "2xT1" }, "On tile 9, two tier-1 enemies appear."],
  [{ type: "EnemyCompositionChosen", tier: 3, tileId: 14, choice: "1xT2+1xT1" }, "On tile 14, a tier-2 enemy and a tier-1 enemy appear."],
  [{ type: "LootRoll", outcome: "T1" }, "The loot roll gives a tier-1 treasure."],
  [{ type: "LootRoll", outcome: "none" }, "The loot roll gives nothing."],
  [{ type: "CombatEnded", uid: "u2", outcome: "knockedOut" }, "Seat 2 · Monk lost the fight."],
  [{ type: "CombatEnded", uid: "u2", outcome: "won" }, "Seat 2 · Monk won the fight."],
  [{ type: "CombatEnded", uid: "u2", outcome: "retreated" }, "Seat 2 · Monk retreated from the fight."],
  [{ type: "DuelEnded", winner: "u1", outcome: "knockout" }, "Seat 1 · Warrior won the duel by a knock-out."],
  [{ type: "DuelEnded", winner: "u1", outcome: "damage" }, "Seat 1 · Warrior won the duel."],
  [{ type: "DuelEnded", outcome: "draw" }, "The duel ended in a draw."],
  [{ type: "DuelCancelled", reason: "smokeBomb" }, "The duel was cancelled (a smoke bomb)."],
  [{ type: "GameFinished", round: 9, winner: "u1", outcome: "finalTile" }, "The game is over after round 9: Seat 1 · Warrior won on the final tile."],
  [{ type: "GameFinished", round: 30, winner: "u2", outcome: "roundLimit" }, "The game is over after round 30: Seat 2 · Monk won as the furthest along at the round limit."],
  [{ type: "GameFinished", round: 12, winner: "u2", outcome: "leftFinalTile" }, "The game is over after round 12: Seat 2 · Monk won as the furthest along (no one stayed on the final tile)."],
];
for (const [e, want] of said) {
  const got = describe({ seq: 1, ...e } as GameEvent, names);
  check(got === want, `${e["type"]}: ${got}`);
}
check(deckWords("enemy.t2") === "the tier-2 enemy deck" && enemiesWords("3xT1") === "three tier-1 enemies", "decks and enemies");
const rr = { seq: 12, type: "RoundRevealed", trustless: { index: 4, reveals: [{}, {}] } };
check(describe(rr, names) === "Reveal round 4: every seat's link is revealed (2); the draw follows.", describe(rr, names));
const ab = { seq: 13, type: "GameAborted", trustless: { index: 5, reason: "deadline", missing: ["u1"] } };
check(describe(ab, names) === "The game was aborted at reveal round 5 (deadline: no reveal from Seat 1 · Warrior).", describe(ab, names));

// The listener's snapshots in any order (InOrder): what the emulator did
// to a 125-event log (seqs 88-125 in the first snapshot, 1-87 in the
// next) gives nothing until seq 1 comes, then all 125 once, in order.
const ev = (seq: number, type = "E"): GameEvent => ({ seq, type });
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => ev(a + i));
const seqs = (es: GameEvent[]) => es.map((e) => e.seq).join(",");
const o = new InOrder(0);
check(o.take(range(88, 125)).length === 0 && o.waiting && o.after === 0, "later events held until the first comes");
const all = o.take(range(1, 87));
check(all.length === 125 && all.every((e, i) => e.seq === i + 1), "all 125 once, in order: " + seqs(all));
check(!o.waiting && o.after === 125, "nothing held after the gap is filled");
// A gap in the middle, filled out of order, one event at a time.
check(seqs(o.take([ev(128), ev(127)])) === "" && o.waiting, "126 missing: nothing due");
check(seqs(o.take([ev(126)])) === "126,127,128", "the gap filled: the run follows");
// An event heard again (a changed document) is handed on again first, so
// the engine can compare it; a new one after it follows.
const again = o.take([ev(129), ev(3, "Changed")]);
check(seqs(again) === "3,129" && again[0]!.type === "Changed", "heard again, then due: " + seqs(again));
// A follower that starts after some seq takes only what follows it.
const late = new InOrder(40);
check(seqs(late.take([ev(42), ev(41)])) === "41,42" && late.after === 42, "from seq 41 on");
check(seqs(new InOrder(0).take([ev(0), ev(1.5), ev(2)])) === "" , "seq 0 and a fraction are not events; 2 waits for 1");
console.log("ok");
