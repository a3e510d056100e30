// The markers of a trustless table's pending round, checked on every view
// the page reads (docs/play.md, "Markers checked"; docs/fairness.md,
// "Split view, replays and duplicates at a table"): each marker's uid is
// its seat's player, each seat is shown once, and its signature verifies
// under the seat's key over the round the same view shows. The page's
// WebAssembly checks them with the Go table client's code
// (web/play/wasm/tablemarks.go, table/trustseat's CheckMarks); this
// module says what the page shows of a lie, and keeps it: the page then
// sends no reveal, deal message nor move at the table.

import { byId, show } from "./dom";

/** MarksAnswer is the wasm's tableMarks answer. */
export interface MarksAnswer {
  ok: boolean;
  error?: string;
  lie?: boolean;
  words?: string;
}

/** marksLine is what the page says of a view whose markers lie (words:
 * the wasm's sentence naming the marker), or "" when a shows no lie (a
 * view the wasm could not read is not a lie: the seat's own checks
 * refuse it before it reveals). */
export function marksLine(a: MarksAnswer): string {
  if (!a.ok || !a.lie) return "";
  return (
    "The server lies at this table: it shows a reveal that its seat did not sign over the round shown here. " +
    "It may be showing the players different games (a split view), or it forged the reveal. " +
    `This page sends nothing more at this table. (${a.words ?? ""})`
  );
}

/** Marks checks the markers of each view through run (the wasm's
 * tableMarks) and keeps the first lie, shown in the alert tg-trust-marks. */
export class Marks {
  /** lied: a view's markers lied; the seat sends nothing more. */
  lied = false;

  constructor(private readonly run: (view: string) => MarksAnswer) {
    const el = byId("tg-trust-marks");
    el.textContent = "";
    el.dataset.lie = "";
    show(el, false);
  }

  /** check checks the view v (getView's answer) unless a lie is kept
   * already, and answers whether one is. */
  check(v: unknown): boolean {
    if (this.lied) return true;
    let a: MarksAnswer;
    try {
      a = this.run(JSON.stringify(v));
    } catch (e) {
      a = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    const text = marksLine(a);
    if (!text) return false;
    this.lied = true;
    const el = byId("tg-trust-marks");
    el.textContent = text;
    el.dataset.lie = "1";
    show(el, true);
    return true;
  }
}
