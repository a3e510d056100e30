// A table's Firestore documents as the page reads them (no DOM, no SDK:
// run by Node in TestTableWatchInNode): the public document and this
// seat's own, made into the view getView would answer, and this seat's
// addressed events put in the place of their traces in the public log.
// tablewatch.ts listens to them; tablestore/fstables writes them.

import type { TableFairness } from "./tablefair";
import type { TableEvent, TableSeat, TableView } from "./tablewords";

/** TableDoc is games/{id} of a table (fstables' publicDoc). */
export interface TableDoc {
  game: string;
  mode: string;
  ownerUid: string;
  phase: TableView["phase"];
  version: number;
  seats: TableSeat[];
  toMove: number;
  /** state is the game's public part as JSON text (absent before the
   * start). */
  state?: string;
  outcome?: TableView["outcome"];
  fairness?: TableFairness;
}

/** SeatDoc is games/{id}/seats/{seat} (fstables.SeatDoc). */
export interface SeatDoc {
  seat: number;
  uid: string;
  /** private is the game's private part of the seat, JSON text ("" for
   * none). */
  private: string;
  events: TableEvent[];
}

/** composeState is the seat's view of the game from its two documents,
 * as getView answers it (the game's AppendView): the public part alone
 * for a seat without a private part (Pig), else {"public": P, "private":
 * Q}, the form every registered game's AppendView has
 * (TestSeatViewIsPublicAndPrivate checks it over the registry). */
export function composeState(publicJSON: string | undefined, privateJSON: string | undefined): unknown {
  if (!publicJSON) return null;
  const pub: unknown = JSON.parse(publicJSON);
  return privateJSON ? { public: pub, private: JSON.parse(privateJSON) } : pub;
}

/** OwnEvents puts this seat's own addressed events in the place of their
 * traces in the public log: the log holds {seq, type: "Addressed", seat}
 * for an event addressed to a seat, and the seat's document holds the
 * event itself. A trace addressed to this seat waits, with every event
 * after it, until the seat's document has the event (the two documents
 * are written in one transaction but heard by two listeners). */
export class OwnEvents {
  private readonly mine = new Map<number, TableEvent>();
  private queue: TableEvent[] = [];

  constructor(private readonly seat: number) {}

  /** log takes public log events in order and returns those now due. */
  log(evs: TableEvent[]): TableEvent[] {
    this.queue.push(...evs);
    return this.flush();
  }

  /** own takes the seat document's events and returns those now due. */
  own(evs: TableEvent[]): TableEvent[] {
    for (const e of evs) this.mine.set(e.seq, e);
    return this.flush();
  }

  /** waitingFor is the seq of the trace held for its event (0: none). */
  get waitingFor(): number {
    const e = this.queue[0];
    return e && this.isMine(e) ? e.seq : 0;
  }

  private isMine(e: TableEvent): boolean {
    return e.type === "Addressed" && !e.game && e["seat"] === this.seat;
  }

  private flush(): TableEvent[] {
    const out: TableEvent[] = [];
    while (this.queue.length > 0) {
      const e = this.queue[0]!;
      if (this.isMine(e)) {
        const own = this.mine.get(e.seq);
        if (!own) break;
        out.push(own);
      } else out.push(e);
      this.queue.shift();
    }
    return out;
  }
}

/** viewOfDocs is the view getView would answer uid, made of the table's
 * documents as heard: the public document, this seat's own (its private
 * part), the names heard, and the legal moves last read for this version
 * (getView's: the page cannot compute a game's moves from its view). Its
 * log is empty: the log's listener hands the events on. */
export function viewOfDocs(d: TableDoc, s: SeatDoc | null, gameId: string, uid: string, names: Record<string, string> | undefined, legal: TableView["legal"]): TableView {
  const seat = d.seats.findIndex((x) => x.uid === uid);
  return {
    game: d.game,
    gameId,
    mode: d.mode,
    owner: d.ownerUid,
    phase: d.phase,
    version: d.version,
    seats: d.seats.map((x) => ({ uid: x.uid, options: x.options ?? null })),
    seat,
    toMove: d.toMove,
    state: composeState(d.state, seat >= 0 && s?.uid === uid ? s.private : undefined),
    legal,
    log: [],
    outcome: d.outcome ?? null,
    ...(names ? { names } : {}),
    fairness: d.fairness ?? null,
  };
}
