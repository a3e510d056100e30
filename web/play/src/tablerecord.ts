// A crypto or fair table's record checked at its end, on the page
// (docs/play.md, "The record, checked at the end"): the record fetched
// with exportGame is replayed in the page's WebAssembly (the verifier
// page's check, judge.File), and read against what this page showed of
// the table: its game, mode, seats and rules, a fair table's
// commitment, and the commitments of its named decks that the log showed
// as they were shuffled (DeckCommitted events). What a crypto record
// cannot show is said too: the server drew its dice. No DOM here (run by Node in
// TestTableRecordInNode).

/** PlainRecord is what the end's check reads of a table's record
 * (match.Record: fairboard-game/v1), as untrusted JSON. */
export interface PlainRecord {
  game?: unknown;
  mode?: unknown;
  seats?: unknown;
  rules?: unknown;
  fairness?: { commitmentHex?: unknown } | null;
  decks?: { shuffles?: { commitmentHex?: unknown }[] | null } | null;
}

/** Shown is what the page showed of the table: its game, mode and seat
 * count, its rules when the view carried them, a fair table's
 * commitment, and the decks' commitments its log published, in order
 * (publishedDecks). */
export interface Shown {
  game: string;
  mode: string;
  seats: number;
  rules?: unknown;
  commitmentHex?: string;
  decks: string[];
}

/** publishedDecks are the commitments of the table's DeckCommitted
 * events in a log (table.TypeDeckCommitted: options deck id, tag,
 * commitment; a game's own event of that name is not one), in order. */
export function publishedDecks(log: { type: string; game?: boolean; options?: string[] }[]): string[] {
  return log.filter((e) => e.type === "DeckCommitted" && !e.game).map((e) => e.options?.[2] ?? "");
}

/** RecordCheck is the end's verdict: whether the record replays (the
 * WebAssembly's status "ok"), whether it is this table's (game, mode,
 * seats, and rules where the view had them), for a fair table whether
 * its commitment is the one shown (null in other modes), and whether its
 * decks' commitments are the ones the log showed (null when neither has
 * any; decks counts them). */
export interface RecordCheck {
  replays: boolean;
  thisTable: boolean;
  commitment: boolean | null;
  decks: boolean | null;
  deckCount: number;
  mode: string;
}

/** recordCheck judges rec, whose replay status is status, against what
 * the page showed. */
export function recordCheck(rec: PlainRecord, status: string, shown: Shown): RecordCheck {
  const rules = shown.rules === undefined || sameJSON(rec.rules, shown.rules);
  const thisTable = rec.game === shown.game && rec.mode === shown.mode && rec.seats === shown.seats && rules;
  let commitment: boolean | null = null;
  if (shown.mode === "fair") {
    const c = rec.fairness?.commitmentHex;
    commitment = typeof c === "string" && c !== "" && c === shown.commitmentHex;
  }
  const have = (Array.isArray(rec.decks?.shuffles) ? rec.decks!.shuffles! : []).map((d) => d?.commitmentHex);
  let decks: boolean | null = null;
  if (have.length > 0 || shown.decks.length > 0) {
    decks = have.length === shown.decks.length && have.every((c, k) => typeof c === "string" && c !== "" && c === shown.decks[k]);
  }
  return { replays: status === "ok", thisTable, commitment, decks, deckCount: shown.decks.length, mode: shown.mode };
}

/** recordOK: every check passed. */
export function recordOK(c: RecordCheck): boolean {
  return c.replays && c.thisTable && c.commitment !== false && c.decks !== false;
}

/** recordLines say c in words, the replay's own line (message) first. */
export function recordLines(c: RecordCheck, message: string): string[] {
  const lines = [c.replays ? "The record verifies: " + message : "The record does NOT verify: " + message];
  lines.push(
    c.thisTable
      ? "It is this table's game: the same game, mode, seats and rules as shown here."
      : "It is NOT this table's game: its game, mode, seats or rules differ from what this page showed.",
  );
  if (c.commitment === true) lines.push("Its commitment is the one this page showed before the game.");
  if (c.commitment === false) lines.push("Its commitment is NOT the one this page showed before the game.");
  const n = c.deckCount === 1 ? "the deck's commitment" : `the ${c.deckCount} decks' commitments`;
  if (c.decks === true) {
    lines.push(
      c.replays
        ? `It opens ${n} this page showed as the cards were shuffled: each order was fixed before any card of it was dealt.`
        : `Its decks' commitments are the ones this page showed as the cards were shuffled.`,
    );
  }
  if (c.decks === false) lines.push("Its decks' commitments are NOT the ones this page showed as the cards were shuffled.");
  if (c.mode === "crypto") {
    lines.push(
      "In a crypto game the server drew the dice and shuffled the cards: the record shows that every move was legal and that the game is what those draws make, not that the draws were fair.",
    );
  }
  return lines;
}

/** sameJSON: a and b are the same JSON value (objects key by key, in
 * any order). */
function sameJSON(a: unknown, b: unknown): boolean {
  if (typeof a === "string") {
    try {
      a = JSON.parse(a);
    } catch {
      return false;
    }
  }
  if (typeof b === "string") {
    try {
      b = JSON.parse(b);
    } catch {
      return false;
    }
  }
  return canon(a) === canon(b);
}

function canon(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return "{" + Object.keys(o).sort().map((k) => JSON.stringify(k) + ":" + canon(o[k])).join(",") + "}";
  }
  return JSON.stringify(v) ?? "undefined";
}
