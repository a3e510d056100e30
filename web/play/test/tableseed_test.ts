// A seeded table's checks on the page, run by Node (TestTableSeedInNode):
// the seed refused before it is sent (empty, over 256 bytes of UTF-8
// counted by hand: "é" is the two bytes C3 A9, "☃" the three E2 98 83,
// "😀" the four F0 9F 98 80; a lone surrogate), and the end's verdict on a
// record's seed, each with a changed input that it must catch.

import { maxSeedBytes, seedCheck, seedKey, seedLines, seedOK, seedProblem } from "../src/tableseed";

function assert(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  assert(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

function main(): void {
  eq(maxSeedBytes, 256, "table.MaxSeedLen");
  // Seeds createGame takes: 1 to 256 bytes.
  for (const [what, seed] of [
    ["one letter", "a"],
    ["256 letters", "x".repeat(256)],
    ["128 two-byte letters (256 bytes)", "é".repeat(128)],
    ["64 four-byte emoji (256 bytes, 128 UTF-16 units)", "😀".repeat(64)],
    ["85 snowmen and a letter (256 bytes)", "☃".repeat(85) + "a"],
    ["spaces only", "   "],
  ] as const) {
    eq(seedProblem(seed), "", what);
  }
  // And the ones it refuses, said in words before anything is sent.
  assert(seedProblem("").startsWith("A seeded table needs a seed"), "an empty seed");
  eq(seedProblem("x".repeat(257)), "The seed is 257 bytes long (in UTF-8): at most 256 bytes are allowed.", "257 letters");
  eq(seedProblem("é".repeat(129)), "The seed is 258 bytes long (in UTF-8): at most 256 bytes are allowed.", "129 two-byte letters: 129 characters, 258 bytes");
  eq(seedProblem("😀".repeat(65)), "The seed is 260 bytes long (in UTF-8): at most 256 bytes are allowed.", "65 emoji");
  eq(seedProblem("☃".repeat(86)), "The seed is 258 bytes long (in UTF-8): at most 256 bytes are allowed.", "86 snowmen");
  assert(seedProblem("ab\ud800cd").includes("broken character"), "a lone high surrogate");
  assert(seedProblem("\udc00").includes("broken character"), "a lone low surrogate");
  eq(seedKey("u1", "g1"), "fairboard.tableseed.u1.g1", "the kept seed's key");

  // The end: a seeded record that replays, its seed the one typed here.
  const rec = { format: "fairboard-game/v1", game: "pig", mode: "seeded", seed: "lobby ☃" };
  const good = seedCheck(rec, "ok", "lobby ☃");
  eq(good, { replays: true, seeded: true, seed: "lobby ☃", mine: true }, "an honest record");
  assert(seedOK(good), "passes");
  eq(seedLines(good, "ok: pig record"), [
    "The record verifies: ok: pig record",
    "Its seed is “lobby ☃”: every die and card of the game was recomputed from it, here.",
    "It is the seed you typed when you created the table.",
  ], "said in words");
  // Another device (not the creator's): no word on the typed seed.
  const other = seedCheck(rec, "ok", null);
  eq(other.mine, null, "nothing kept here");
  assert(seedOK(other), "a record that replays passes on another device");
  assert(seedLines(other, "").some((l) => l.includes("creator chose it")), "said whose seed it is");

  // Each lie is caught (the positive controls of the checks above).
  const lies: [string, ReturnType<typeof seedCheck>][] = [
    ["another seed than the one typed", seedCheck({ ...rec, seed: "lobby ☃ " }, "ok", "lobby ☃")],
    ["a record that does not replay", seedCheck(rec, "diverged", "lobby ☃")],
    ["a record without its seed", seedCheck({ ...rec, seed: undefined }, "ok", "lobby ☃")],
    ["an empty seed", seedCheck({ ...rec, seed: "" }, "ok", null)],
    ["a crypto record", seedCheck({ ...rec, mode: "crypto", seed: undefined }, "ok", null)],
    ["a seed that is not text", seedCheck({ ...rec, seed: 7 }, "ok", null)],
  ];
  for (const [what, c] of lies) {
    assert(!seedOK(c), what + " fails");
    assert(seedLines(c, "m").some((l) => l.includes("NOT")), what + " is said: " + JSON.stringify(seedLines(c, "m")));
  }
  console.log("ok");
}

try {
  main();
} catch (e) {
  console.log(String(e));
}
