// Following an open table game (docs/play.md, "Other games: the generic
// board"): by Firestore listeners once this player is seated where the
// page has Firestore (tablewatch.ts), reading getView once per version at
// which this seat is to move, for its legal moves (the page cannot compute
// a game's moves from its view); else by polling getView every second
// (every fifth second in the background): on the in-memory server, and
// for a page without a seat, which the rules keep out of the table's
// documents.

import type { Firestore } from "firebase/firestore";
import { refusal } from "./errors";
import { viewOfDocs, type SeatDoc, type TableDoc } from "./tabledocs";
import { watchTable } from "./tablewatch";
import type { TableMove, TableView } from "./tablewords";

const POLL_MS = 1000;
/** HIDDEN_TICKS: a page in the background reads every fifth tick. */
const HIDDEN_TICKS = 5;

/** Followed is the open table's page, as the follower sees it. */
export interface Followed {
  readonly id: string;
  /** view is the view shown. */
  readonly view: TableView;
  /** lastSeq is the last log event shown. */
  readonly lastSeq: number;
  /** take shows a view (at the version shown or a later one). */
  take(v: TableView): void;
  /** say says a problem in the status line. */
  say(text: string): void;
}

/** Follower brings a table's views to its page. */
export class Follower {
  private timer = 0;
  private ticks = 0;
  private reading = false;
  private again = false;
  private closed = false;
  private unwatch: (() => void) | null = null;
  private tableDoc: TableDoc | null = null;
  private seatDoc: SeatDoc | null = null;
  /** legal are the legal moves getView answered at its version; askedAt
   * the last version at which they were asked for. */
  private legal: { version: number; moves: TableMove[] } = { version: -1, moves: [] };
  private askedAt = -1;
  private watchFailures = 0;

  constructor(
    private readonly ctx: { uid: string; call<T>(fn: string, data: object): Promise<T>; db?: Firestore | undefined },
    private readonly page: Followed,
  ) {
    this.timer = window.setInterval(() => this.tick(), POLL_MS);
  }

  /** live says whether the page follows the game by listeners. */
  get live(): boolean {
    return this.unwatch !== null;
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.timer);
    this.unwatch?.();
    this.unwatch = null;
  }

  private tick(): void {
    if (document.hidden && ++this.ticks % HIDDEN_TICKS !== 0) return;
    if (this.page.view.phase === "finished" || this.unwatch) return window.clearInterval(this.timer);
    void this.refresh();
  }

  /** follow listens to the table once this player is seated, where the
   * page has Firestore, and stops polling. */
  follow(): void {
    const db = this.ctx.db;
    if (!db || this.unwatch || this.closed || this.page.view.seat < 0) return;
    window.clearInterval(this.timer);
    this.unwatch = watchTable(db, this.page.id, this.page.view.seat, this.page.lastSeq, {
      table: (d) => {
        this.watchFailures = 0;
        this.tableDoc = d;
        this.fromDocs();
      },
      seat: (d) => {
        this.seatDoc = d;
        this.fromDocs();
      },
      events: (log) => this.offer({ ...this.page.view, log }),
      names: (names) => this.offer({ ...this.page.view, names, log: [] }),
      error: (e) => this.rewatch(e),
    });
  }

  /** fromDocs shows the table as its documents say it, and reads the
   * legal moves (getView) once at a version where this seat is to move. */
  private fromDocs(): void {
    const d = this.tableDoc;
    if (!d || this.closed || d.version < this.page.view.version) return;
    const moves = d.version === this.legal.version ? this.legal.moves : [];
    const v = viewOfDocs(d, this.seatDoc, this.page.id, this.ctx.uid, this.page.view.names, moves);
    this.offer(v);
    if (v.phase === "playing" && v.seat >= 0 && v.toMove === v.seat && this.askedAt < v.version) {
      this.askedAt = v.version;
      void this.refresh();
    }
  }

  /** rewatch listens again after a listener failed (a failed listener is
   * over): it reads what it missed with getView first, at growing
   * intervals, up to five times in a row. */
  private rewatch(e: unknown): void {
    this.unwatch?.();
    this.unwatch = null;
    this.page.say("The live connection failed: " + refusal(e));
    if (this.closed || this.watchFailures >= 5) return;
    const delay = 1000 * 2 ** this.watchFailures++;
    window.setTimeout(() => {
      if (this.closed || this.unwatch) return;
      void this.refresh().then(() => this.follow());
    }, delay);
  }

  /** offer shows v unless the page shows a later version already. */
  private offer(v: TableView): void {
    if (!this.closed && v.version >= this.page.view.version) this.page.take(v);
  }

  /** refresh reads the view (the log after what is shown). */
  async refresh(): Promise<void> {
    if (this.closed) return;
    if (this.reading) {
      this.again = true; // read again once this read is in: it may predate an action
      return;
    }
    this.reading = true;
    try {
      const v = await this.ctx.call<TableView>("getView", { game: this.page.view.game, gameId: this.page.id, afterSeq: this.page.lastSeq });
      if (v.version >= this.legal.version) this.legal = { version: v.version, moves: v.legal };
      this.offer(v);
    } catch (e) {
      if (!this.closed) this.page.say("The game could not be read: " + refusal(e));
    } finally {
      this.reading = false;
    }
    if (this.again) {
      this.again = false;
      await this.refresh();
    }
  }
}
