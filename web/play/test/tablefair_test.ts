// A fair table's checks on the page, run by Node (TestTableFairInNode):
// the page's SHA-256 over the field encoding against rng/fair's vectors
// (written by Node's crypto from the definitions, independently of the
// page and of the Go code), and the end's checks, each with a changed
// input that it must catch.

import vectors from "../../../rng/fair/testdata/vectors.json";
import trustVectors from "../../../rng/trustless/testdata/vectors.json";
import { check, checkLines, commitmentOf, contributionCommitmentOf, drawEntropy, gameSeedOf, ok, short } from "../src/tablefair";

function assert(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  assert(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

async function main(): Promise<void> {
  assert(vectors.commitments.length >= 4 && vectors.gameSeeds.length >= 4, "the vectors are there");
  for (const v of vectors.commitments) eq(await commitmentOf(v.serverSeedHex), v.commitmentHex, `commitment ${v.name}`);
  for (const v of vectors.gameSeeds) eq(await gameSeedOf(v.serverSeedHex, v.contributionsHex), v.gameSeedHex, `game seed ${v.name}`);
  // The commitments of a join with openings (Node's SHA-256, written by
  // rng/trustless/testdata/gen.mjs), the UTF-8 game id and the largest
  // seat among them.
  assert(trustVectors.fairCommitments.length >= 3, "the openings vectors are there");
  for (const v of trustVectors.fairCommitments) eq(await contributionCommitmentOf(v.gameId, v.seat, v.contributionHex), v.commitmentHex, `contribution commitment ${v.gameId}/${v.seat}`);

  const e = drawEntropy();
  assert(/^[0-9a-f]{64}$/.test(e) && e !== drawEntropy(), "32 random bytes as hex, a new draw each time");
  eq(short("f0801414b8cc0d61808ff1e5"), "f0801414b8cc0d61…", "the commitment's first 16 digits");

  // The end's checks: a fair table of two, seat 1's contribution sent here.
  const c = vectors.commitments.find((x) => x.name === "counting")!;
  const g = vectors.gameSeeds.find((x) => x.serverSeedHex === c.serverSeedHex && x.contributionsHex.length === 4)!;
  const f = { commitmentHex: c.commitmentHex, serverSeedHex: c.serverSeedHex, contributionsHex: g.contributionsHex, gameSeedHex: g.gameSeedHex };
  const sent = { commitmentHex: c.commitmentHex, entropyHex: g.contributionsHex[2]!.toUpperCase() };
  const good = await check(f, 2, sent);
  eq(good, { opens: true, sameCommitment: true, mine: true, gameSeed: true, openings: null, wrongOpenings: [] }, "an honest table");
  assert(ok(good), "an honest table passes");
  eq(checkLines(good)[0], "The server seed opens the commitment this page saw before you joined.", "said in words");

  // Each lie is caught (the positive controls of the checks above).
  const other = vectors.commitments.find((x) => x.name === "ones")!;
  const lies: [string, Parameters<typeof check>, keyof typeof good][] = [
    ["another server seed", [{ ...f, serverSeedHex: other.serverSeedHex }, 2, sent], "opens"],
    ["a commitment changed after the join", [{ ...f, commitmentHex: other.commitmentHex, serverSeedHex: other.serverSeedHex }, 2, sent], "sameCommitment"],
    ["another contribution for this seat", [{ ...f, contributionsHex: ["", "00", "deadbeee", g.contributionsHex[3]!] }, 2, sent], "mine"],
    ["a game seed the seeds do not make", [{ ...f, gameSeedHex: c.commitmentHex }, 2, sent], "gameSeed"],
  ];
  for (const [what, args, field] of lies) {
    const got = await check(...args);
    eq(got[field], false, what);
    assert(!ok(got), what + " fails the table");
    assert(checkLines(got).some((l) => l.includes("NOT")), what + " is said");
  }
  // A commitment changed after the join with its seed: the seed opens the
  // new one, not the one seen.
  eq((await check({ ...f, commitmentHex: other.commitmentHex, serverSeedHex: other.serverSeedHex }, 2, sent)).opens, false, "the seed is checked against the commitment seen");
  // Without what was sent (another device): the view's commitment, and no
  // word on the contribution.
  const elsewhere = await check(f, 2, null);
  eq([elsewhere.opens, elsewhere.mine], [true, null], "a page that kept nothing");
  // Abandoned in the lobby: no game seed.
  eq((await check({ ...f, gameSeedHex: "" }, 2, sent)).gameSeed, null, "no game seed");

  // With openings: every contribution opens its seat's commitment (the
  // game id "g1" and seat 0 of the vectors above, and seat 1's made by
  // the page's function, checked just above), and a contribution that
  // does not is caught, named.
  const fc = trustVectors.fairCommitments.find((x) => x.gameId === "g1" && x.seat === 0)!;
  const c1 = "ab".repeat(32);
  const opened = { ...f, contributionsHex: [fc.contributionHex, c1], openings: { deadlineMs: 60000, deadline: 0, commitmentsHex: [fc.commitmentHex, await contributionCommitmentOf("g1", 1, c1)], opened: [true, true] } };
  const withOpenings = await check(opened, 1, { commitmentHex: c.commitmentHex, entropyHex: c1 }, "g1");
  eq([withOpenings.openings, withOpenings.wrongOpenings], [true, []], "every contribution opens its commitment");
  assert(checkLines(withOpenings).includes("Every contribution opens the commitment its seat made when it joined."), "said in words");
  const swapped = await check({ ...opened, contributionsHex: [c1, fc.contributionHex] }, 1, null, "g1");
  eq([swapped.openings, swapped.wrongOpenings], [false, [0, 1]], "contributions that do not open their commitments");
  assert(!ok(swapped) && checkLines(swapped).includes("The contribution of Seat 1, Seat 2 does NOT open the commitment made when it joined."), "failed and said");
  eq((await check(opened, 1, null, "g2")).openings, false, "a commitment is bound to its game id");
  // Ended before its start (seat 1 never opened): seat 0's is checked alone.
  const aborted = await check({ ...opened, gameSeedHex: "", contributionsHex: [fc.contributionHex, ""], openings: { ...opened.openings, opened: [true, false] } }, 0, null, "g1");
  eq([aborted.openings, aborted.wrongOpenings], [true, []], "an unopened seat at a table ended before its start");
  eq((await check({ ...opened, gameSeedHex: "", contributionsHex: [fc.contributionHex, ""], openings: { ...opened.openings, opened: [true, false] } }, 1, { commitmentHex: c.commitmentHex, entropyHex: c1 }, "g1")).mine, null, "no word on a contribution never opened");
  console.log("ok");
}

main().catch((e) => {
  console.log(String(e));
});
