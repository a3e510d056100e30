// A table's seats in its lobby (docs/play.md, "Other games: the generic
// board"): a seated player's leave (act {kind: "leave"}) and the owner's
// removal of another player's seat (act {kind: "removeSeat", seat}), each
// asked first, offered while the seats may change (table/lobbyact.go: in
// the lobby, and at a fair table with openings before the first opening,
// which fixes them). The page says when this player's seat was freed, by
// this player (here or in another tab) or by the owner; the join form
// (tablegame.ts) offers a seat again.
//
// What this device keeps for the seat stays: it was never opened (a
// table with openings: the first opening fixes the seats) nor revealed
// (a trustless seat: nothing is revealed in the lobby), so a join at the
// same seat commits to it again and a join at another seat draws afresh
// (tableopen.ts commitAtJoin; tabletrust.ts join): the server forgot the
// seat's commitment, chain and key at the leave and takes them anew.

import { byId, h, replace, show } from "./dom";
import type { SeatNames, TableEvent, TableView } from "./tablewords";

/** seatsMayChange says whether v's seats may still be left or removed:
 * in the lobby, before a table with openings had its first opening. */
export function seatsMayChange(v: TableView): boolean {
  return v.phase === "lobby" && !(v.fairness?.openings?.opened.some(Boolean) ?? false);
}

/** SeatNews is the last of the log's events about uid's own seat: a
 * join, a leave, a removal by the owner. */
export type SeatNews = { seq: number; type: "Joined" | "Left" | "SeatRemoved"; seat: number } | null;

/** seatNews takes the events of log into the news last known (events
 * at or before its seq are old). */
export function seatNews(last: SeatNews, log: TableEvent[], uid: string): SeatNews {
  let out = last;
  for (const e of log) {
    if (e.game || e.uid !== uid || (out && e.seq <= out.seq)) continue;
    if (e.type === "Joined" || e.type === "Left" || e.type === "SeatRemoved") out = { seq: e.seq, type: e.type, seat: Number(e["seat"]) };
  }
  return out;
}

/** freedWords says that this player's seat was freed (news the last
 * event about it) while the page shows no seat of theirs, or "": "The
 * owner removed you from seat 2." or "You left seat 2.", and when a seat
 * can be taken again, that it can. */
export function freedWords(news: SeatNews, v: Pick<TableView, "phase" | "seat" | "seats">): string {
  if (!news || news.type === "Joined" || v.seat >= 0) return "";
  const what = news.type === "SeatRemoved" ? `The owner removed you from seat ${news.seat + 1}.` : `You left seat ${news.seat + 1}.`;
  const again = v.phase === "lobby" && v.seats.some((s) => s.uid === "") ? " You may take a free seat again below." : "";
  return what + again;
}

/** SeatDeps is what the seats' part of the page needs from it. */
export interface SeatDeps {
  uid: string;
  /** act sends an act of the page (tablegame.ts's do: its version, a
   * fresh action id, the same again while its answer is lost). */
  act(fields: Record<string, unknown>): void;
}

/** SeatControls draws the leave, the removals and the news of a freed
 * seat. */
export class SeatControls {
  private news: SeatNews = null;
  /** asking is the seat whose removal waits for the owner's yes, or -1. */
  private asking = -1;
  private key = "";

  constructor(
    private readonly d: SeatDeps,
    signal: AbortSignal,
  ) {
    const sig = { signal };
    byId("tg-seat-leave").addEventListener("click", () => {
      show(byId("tg-seat-leave-confirm"), true);
      byId("tg-seat-leave-confirm").focus();
    }, sig);
    byId("tg-seat-leave-confirm").addEventListener("click", () => {
      show(byId("tg-seat-leave-confirm"), false);
      this.d.act({ kind: "leave" });
    }, sig);
  }

  /** render shows v's controls (none while an action is on its way:
   * pending) and the news of this player's seat. */
  render(v: TableView, name: SeatNames, pending: boolean): void {
    this.news = seatNews(this.news, v.log, this.d.uid);
    const note = byId("tg-seat-news");
    note.textContent = freedWords(this.news, v);
    note.dataset.kind = note.textContent ? (this.news?.type === "SeatRemoved" ? "removed" : "left") : "";
    show(note, note.textContent !== "");
    const open = seatsMayChange(v) && !pending;
    const leave = open && v.seat >= 0;
    show(byId("tg-seat-leave"), leave);
    if (!leave) show(byId("tg-seat-leave-confirm"), false);
    const others = open && v.owner === this.d.uid ? v.seats.map((s, i) => (s.uid && s.uid !== this.d.uid ? i : -1)).filter((i) => i >= 0) : [];
    if (!others.includes(this.asking)) this.asking = -1;
    show(byId("tg-remove"), others.length > 0);
    const key = JSON.stringify(others.map((i) => [i, v.seats[i]?.uid, name(i)]));
    if (key !== this.key) {
      this.key = key;
      replace(
        byId("tg-remove-seats"),
        ...others.map((i) => {
          const ask = h("button", { type: "button", "data-seat": i, class: "tg-remove-ask" }, `Remove ${name(i)}…`);
          ask.addEventListener("click", () => {
            this.asking = i;
            this.showAsking();
            byId("tg-remove-seats").querySelector<HTMLButtonElement>(`.tg-remove-yes[data-seat="${i}"]`)?.focus();
          });
          const yes = h("button", { type: "button", "data-seat": i, class: "danger tg-remove-yes" }, `Yes, free seat ${i + 1}`);
          yes.addEventListener("click", () => {
            this.asking = -1;
            this.showAsking();
            this.d.act({ kind: "removeSeat", seat: i });
          });
          return h("li", { "data-seat": i }, ask, " ", yes);
        }),
      );
    }
    this.showAsking();
  }

  /** showAsking shows the yes of the removal asked for, and no other. */
  private showAsking(): void {
    for (const b of byId("tg-remove-seats").querySelectorAll<HTMLButtonElement>("button")) {
      const mine = b.dataset.seat === String(this.asking);
      if (b.classList.contains("tg-remove-yes")) b.hidden = !mine;
      else b.setAttribute("aria-expanded", mine ? "true" : "false");
    }
  }
}
