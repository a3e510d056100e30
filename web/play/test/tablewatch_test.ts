// A table followed by listeners, run by Node (TestTableWatchInNode): this
// seat's addressed events in the place of their traces in the public log,
// whichever listener is heard first, and the seat's view made of its two
// documents as getView answers it.

import { composeState, OwnEvents, viewOfDocs } from "../src/tabledocs";

function eq(got: unknown, want: unknown, what: string): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`FAIL: ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const seqs = (evs: { seq: number; type: string }[]) => evs.map((e) => `${e.seq}:${e.type}`);
const trace = (seq: number, seat: number) => ({ seq, type: "Addressed", seat });
const dealt = (seq: number, to: number) => ({ seq, type: "Dealt", game: true, to, card: 2 });

// The log first: its trace for seat 1 waits, with what follows it, for
// the seat's document.
let o = new OwnEvents(1);
eq(seqs(o.log([{ seq: 4, type: "Started" }, trace(5, 0), trace(6, 1), { seq: 7, type: "GameStarted", game: true }])), ["4:Started", "5:Addressed"], "held at this seat's trace");
eq(o.waitingFor, 6, "waiting for seq 6");
eq(seqs(o.own([dealt(6, 1)])), ["6:Dealt", "7:GameStarted"], "the event in its place, then the rest");
eq(o.waitingFor, 0, "nothing held");
// The seat's document first: the trace is replaced as it comes.
o = new OwnEvents(0);
eq(seqs(o.own([dealt(5, 0)])), [], "nothing due before the log");
eq(seqs(o.log([trace(5, 0), trace(6, 1)])), ["5:Dealt", "6:Addressed"], "the own event, the other's trace");
// The control: a page that kept the trace would show it, not the event.
eq(seqs(new OwnEvents(2).log([trace(5, 0), trace(6, 1)])), ["5:Addressed", "6:Addressed"], "another seat's page keeps the traces");

eq(composeState(undefined, "{\"card\":1}"), null, "before the start");
eq(composeState('{"banked":[0,0]}', ""), { banked: [0, 0] }, "a game without a private part: the public part");
eq(composeState('{"pot":2}', '{"card":1}'), { public: { pot: 2 }, private: { card: 1 } }, "with a private part");

const d = { game: "kuhn", mode: "fair", ownerUid: "a", phase: "playing" as const, version: 5, seats: [{ uid: "a", options: null }, { uid: "b", options: null }], toMove: 1, state: '{"pot":2}', fairness: { commitmentHex: "ab" } };
const v = viewOfDocs(d, { seat: 1, uid: "b", private: '{"card":2}', events: [] }, "g1", "b", { a: "Ann" }, [{ kind: "bet" }]);
eq([v.seat, v.toMove, v.state, v.legal, v.names, v.fairness, v.outcome, v.owner], [1, 1, { public: { pot: 2 }, private: { card: 2 } }, [{ kind: "bet" }], { a: "Ann" }, { commitmentHex: "ab" }, null, "a"], "the seat's view");
eq(viewOfDocs(d, { seat: 1, uid: "b", private: '{"card":2}', events: [] }, "g1", "a", undefined, []).state, { pot: 2 }, "another uid's seat document is not its own");
console.log("ok");
