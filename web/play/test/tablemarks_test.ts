// The words of a lying reveal marker on the page, run by Node
// (TestTableMarksInNode): a view the wasm found lying is said as the
// server's lie with the wasm's sentence (which names the marker), and
// the page says it sends nothing more; a view without a lie, or one the
// wasm could not read, says nothing.

import { marksLine } from "../src/tablemarks";

function assert(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}

function main(): void {
  const words = "seat 0 (bob) revealed round 4 with signature abcd…, which its key 12ab… did not sign over the pending move shown here";
  const lie = marksLine({ ok: true, lie: true, words });
  assert(lie.startsWith("The server lies at this table"), lie);
  for (const part of [words, "split view", "forged the reveal", "sends nothing more at this table"]) {
    assert(lie.includes(part), `the lie says ${part}: ${lie}`);
  }
  assert(marksLine({ ok: true, lie: false }) === "", "no lie, no words");
  assert(marksLine({ ok: false, error: "the table's view shows no trustless protocol" }) === "", "an unread view is no lie");
  assert(marksLine({ ok: false, lie: true, words }) === "", "only an answer that is ok says a lie");
  console.log("ok");
}

try {
  main();
} catch (e) {
  console.log(String(e));
}
