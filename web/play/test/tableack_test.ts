// The words of a trustless seat's acknowledgements on the page, run by
// Node (TestTableAckInNode): which answers carry an acknowledgement to
// check and keep (a reveal; a move with its reveal or deal keys; a deal
// message; not a move that draws nothing, a join, a leave or an abort:
// table.AckMessage's cases, read from docs/fairness.md), what is said of
// one kept, refused or not kept, and the blame shown with the
// acknowledgement's details.

import { acked, ackLine, blameLine, brings } from "../src/tableack";

function assert(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  assert(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

function main(): void {
  const reveal = { seat: 1, index: 3, link: "ab", digest: "11", transcript: "22", signature: "33" };
  for (const [what, fn, data, want] of [
    ["a reveal", "reveal", { actionId: "reveal-3", ...reveal }, true],
    ["a move with its reveal", "act", { move: { kind: "roll" }, signature: "44", reveal }, true],
    ["a move with its deal keys", "act", { move: { kind: "bet" }, signature: "44", deal: { keys: [{}] } }, true],
    ["a deal message", "act", { kind: "deal", version: 0, deal: { pass: {} } }, true],
    ["a move that draws nothing", "act", { move: { kind: "hold" }, signature: "44" }, false],
    ["an abort", "act", { kind: "abort", version: 0 }, false],
    ["a leave", "act", { kind: "leave", version: 4 }, false],
    ["a deal without its message", "act", { kind: "deal", version: 0 }, false],
    ["a join", "joinGame", { seat: 1, chainHead: "aa", publicKey: "bb", signature: "cc" }, false],
    ["a start", "startGame", { version: 2 }, false],
  ] as const) {
    eq(brings(fn, data as Record<string, unknown>), want, what);
  }
  eq(acked("reveal", { index: 3 }), "your reveal for round 3", "a reveal named");
  eq(acked("act", { move: {}, reveal }), "your move's reveal for round 3", "a move's reveal named");
  eq(acked("act", { kind: "deal", deal: {} }), "your part of the deal", "a deal message named");

  const kept = ackLine({ ok: true, signed: true }, "your reveal for round 3");
  eq(kept.state, "kept", "a signed one kept");
  assert(kept.text.includes("your reveal for round 3") && kept.text.includes("signed by the server's key this page pins"), kept.text);
  const unsigned = ackLine({ ok: true, signed: false }, "your reveal for round 3");
  eq(unsigned.state, "kept", "an unsigned one kept where no key is pinned");
  assert(unsigned.text.includes("unsigned") && unsigned.text.includes("not a third party"), unsigned.text);
  const refused = ackLine({ ok: false, refused: true, error: "trustseat: the server acknowledged alice reveal-3 (reveal) with a signature its published key does not verify" }, "your reveal for round 3");
  eq(refused.state, "refused", "one that does not verify");
  assert(refused.text.includes("does NOT verify") && refused.text.includes("the server lied") && refused.text.includes("key in this page's configuration is wrong"), refused.text);
  assert(refused.text.includes("does not verify"), "the wasm's reason is shown: " + refused.text);
  const failed = ackLine({ ok: false, error: "this seat's chain and key are not on this device" }, "your part of the deal");
  eq(failed.state, "failed", "another failure is not a lie");
  assert(!failed.text.includes("lied"), failed.text);

  const words =
    "the server acknowledged this seat's reveal for index 3 (digest 1111) at table g1 (reveal reveal-3 answered success, signed by the server's key at 1770000000100: abcd at version 9, received 2026-02-02T02:40:00Z), then aborted the table (deadline) naming alice as missing that round: it dropped it";
  const blame = blameLine({ ok: true, dropped: true, words, index: 3, reason: "deadline", missing: ["alice"], verified: true });
  assert(blame.startsWith("The server dropped a message it had acknowledged: it acknowledged this seat's reveal for index 3"), blame);
  for (const part of ["digest 1111", "table g1", "signed by the server's key at 1770000000100: abcd", "version 9", "naming alice as missing", "verifies under the server's published key"]) {
    assert(blame.includes(part), `the blame says ${part}: ${blame}`);
  }
  const unverified = blameLine({ ok: true, dropped: true, words, verified: false });
  assert(unverified.includes("convinces you, not a third party") && !unverified.includes("verifies under"), unverified);
  console.log("ok");
}

try {
  main();
} catch (e) {
  console.log(String(e));
}
