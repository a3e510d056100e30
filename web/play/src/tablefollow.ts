// Following an open table game (docs/play.md, "Other games: the generic
// board"): by Firestore listeners once this player is seated where the
// page has Firestore (tablewatch.ts), reading getView once per version at
// which this seat is to move, for its legal moves (the page cannot compute
// a game's moves from its view), and reading it again after 5 s without
// news from them, or when the page comes back to the foreground or
// online; else by polling getView every second
// (every fifth second in the background): on the in-memory server, and
// for a page without a seat, which the rules keep out of the table's
// documents.

import type { Firestore } from "firebase/firestore";
import { refusal } from "./errors";
import { viewOfDocs, type SeatDoc, type TableDoc } from "./tabledocs";
import { watchTable } from "./tablewatch";
import { viewFields } from "./tabletrustview";
import type { TableMove, TableView } from "./tablewords";

const POLL_MS = 1000;
/** HIDDEN_TICKS: a page in the background reads every fifth tick. */
const HIDDEN_TICKS = 5;

/** SILENCE_MS is how long a live table's page waits for news from its
 * listeners before it reads the table itself (getView), as the dungeon's
 * page does (gameview.ts): a listener may stay silent for a minute on a
 * loaded emulator, or after a reconnect, while the game moves on. */
const SILENCE_MS = 5000;

/** LOOK_AGAIN is defined true by the build (web/play/bundle.Args); only
 * a test's broken variant (the positive control) goes without. */
declare const LOOK_AGAIN: boolean;

/** Followed is the open table's page, as the follower sees it. */
export interface Followed {
  readonly id: string;
  /** view is the view shown. */
  readonly view: TableView;
  /** lastSeq is the last log event shown. */
  readonly lastSeq: number;
  /** checked is how many moves the page's seat has checked at a
   * trustless table (tabletrustview.ts: getView's checkedMoves; 0: none). */
  checked(): number;
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
  /** lastNews is when a listener last said anything; silence is the
   * timer that reads the table after SILENCE_MS without news. */
  private lastNews = 0;
  private silence = 0;
  private readonly ac = new AbortController();

  constructor(
    private readonly ctx: { uid: string; call<T>(fn: string, data: object): Promise<T>; db?: Firestore | undefined },
    private readonly page: Followed,
  ) {
    this.timer = window.setInterval(() => this.tick(), POLL_MS);
    // Back in the foreground or back online: the listeners may have
    // missed what happened meanwhile, so the table is read at once.
    const sig = { signal: this.ac.signal };
    document.addEventListener("visibilitychange", () => !document.hidden && this.live && this.reread(), sig);
    window.addEventListener("online", () => this.live && this.reread(), sig);
  }

  /** live says whether the page follows the game by listeners. */
  get live(): boolean {
    return this.unwatch !== null;
  }

  close(): void {
    this.closed = true;
    this.ac.abort();
    window.clearInterval(this.timer);
    window.clearInterval(this.silence);
    this.unwatch?.();
    this.unwatch = null;
  }

  private tick(): void {
    if (document.hidden && ++this.ticks % HIDDEN_TICKS !== 0) return;
    if (this.page.view.phase === "finished" || this.unwatch) return this.stopPolling();
    void this.refresh();
  }

  /** follow listens to the table once this player is seated, where the
   * page has Firestore, and stops polling. */
  follow(): void {
    const db = this.ctx.db;
    if (!db || this.unwatch || this.closed || this.page.view.seat < 0) return;
    this.stopPolling();
    const news = () => (this.lastNews = Date.now());
    news();
    if (LOOK_AGAIN && !this.silence) this.silence = window.setInterval(() => this.lookAgain(), 1000);
    this.unwatch = watchTable(db, this.page.id, this.page.view.seat, this.page.lastSeq, {
      table: (d) => {
        news();
        this.watchFailures = 0;
        this.tableDoc = d;
        this.fromDocs();
      },
      seat: (d) => {
        news();
        this.seatDoc = d;
        this.fromDocs();
      },
      events: (log) => {
        news();
        this.offer({ ...this.page.view, log });
      },
      names: (names) => {
        news();
        this.offer({ ...this.page.view, names, log: [] });
      },
      error: (e) => this.rewatch(e),
    });
  }

  /** unfollow stops listening once this player holds no seat (it left,
   * or the owner removed it: the rules keep the page out of the table's
   * documents) and polls getView again, while the game is not over. */
  unfollow(): void {
    if (this.closed) return;
    this.unwatch?.();
    this.unwatch = null;
    window.clearInterval(this.silence);
    this.silence = 0;
    this.tableDoc = null;
    this.seatDoc = null;
    if (!this.timer && this.page.view.phase !== "finished") this.timer = window.setInterval(() => this.tick(), POLL_MS);
  }

  private stopPolling(): void {
    window.clearInterval(this.timer);
    this.timer = 0;
  }

  /** lookAgain reads the table after SILENCE_MS without news from the
   * listeners, until the game ends: a move another player made shows
   * even if no listener delivers it. */
  private lookAgain(): void {
    if (this.closed || !this.unwatch || this.page.view.phase === "finished" || Date.now() - this.lastNews < SILENCE_MS) return;
    this.reread();
  }

  /** reread reads the table now, and counts it as news. */
  private reread(): void {
    this.lastNews = Date.now();
    void this.refresh();
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
   * intervals, up to five times in a row. A failure that the seat's leave
   * or removal explains (the rules keep a page without a seat out of the
   * table's documents; getView says so at once) is not said: the page
   * polls getView again. */
  private rewatch(e: unknown): void {
    this.unwatch?.();
    this.unwatch = null;
    if (this.closed) return;
    void this.refresh().then(() => {
      if (this.closed || this.unwatch) return;
      if (this.page.view.seat < 0) return this.unfollow();
      this.page.say("The live connection failed: " + refusal(e));
      if (this.watchFailures >= 5) return;
      const delay = 1000 * 2 ** this.watchFailures++;
      window.setTimeout(() => {
        if (this.closed || this.unwatch) return;
        void this.refresh().then(() => this.follow());
      }, delay);
    });
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
      const v = await this.ctx.call<TableView>("getView", viewFields(this.page.view.game, this.page.id, this.page.lastSeq, this.page.checked()));
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
