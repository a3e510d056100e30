// Following a table game by Firestore listeners (docs/play.md, "Other
// games: the generic board"), as the dungeon's page follows its game: the
// table's public document games/{id}, its log (in order, through log.ts's
// InOrder), this seat's own document games/{id}/seats/{seat} (its private
// part and the events addressed to it, which the rules let its uid alone
// read) and the players' names. tablestore/fstables writes them;
// docs/store.md, "Table games: a document per seat", has the layout.

import { collection, doc, documentId, getDocs, onSnapshot, orderBy, query, startAfter, type Firestore } from "firebase/firestore";

import { docId, eventsOfDoc, InOrder } from "./log";
import { OwnEvents, type SeatDoc, type TableDoc } from "./tabledocs";
import type { TableEvent } from "./tablewords";

/** TableHandlers are told what the listeners hear. */
export interface TableHandlers {
  table(d: TableDoc): void;
  /** seat: this seat's document (null while it has none: Pig's). */
  seat(d: SeatDoc | null): void;
  /** events: the log after afterSeq, in order, each once, this seat's
   * addressed events in place of their traces. */
  events(evs: TableEvent[]): void;
  names(m: Record<string, string>): void;
  error(err: unknown): void;
}

/** watchTable listens to a table for the player at seat (the rules let
 * only the seated players read the table and its log, and a seat's
 * document only its uid) and returns the function that stops it. */
export function watchTable(db: Firestore, gameId: string, seat: number, afterSeq: number, h: TableHandlers): () => void {
  const own = new OwnEvents(seat);
  const hand = (evs: TableEvent[]) => {
    if (evs.length) h.events(evs);
  };
  // The seat's document exists once the game gave the seat a private
  // part or an addressed event (at the start for Kuhn poker; never for
  // Pig): a listener on a document that does not exist is refused by the
  // rules (they read its uid), so it is attached at the start and again
  // when the log names an event addressed to this seat while it has none.
  let offSeat: (() => void) | null = null;
  let seatHeard = false;
  const listenSeat = () => {
    if (offSeat) return;
    offSeat = onSnapshot(
      doc(db, "games", gameId, "seats", String(seat)),
      (snap) => {
        seatHeard = snap.exists();
        const d = snap.exists() ? (snap.data() as SeatDoc) : null;
        h.seat(d);
        if (d) hand(own.own(d.events ?? []));
      },
      () => {
        offSeat = null; // no document yet: listened to again when one is due
      },
    );
  };
  const offTable = onSnapshot(
    doc(db, "games", gameId),
    (snap) => {
      if (!snap.exists() || snap.metadata.hasPendingWrites) return;
      const d = snap.data() as TableDoc;
      if (d.phase !== "lobby" && !seatHeard) listenSeat();
      h.table(d);
    },
    (err) => h.error(err),
  );
  const offNames = onSnapshot(
    doc(db, "games", gameId, "names", "all"),
    (snap) => h.names(((snap.exists() ? snap.data()["byUid"] : null) ?? {}) as Record<string, string>),
    (err) => h.error(err),
  );
  const log = collection(db, "games", gameId, "log");
  const order = new InOrder(afterSeq);
  const take = (docs: { id: string; data(): Record<string, unknown> }[]) => {
    // An event heard again (a gap's read that the listener delivered
    // too) was handed on already: a table's log documents are created
    // once and never change.
    const before = order.after;
    const evs = order.take(docs.flatMap((d) => eventsOfDoc(d.id, d.data()))).filter((e) => e.seq > before) as TableEvent[];
    hand(own.log(evs));
    if (own.waitingFor && !seatHeard) listenSeat();
  };
  // A gap the next snapshot does not fill is read once (as the dungeon's).
  let filling = false;
  const fill = () => {
    if (filling || !order.waiting) return;
    filling = true;
    getDocs(query(log, orderBy(documentId()), startAfter(docId(order.after))))
      .then((snap) => take(snap.docs))
      .catch((err) => h.error(err))
      .finally(() => {
        filling = false;
      });
  };
  const q = afterSeq > 0 ? query(log, orderBy(documentId()), startAfter(docId(afterSeq))) : query(log, orderBy(documentId()));
  const offLog = onSnapshot(
    q,
    (snap) => {
      take(snap.docChanges().filter((ch) => ch.type === "added").map((ch) => ch.doc));
      fill();
    },
    (err) => h.error(err),
  );
  return () => {
    offTable();
    offNames();
    offLog();
    offSeat?.();
  };
}
