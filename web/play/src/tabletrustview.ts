// getView's trustless part as the page reads it (table.TrustlessView),
// and the seat's checkpoint (docs/play.md, "Trustless tables";
// docs/store.md, "The saved table's parts"): the moves the
// page's seat has checked from the first move (trustseat.Seat.Checked,
// read from the WebAssembly: tableChecked). Each poll of a seated page
// sends it as getView's checkedMoves, as the Go client does
// (client.TrustTable), and the view's protocol then holds only the moves
// after it (movesBase says how many come before): on Firestore the
// table's head alone once the checkpoint is at or past its sealed moves.
// The seat checks such a view from its own checkpoint; a seat that has
// checked none (a fresh page, a reload, a seat just made again from the
// secrets another tab stored) sends none and reads every move, and a
// view read before it was made again, which starts past its checkpoint,
// is read again whole before the seat is asked anything (forSeat).

import type { TableView } from "./tablewords";

/** PendingRound is the move waiting for its round (table.PendingRound). */
export interface PendingRound {
  index: number;
  move: string;
  version: number;
  at: number;
  deadline: number;
  reveals: { seat: number; uid: string; at: number }[] | null;
}

/** TrustView is getView's trustless part (table.TrustlessView), as far
 * as the page reads it. */
export interface TrustView {
  chainLength: number;
  deadlineMs: number;
  seats: { uid: string; chainHead: string; publicKey: string }[] | null;
  nextIndex: number;
  pendingRound?: PendingRound;
  /** movesBase is how many applied moves come before the view's moves
   * (a view of the moves after the seat's checkpoint). */
  movesBase?: number;
  /** deal is a dealing table's mental-poker deal (trustdeal.View). */
  deal?: { Phase: string } | null;
}

/** trustOf is the view's trustless protocol, or null. */
export function trustOf(v: TableView): TrustView | null {
  return ((v as unknown as { trustless?: TrustView }).trustless ?? null) || null;
}

/** Call is a call to the functions. */
export type Call = <T>(fn: string, data: object) => Promise<T>;

/** wholeView reads v's table again with every move (getView without
 * checkedMoves). */
export function wholeView(call: Call, v: TableView): () => Promise<TableView> {
  return () => call<TableView>("getView", { game: v.game, gameId: v.gameId });
}

/** viewFields is getView's data for a table page's poll: the log after
 * afterSeq and, when checked (the seat's checkpoint) is above 0, the
 * moves after the first checked. */
export function viewFields(game: string, gameId: string, afterSeq: number, checked: number): Record<string, unknown> {
  const d: Record<string, unknown> = { game, gameId, afterSeq };
  if (Number.isInteger(checked) && checked > 0) d["checkedMoves"] = checked;
  return d;
}

/** movesBase is how many applied moves come before the moves of v's
 * trustless protocol (table.TrustlessView.MovesBase; 0: every move, or
 * no protocol). */
export function movesBase(v: TableView): number {
  return trustOf(v)?.movesBase ?? 0;
}

/** forSeat is the view the seat, having checked checked moves, can check
 * for an action against v: v itself unless its moves start past the
 * checkpoint, else the table read again whole (whole: getView without
 * checkedMoves) at v's version. Errors: whole's, and a table that moved
 * on meanwhile (the action is made again against the next view). */
export async function forSeat(v: TableView, checked: number, whole: () => Promise<TableView>): Promise<TableView> {
  if (movesBase(v) <= checked) return v;
  const w = await whole();
  if (w.version !== v.version) throw new Error(`the table moved on from version ${v.version} to ${w.version} while its moves were read again`);
  if (movesBase(w) > 0) throw new Error(`the table's moves were read again from move ${movesBase(w) + 1}, not from the first`);
  return w;
}

/** seatChecked is the checkpoint of the page's seat at v's table, read
 * from the WebAssembly (tableChecked): 0 at a table that is not
 * trustless, for a page without a seat there, or before the
 * WebAssembly's seat was asked anything. */
export function seatChecked(v: TableView): number {
  if (v.mode !== "trustless" || v.seat < 0) return 0;
  type API = { tableChecked?(gameId: string, uid: string): { ok: boolean; checked?: number } };
  const a = (globalThis as unknown as { fairboard?: API }).fairboard?.tableChecked?.(v.gameId, v.seats[v.seat]?.uid ?? "");
  return a?.ok && Number.isInteger(a.checked) && a.checked! > 0 ? a.checked! : 0;
}
