// A fair table on the page (docs/fairness.md, "Fair table games"): the
// player's contribution drawn on this device after the page has read the
// server's commitment, kept per game, and the end's checks made here: the
// revealed server seed must open the commitment the page saw before it
// joined, the player's own contribution must be the one it sent, and the
// seed and the contributions must make the game seed. The hashing is
// WebCrypto's SHA-256 over the field encoding of rng/fair; no DOM (run by
// Node in TestTableFairInNode against rng/fair's vectors).

/** TableFairness is a fair table's protocol in its view: the commitment
 * from the create on, and once finished what opens it; with openings,
 * the seats' commitments to their contributions. */
export interface TableFairness {
  commitmentHex: string;
  serverSeedHex?: string;
  contributionsHex?: string[];
  gameSeedHex?: string;
  openings?: TableOpenings | null;
}

/** TableOpenings is a fair table's with openings (docs/fairness.md,
 * "Openings at tables"): each seat's commitment (64 hex digits, "" while
 * free) and whether it opened, the time the seats have from the first
 * opening (ms) and that deadline (unix ms; 0 when no opening is awaited). */
export interface TableOpenings {
  deadlineMs: number;
  deadline: number;
  commitmentsHex: string[];
  opened: boolean[];
}

/** Sent is what this device saw and sent at its join of a fair table:
 * the commitment read before the join and the entropy drawn for it. */
export interface Sent {
  commitmentHex: string;
  entropyHex: string;
}

function unhex(s: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/i.test(s)) throw new Error(`not hex: ${JSON.stringify(s.slice(0, 16))}`);
  const b = new Uint8Array(s.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return b;
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** u32 is n as 4 bytes, big-endian. */
function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, false);
  return b;
}

/** field is u32(len(b)) ‖ b (rng/fair.AppendField). */
function field(b: Uint8Array | string): Uint8Array[] {
  const bytes = typeof b === "string" ? new TextEncoder().encode(b) : b;
  return [u32(bytes.length), bytes];
}

async function sha256(parts: Uint8Array[]): Promise<string> {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", all)));
}

/** commitmentOf is SHA-256(field("fairboard/server-seed/v1") ‖
 * field(serverSeed)), as hex: what a server seed commits to. */
export function commitmentOf(serverSeedHex: string): Promise<string> {
  return sha256([...field("fairboard/server-seed/v1"), ...field(unhex(serverSeedHex))]);
}

/** gameSeedOf is SHA-256(field("fairboard/game-seed/v1") ‖
 * field(serverSeed) ‖ u32(n) ‖ field(c_1) ‖ … ‖ field(c_n)), as hex. */
export function gameSeedOf(serverSeedHex: string, contributionsHex: string[]): Promise<string> {
  return sha256([
    ...field("fairboard/game-seed/v1"),
    ...field(unhex(serverSeedHex)),
    u32(contributionsHex.length),
    ...contributionsHex.flatMap((c) => field(unhex(c))),
  ]);
}

/** contributionCommitmentOf is SHA-256(field("fairboard/fair-commit/v1")
 * ‖ field(gameId) ‖ u32(seat) ‖ field(c)), as hex: what a join at a fair
 * table with openings commits to (rng/fair.ContributionCommitment; seat
 * from 0). */
export function contributionCommitmentOf(gameId: string, seat: number, entropyHex: string): Promise<string> {
  return sha256([...field("fairboard/fair-commit/v1"), ...field(gameId), u32(seat), ...field(unhex(entropyHex))]);
}

/** ENTROPY_BYTES is how much a player contributes: 32 bytes. */
export const ENTROPY_BYTES = 32;

/** drawEntropy draws the player's contribution from the browser's CSPRNG. */
export function drawEntropy(): string {
  const b = new Uint8Array(ENTROPY_BYTES);
  crypto.getRandomValues(b);
  return hex(b);
}

/** sentKey is where a game's Sent is kept (localStorage, per player and
 * game: a reload or another tab of the same browser finds it). */
export function sentKey(uid: string, gameId: string): string {
  return `fairboard.tablefair.${uid}.${gameId}`;
}

/** Check is what the page found at a fair table's end. */
export interface Check {
  /** opens: the revealed server seed opens the commitment seen before
   * the join (or, without one, the view's). */
  opens: boolean;
  /** sameCommitment: the view's commitment is the one seen before the
   * join (true when the page kept none). */
  sameCommitment: boolean;
  /** mine: this player's contribution is the one it sent (null: the page
   * kept none, the player holds no seat, or its seat never opened at a
   * table with openings ended before its start). */
  mine: boolean | null;
  /** gameSeed: the seed and the contributions make the game seed (null:
   * abandoned before the start, no game seed). */
  gameSeed: boolean | null;
  /** openings: at a table with openings, every seat's contribution opens
   * the commitment that seat made at its join (a seat that never opened
   * at a table ended before its start is not checked; null: no
   * openings).
   * wrongOpenings are the seats whose contribution does not. */
  openings: boolean | null;
  wrongOpenings: number[];
}

/** check checks a finished fair table's reveal against what this page
 * saw and sent; at a table with openings (of game id gameId) also each
 * contribution against its seat's commitment. */
export async function check(f: TableFairness, seat: number, sent: Sent | null, gameId = ""): Promise<Check> {
  const seed = f.serverSeedHex ?? "";
  const seen = sent?.commitmentHex || f.commitmentHex;
  const opens = seed !== "" && (await commitmentOf(seed)) === seen.toLowerCase();
  const contributions = f.contributionsHex ?? [];
  const unopened = !!f.openings && !f.openings.opened[seat] && !f.gameSeedHex; // this seat never opened: nothing of it to check
  const mine = sent && seat >= 0 && seat < contributions.length && !unopened ? contributions[seat] === sent.entropyHex.toLowerCase() : null;
  const gameSeed = f.gameSeedHex ? (await gameSeedOf(seed, contributions)) === f.gameSeedHex : null;
  const wrongOpenings: number[] = [];
  const op = f.openings;
  if (op) {
    for (let i = 0; i < op.commitmentsHex.length; i++) {
      // A seat that never opened (a table ended before its start) has no
      // contribution; once the game started every seat had opened.
      if (!op.opened[i] && !f.gameSeedHex) continue;
      const c = contributions[i] ?? "";
      if (!/^[0-9a-f]{64}$/i.test(c) || (await contributionCommitmentOf(gameId, i, c)) !== op.commitmentsHex[i]?.toLowerCase()) wrongOpenings.push(i);
    }
  }
  const openings = op ? wrongOpenings.length === 0 && op.commitmentsHex.length > 0 : null;
  return { opens, sameCommitment: !sent || sent.commitmentHex === f.commitmentHex, mine, gameSeed, openings, wrongOpenings };
}

/** short is the first 16 hex digits of a commitment, and an ellipsis. */
export function short(h: string): string {
  return h.slice(0, 16) + "…";
}

/** checkLines says a Check in words, one line each (seats named by
 * name, from 0). */
export function checkLines(c: Check, name: (seat: number) => string = (s) => "Seat " + (s + 1)): string[] {
  const lines = [
    c.opens
      ? "The server seed opens the commitment this page saw before you joined."
      : "The server seed does NOT open the commitment this page saw before you joined.",
  ];
  if (!c.sameCommitment) lines.push("The commitment shown now is NOT the one this page saw before you joined.");
  if (c.mine === true) lines.push("Your contribution is the one this device sent.");
  if (c.mine === false) lines.push("Your contribution is NOT the one this device sent.");
  if (c.gameSeed === true) lines.push("The server seed and the contributions make the game seed.");
  if (c.gameSeed === false) lines.push("The server seed and the contributions do NOT make the game seed.");
  if (c.openings === true) lines.push("Every contribution opens the commitment its seat made when it joined.");
  if (c.openings === false)
    lines.push(
      c.wrongOpenings.length
        ? `The contribution of ${c.wrongOpenings.map(name).join(", ")} does NOT open the commitment made when it joined.`
        : "The table shows NO commitments to check the contributions against.",
    );
  return lines;
}

/** ok says whether every check passed. */
export function ok(c: Check): boolean {
  return c.opens && c.sameCommitment && c.mine !== false && c.gameSeed !== false && c.openings !== false;
}
