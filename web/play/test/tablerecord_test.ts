// A crypto or fair table's record checked at its end on the page, run by
// Node (TestTableRecordInNode): the verdict on a record against what the
// page showed (game, mode, seats, rules, a fair table's commitment, the
// decks' commitments its log published), in words, each check with a
// changed input that it must catch.

import { publishedDecks, recordCheck, recordLines, recordOK, type Shown } from "../src/tablerecord";

function assert(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  assert(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const c1 = "a".repeat(64);
const c2 = "b".repeat(64);
const fairC = "c".repeat(64);

function main(): void {
  // The log's commitments, in order, whatever else it holds.
  const log = [
    { seq: 1, type: "TableCreated" },
    { seq: 5, type: "DeckCommitted", options: ["kuhn.deck", "kuhn.deal", c1] },
    { seq: 6, type: "Dealt" },
    { seq: 9, type: "DeckCommitted", options: ["kuhn.deck", "kuhn.deal", c2] },
    { seq: 10, type: "DeckCommitted", game: true, options: ["a", "game's", "own event"] },
  ];
  eq(publishedDecks(log), [c1, c2], "the published commitments");
  eq(publishedDecks([]), [], "none");

  // An honest crypto Kuhn record: its rules as the view's (another key
  // order, and as text as the record carries them), its decks' commitments
  // the published ones.
  const rec = { game: "kuhn", mode: "crypto", seats: 2, rules: '{"ante":1,"bet":1}', decks: { shuffles: [{ commitmentHex: c1 }, { commitmentHex: c2 }] } };
  const shown: Shown = { game: "kuhn", mode: "crypto", seats: 2, rules: { bet: 1, ante: 1 }, decks: [c1, c2] };
  const good = recordCheck(rec, "ok", shown);
  eq(good, { replays: true, thisTable: true, commitment: null, decks: true, deckCount: 2, mode: "crypto" }, "an honest crypto record");
  assert(recordOK(good), "passes");
  eq(recordLines(good, "ok: kuhn record"), [
    "The record verifies: ok: kuhn record",
    "It is this table's game: the same game, mode, seats and rules as shown here.",
    "It opens the 2 decks' commitments this page showed as the cards were shuffled: each order was fixed before any card of it was dealt.",
    "In a crypto game the server drew the dice and shuffled the cards: the record shows that every move was legal and that the game is what those draws make, not that the draws were fair.",
  ], "said in words");
  // A view without rules (made of the table's documents) checks the rest.
  assert(recordOK(recordCheck(rec, "ok", { ...shown, rules: undefined })), "rules not shown");

  // A fair Pig record: no decks, its commitment the one shown.
  const fairRec = { game: "pig", mode: "fair", seats: 2, rules: { goal: 30, dieSides: 6 }, fairness: { commitmentHex: fairC } };
  const fairShown: Shown = { game: "pig", mode: "fair", seats: 2, rules: '{"goal":30,"dieSides":6}', commitmentHex: fairC, decks: [] };
  const fair = recordCheck(fairRec, "ok", fairShown);
  eq(fair, { replays: true, thisTable: true, commitment: true, decks: null, deckCount: 0, mode: "fair" }, "an honest fair record");
  assert(recordOK(fair), "a fair record passes");
  eq(recordLines(fair, "m").slice(2), ["Its commitment is the one this page showed before the game."], "the fair line, no deck or crypto line");

  // Each lie is caught (the positive controls of the checks above).
  const lies: [string, ReturnType<typeof recordCheck>][] = [
    ["a record that does not replay", recordCheck(rec, "diverged", shown)],
    ["an invalid record", recordCheck(rec, "invalid", shown)],
    ["another game", recordCheck({ ...rec, game: "leduc" }, "ok", shown)],
    ["another mode", recordCheck({ ...rec, mode: "seeded" }, "ok", shown)],
    ["another seat count", recordCheck({ ...rec, seats: 3 }, "ok", shown)],
    ["other rules", recordCheck({ ...rec, rules: '{"ante":2,"bet":1}' }, "ok", shown)],
    ["rules that are not JSON", recordCheck({ ...rec, rules: "{ante" }, "ok", shown)],
    ["a deck commitment changed", recordCheck({ ...rec, decks: { shuffles: [{ commitmentHex: c1 }, { commitmentHex: c1 }] } }, "ok", shown)],
    ["a deck commitment missing", recordCheck({ ...rec, decks: { shuffles: [{ commitmentHex: c1 }] } }, "ok", shown)],
    ["a deck commitment added", recordCheck(rec, "ok", { ...shown, decks: [c1] })],
    ["no decks in the record", recordCheck({ ...rec, decks: null }, "ok", shown)],
    ["decks nobody was shown", recordCheck(rec, "ok", { ...shown, decks: [] })],
    ["another fair commitment", recordCheck({ ...fairRec, fairness: { commitmentHex: c1 } }, "ok", fairShown)],
    ["a fair record without its commitment", recordCheck({ ...fairRec, fairness: null }, "ok", fairShown)],
  ];
  for (const [what, c] of lies) {
    assert(!recordOK(c), what + ": must fail");
    assert(recordLines(c, "x").some((l) => l.includes("NOT")), what + ": must be said with NOT");
  }
  console.log("ok");
}

main();
