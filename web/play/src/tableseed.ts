// A seeded table on the page (docs/play.md, "Seeded tables"): the seed its
// creator types in the lobby, checked before it is sent (1 to 256 bytes of
// UTF-8, as createGame takes it: table.MaxSeedLen), kept on the creator's
// device, and at the end what the page says of the record's seed: that
// every die was recomputed from it (the record's check, made in the
// page's WebAssembly) and, on the creator's device, that it is the seed
// typed at the create. No DOM and no storage here (run by Node in
// TestTableSeedInNode).

/** maxSeedBytes is the longest seed createGame takes, in bytes of UTF-8
 * (table.MaxSeedLen). */
export const maxSeedBytes = 256;

/** seedProblem says why seed cannot be sent, in words, or "" when it can:
 * it must be 1 to maxSeedBytes bytes of UTF-8 (a lone surrogate, which
 * has no UTF-8, is refused rather than sent as a replacement character). */
export function seedProblem(seed: string): string {
  if (seed === "") {
    return "A seeded table needs a seed: type 1 to 256 bytes of text (the same seed replays the same dice).";
  }
  try {
    encodeURIComponent(seed); // throws on a lone surrogate
  } catch {
    return "The seed holds a broken character (half of a pair): type it again.";
  }
  const n = new TextEncoder().encode(seed).length;
  if (n > maxSeedBytes) {
    return `The seed is ${n} bytes long (in UTF-8): at most ${maxSeedBytes} bytes are allowed.`;
  }
  return "";
}

/** seedKey is where a creator's device keeps the seed it sent for the
 * table gameId (localStorage). */
export function seedKey(uid: string, gameId: string): string {
  return `fairboard.tableseed.${uid}.${gameId}`;
}

/** SeededRecord is what the end's check reads of a table's record
 * (match.Record: fairboard-game/v1). */
export interface SeededRecord {
  mode?: unknown;
  seed?: unknown;
}

/** SeedCheck is the end's verdict on a seeded table's record: whether
 * it replays (the WebAssembly's check, "ok" or not, with its message),
 * whether it is a seeded record with a seed at all, and, where this
 * device kept the seed it sent, whether the record's is that one (null:
 * nothing kept here, not the creator's device). */
export interface SeedCheck {
  replays: boolean;
  seeded: boolean;
  seed: string;
  mine: boolean | null;
}

/** seedCheck judges rec, whose replay status is status ("ok" when every
 * move and draw replayed), against kept (the seed this device sent, or
 * null). */
export function seedCheck(rec: SeededRecord, status: string, kept: string | null): SeedCheck {
  const seeded = rec.mode === "seeded" && typeof rec.seed === "string" && rec.seed !== "";
  const seed = typeof rec.seed === "string" ? rec.seed : "";
  return { replays: status === "ok", seeded, seed, mine: kept === null ? null : seeded && seed === kept };
}

/** seedOK: the record replays from its seed, and that seed is this
 * device's where it kept one. */
export function seedOK(c: SeedCheck): boolean {
  return c.replays && c.seeded && c.mine !== false;
}

/** seedLines say c in words, after the replay's own line (message). */
export function seedLines(c: SeedCheck, message: string): string[] {
  const lines = [c.replays ? "The record verifies: " + message : "The record does NOT verify: " + message];
  if (!c.seeded) {
    lines.push("The record is NOT a seeded table's: it carries no seed.");
    return lines;
  }
  const quoted = `“${c.seed}”`;
  lines.push(
    c.replays
      ? `Its seed is ${quoted}: every die and card of the game was recomputed from it, here.`
      : `Its seed is ${quoted}, but the game is not the one that seed and those moves make.`,
  );
  if (c.mine === true) lines.push("It is the seed you typed when you created the table.");
  if (c.mine === false) lines.push("It is NOT the seed you typed when you created the table.");
  if (c.mine === null) lines.push("The table's creator chose it: whoever knew it could foresee every die.");
  return lines;
}
