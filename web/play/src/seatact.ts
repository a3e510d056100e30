// A trustless seat open in several tabs of one browser: they share the
// seat's record (IndexedDB) and its Web Lock, and each acts from the
// record as it is inside the lock (trustgame.ts, TrustSeat.act). What a
// tab does when another tab of its seat moved first is decided here:
// which refusals another tab's progress explains, and whether the click
// is sent again as a new action or the tab just shows the board. Pure
// (no DOM, no SDK): test/seatact_test.ts runs it in Node.
// docs/play.md, "Trustless games" (one seat in several tabs).

import type { Action } from "./types";

/** OTHER_TAB is what a tab says in its status line when another tab of
 * its seat moved first (cleared when the game moves on). */
export const OTHER_TAB = "This seat moved in another tab; the board is up to date.";

/** StaleSeat: the seat's record, read inside its lock, holds an action
 * signed at or after the version this tab's click was made on, and not
 * this one: another tab (or this one before a reload) moved first. */
export class StaleSeat extends Error {
  constructor(
    readonly signed: number,
    readonly clicked: number,
  ) {
    super(`this seat has already signed an action against version ${signed} (in another tab, or before a reload); this board showed version ${clicked}`);
  }
}

/** progressCodes are the server's refusals (details.code) that another
 * tab's progress explains: the game moved on (stale_version, and the
 * turn, step or round it changed), the action or its id already applied
 * (duplicate_action, action_id_reused), the index already revealed or
 * its round over (already_revealed, wrong_index), or the game over. */
const progressCodes = new Set([
  "stale_version",
  "duplicate_action",
  "action_id_reused",
  "not_your_turn",
  "wrong_step",
  "pending",
  "wrong_index",
  "already_revealed",
  "game_over",
]);

/** indexCheck is the seat's index check (player.Seat.PrepareActReveal
 * and PrepareReveal): the index the board's action would use is not the
 * one after the last the seat revealed, as a tab whose board or copy of
 * the record is behind another tab's reveal sees it. */
const indexCheck = /would use index \d+, not the next after \d+|index \d+ is not the next after \d+/;

/** anotherTabsProgress says whether another tab's progress explains the
 * refusal e: then a fresh read of the record and of the game says what
 * is left to do. Any other refusal is said as it is. */
export function anotherTabsProgress(e: unknown): boolean {
  if (e instanceof StaleSeat) return true;
  const code = (e as { details?: { code?: string } } | null | undefined)?.details?.code;
  if (code) return progressCodes.has(code);
  return indexCheck.test(e instanceof Error ? e.message : String(e));
}

/** Race is what a tab knows after a refusal, once it has read the seat's
 * record and the game again. */
export interface Race {
  /** at is the version the refused action was made against. */
  at: number;
  /** signedAt is the last version the seat signed an action against
   * (the record's signedVersion; 0 if none). */
  signedAt: number;
  /** sameAction: the record's action at signedAt is the refused one
   * (function, kind, card and target). */
  sameAction: boolean;
  /** legalNow: the refused action (kind, card, target) is among the
   * actions the engine offers on the fresh board. */
  legalNow: boolean;
  /** tries is how many times the action was sent again already. */
  tries: number;
}

/** MAX_RETRIES bounds the new actions one click makes. */
export const MAX_RETRIES = 3;

/** Decision: "retry" sends the click again as a new action (a new
 * actionId, against the fresh version); "shown": the move is made or no
 * longer legal, the tab shows the board and says another tab moved;
 * "refused": the refusal is said as it is. */
export type Decision = "retry" | "shown" | "refused";

/** decide says what a tab does after the refusal e of its action. */
export function decide(e: unknown, r: Race): Decision {
  if (!anotherTabsProgress(e)) return "refused";
  if (r.signedAt === r.at && r.sameAction) return "shown"; // another tab made this very move
  if (!r.legalNow) return "shown"; // the game moved past it
  return r.tries < MAX_RETRIES ? "retry" : "refused";
}

/** sameAction says whether the stored request x (function and data) is
 * the action fn with data (kind, card and target). */
export function sameAction(x: { fn: string; data: Record<string, unknown> } | undefined, fn: string, data: Record<string, unknown>): boolean {
  if (!x || x.fn !== fn) return false;
  return (["kind", "target", "cardId"] as const).every((k) => (x.data[k] ?? "") === (data[k] ?? ""));
}

/** legalNow says whether a (kind, card, target) is among legal. */
export function legalNow(a: Action, legal: Action[]): boolean {
  return legal.some((l) => l.kind === a.kind && (l.cardId ?? "") === (a.cardId ?? "") && (l.target ?? "") === (a.target ?? ""));
}

/** noteOtherTab says in the status line el that another tab moved, on
 * the board at `version` (with the round of index `round` open, if
 * any), until the game moves on (clearOtherTab). */
export function noteOtherTab(el: HTMLElement, version: number, round?: number): void {
  el.textContent = OTHER_TAB;
  el.dataset.code = "other_tab";
  el.dataset.otherTabAt = String(version);
  el.dataset.otherTabRound = round === undefined ? "" : String(round);
  document.body.dataset.otherTab = String(+(document.body.dataset.otherTab ?? 0) + 1);
}

/** clearOtherTab clears that note once the board shows the game moved
 * on: past `version`, the round open then (the other tab's move
 * waiting for its reveals) closing being still that move. */
export function clearOtherTab(el: HTMLElement, version: number, round?: number): void {
  const at = el.dataset.otherTabAt;
  if (at === undefined || version <= +at) return;
  const open = el.dataset.otherTabRound;
  if (open) {
    if (round === undefined || String(round) === open) {
      el.dataset.otherTabAt = String(version); // that round, or its close
      if (round === undefined) el.dataset.otherTabRound = "";
      return;
    }
  }
  delete el.dataset.otherTabAt;
  delete el.dataset.otherTabRound;
  if (el.textContent === OTHER_TAB) el.textContent = "";
  if (el.dataset.code === "other_tab") el.dataset.code = "";
}
