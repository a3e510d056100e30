// A table game's page (any registered game but the dungeon, docs/play.md,
// "Other games: the generic board"; the lobby's form is tablecreate.ts):
// the open game drawn on its own board where it has one, else on the
// generic board (boards.ts), with its join, start and moves. A seated player's page follows the game by
// Firestore listeners where the page has Firestore (tablewatch.ts),
// reading getView once per version at which it is to move, for its legal
// moves; elsewhere (the in-memory server, or a page without a seat, which
// the rules keep out of the table's documents) it polls getView.

import { byId, replace, show } from "./dom";
import type { GameInfo } from "./engine";
import { CallError } from "./backend";
import { refusal } from "./errors";
import { clearStale, noteStatus, pageTitle, signalTurn, TurnAlert } from "./safety";
import { appendLog, moveButtons, redescribeLog, renderPlayers, turnLine } from "./genericboard";
import { boardFor, genericBoard, seenEvents, type BoardContext } from "./boards";
import { downloadRecord, FairView, RecordView, saveSent, SeededView } from "./tableend";
import { drawEntropy } from "./tablefair";
import { Follower } from "./tablefollow";
import { commitAtJoin, OpenPage } from "./tableopen";
import { showRematch } from "./spectate";
import { chosenOptions, fill, optionSelects, type TableContext, type TableResult } from "./tablecreate";
import { SeatControls } from "./tableseats";
import { joinAt, signedMove, TrustPage } from "./tabletrust";
import { seatChecked, trustOf } from "./tabletrustview";
import { gameLabel, outcomeLine, seatName, uidName, type TableEvent, type TableMove, type TableView } from "./tablewords";

/** modeWords say what a table's mode means. */
const modeWords: Record<string, string> = {
  crypto: " (dice and cards from the server's secure generator)",
  fair: " (the server committed to its seed before anyone joined; each player's browser adds its own random bytes; everything is revealed and checked at the end)",
  seeded: " (replayable from its seed: for development)",
  trustless: " (dice from the players' hash chains, each revealed by its player's page; nobody, the server included, knows a die before it is drawn)",
};

/** dealtWords say what a trustless table that deals cards means (its
 * view shows the deal from the start on); lobbyTrustWords what a
 * trustless table means before, when the page cannot tell yet. */
const dealtWords = " (cards dealt by mental poker between the players' pages; nobody, the server included, knows a card before its player's page opens it)";
const lobbyTrustWords =
  " (dice from the players' hash chains, each revealed by its player's page, and cards dealt by mental poker between the players' pages; nobody, the server included, knows one before it is drawn)";

/** TableGame is an open table game: its view as last shown, brought by
 * its Follower (tablefollow.ts: listeners or getView). */
export class TableGame {
  view: TableView;
  lastSeq = 0;
  private pending = false;
  private closed = false;
  private movesKey = "";
  private readonly info: GameInfo | undefined;
  private readonly ac = new AbortController();
  private readonly fair: FairView;
  private readonly seeded: SeededView;
  private readonly record: RecordView;
  private readonly trust: TrustPage;
  private readonly opening: OpenPage;
  private readonly alert = new TurnAlert();
  private readonly follower: Follower;
  private readonly seatControls: SeatControls;
  /** awaitVersion is the version an action of this page answered: its
   * moves wait until the board shows it. */
  private awaitVersion = 0;

  constructor(
    private readonly ctx: TableContext,
    readonly id: string,
    first: TableView,
  ) {
    this.view = first;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    this.info = ctx.info(first.game);
    this.fair = new FairView(ctx.uid, id);
    this.seeded = new SeededView(ctx.uid, id, ctx.call);
    this.record = new RecordView(ctx.uid, ctx.call);
    this.trust = new TrustPage({
      uid: ctx.uid, gameId: id, call: ctx.call, refresh: () => this.refresh(), say: (t) => (byId("tg-status").textContent = t),
      opened: (cards) => this.openedCards(cards), ackKey: ctx.ackKey,
    });
    this.opening = new OpenPage({ uid: ctx.uid, gameId: id, call: ctx.call, newId: ctx.newId, refresh: () => this.refresh() });
    byId("tg-game").textContent = this.info ? gameLabel(this.info) : first.game;
    byId("tg-id").textContent = id;
    const link = location.origin + location.pathname + "#game=" + id;
    const a = byId<HTMLAnchorElement>("tg-link");
    a.href = link;
    a.textContent = link;
    replace(byId("tg-log"));
    byId("tg-status").textContent = "";
    const sig = { signal: this.ac.signal };
    byId("tg-join").addEventListener("submit", (e) => {
      e.preventDefault();
      this.join();
    }, sig);
    byId("tg-start").addEventListener("click", () => this.do("startGame", {}), sig);
    byId("tg-record").addEventListener("click", () => void downloadRecord(this.ctx.call, this.view), sig);
    byId("tg-record-status").textContent = "";
    byId("tg-trust-abort").addEventListener("click", () => this.trust.abort(this.view), sig);
    byId("tg-leave").addEventListener("click", () => (location.hash = ""), sig);
    // The owner's abandon asks first: the game ends for everyone.
    byId("tg-abandon").addEventListener("click", () => {
      show(byId("tg-abandon-confirm"), true);
      byId("tg-abandon-confirm").focus();
    }, sig);
    byId("tg-abandon-confirm").addEventListener("click", () => {
      show(byId("tg-abandon-confirm"), false);
      this.do("act", { kind: "abandon" });
    }, sig);
    document.addEventListener("visibilitychange", () => this.renderTitle(), sig);
    this.seatControls = new SeatControls({ uid: ctx.uid, act: (f) => this.do("act", f) }, this.ac.signal);
    if (this.info) optionSelects(byId("tg-join-options"), "tg-option", this.info);
    this.follower = new Follower(ctx, {
      id, get view() { return self.view; }, get lastSeq() { return self.lastSeq; }, checked: () => seatChecked(this.view), take: (v) => this.take(v), say: (t) => (byId("tg-status").textContent = t),
    });
    this.take(first);
  }

  /** game is the game's name. */
  get game(): string {
    return this.view.game;
  }

  close(): void {
    this.closed = true;
    this.follower.close();
    this.opening.close();
    this.ac.abort();
    document.title = pageTitle({ hidden: false, yourMove: false, revealDue: false });
    show(byId("tg-notify"), false);
  }

  /** seatedInPlay says whether this player holds a seat of the table
   * while it is not over (a guest is warned before signing out). */
  seatedInPlay(): boolean {
    return this.view.seat >= 0 && this.view.phase !== "finished";
  }

  /** live says whether the page follows the game by listeners. */
  get live(): boolean {
    return this.follower.live;
  }

  /** refresh reads the view (getView). */
  refresh(): Promise<void> {
    return this.follower.refresh();
  }

  private name = seatName([], -1);
  private who = uidName();
  /** events are the log's events by seq, to say them again when the
   * names change; namesKey the names and seats they were said with. */
  private events = new Map<number, TableEvent>();
  private namesKey = "";
  /** rules is the ruleset getView last answered (the listeners' view has
   * none); opened the cards opened on this device at a trustless table. */
  private rules: unknown = null;
  private opened: number[] | null = null;

  /** openedCards takes the cards opened on this device (a trustless
   * table's deal) and draws the board again if they changed. */
  private openedCards(cards: number[]): void {
    const next = cards.length ? cards : null;
    if (JSON.stringify(next) === JSON.stringify(this.opened)) return;
    this.opened = next;
    if (!this.closed) this.drawBoard();
  }

  /** boardContext is what a board draws v from (and labels its moves
   * with): the view, every event seen, the ruleset, names and the cards
   * opened on this device. */
  private boardContext(v: TableView): BoardContext {
    return { view: v, events: seenEvents(this.events), rules: this.rules, name: this.name, opened: this.opened };
  }

  /** drawBoard draws the game's own board, if it has one, and the
   * game's values as rows: the generic board itself for a game without
   * one, folded under its own board for a game with one. */
  private drawBoard(): void {
    const v = this.view;
    const board = boardFor(v.game);
    const ctx = this.boardContext(v);
    show(byId("tg-board-body"), board.own);
    if (board.own) board.draw(byId("tg-board-body"), ctx);
    genericBoard.draw(byId("tg-state"), ctx);
    const more = byId<HTMLDetailsElement>("tg-state-more");
    if (more.dataset.own !== String(board.own)) {
      more.dataset.own = String(board.own);
      more.open = !board.own;
      byId("tg-board-title").textContent = board.own ? "The board" : "The game";
      byId("tg-state-summary").textContent = board.own ? "Every value of the game, in words" : "The game's values";
    }
  }

  private take(v: TableView): void {
    this.view = v;
    if (v.rules !== undefined && v.rules !== null) this.rules = v.rules;
    this.name = seatName(v.seats, v.seat, v.names);
    this.who = uidName(v.names);
    for (const e of v.log) this.events.set(e.seq, e);
    const key = JSON.stringify([v.names ?? {}, v.seats.map((s) => s.uid)]);
    if (key !== this.namesKey) {
      this.namesKey = key;
      redescribeLog(byId("tg-log"), this.events, v.game, v.seats.length, this.name, this.who, this.rules);
    }
    const el = byId("table");
    el.dataset.phase = v.phase;
    el.dataset.version = String(v.version);
    el.dataset.seat = String(v.seat);
    el.dataset.toMove = String(v.toMove);
    const trustless = v.mode === "trustless" && (trustOf(v)?.deal ? dealtWords : v.phase === "lobby" ? lobbyTrustWords : "");
    const meaning = trustless || (modeWords[v.mode] ?? "");
    byId("tg-mode").textContent = `Mode: ${v.mode}${meaning}. ` +
      (this.live ? "The page follows the game live." : "The page reads the game every second.");
    el.dataset.live = this.live ? "1" : "";
    this.fair.render(v, this.name);
    this.seeded.render(v);
    this.record.render(v, this.events.values());
    this.trust.render(v, this.name);
    this.opening.render(v, this.name);
    show(byId("tg-share"), v.phase === "lobby" && v.seats.some((s) => s.uid === "")); // an invitation while a seat is free
    this.lastSeq = appendLog(byId("tg-log"), v, this.lastSeq, this.name, this.who, this.rules);
    el.dataset.logSeq = String(this.lastSeq);
    const box = byId("tg-log-box");
    box.scrollTop = box.scrollHeight;
    renderPlayers(byId("tg-players"), v, this.info, this.name);
    this.drawBoard();
    byId("tg-turn").textContent = this.trust.turn(v, this.name) ?? this.opening.turn(v) ?? turnLine(v, this.name, this.ctx.uid);
    show(byId("tg-end"), v.phase === "finished");
    show(byId("tg-watching"), !!v.spectating && v.phase !== "lobby"); // read-only: no seat, no move
    showRematch("tg-rematch", v.seat >= 0, v.phase === "finished");
    byId("tg-result").textContent = outcomeLine(v, this.name);
    // A refusal is said at its version, and cleared once a later one shows.
    clearStale(byId("tg-status"), v.version);
    this.renderControls();
    this.renderTitle();
    // A trustless table is read by getView (its protocol is not in the
    // table's documents): the page polls it every second.
    if (v.seat >= 0 && v.mode !== "trustless") this.follower?.follow();
    else this.follower?.unfollow(); // left, or removed: out of the table's documents
  }

  /** renderControls offers the join form, the owner's start and the
   * legal moves, none while an action is on its way. */
  private renderControls(): void {
    const v = this.view;
    const free = v.seats.map((s, i) => (s.uid ? -1 : i)).filter((i) => i >= 0);
    const joining = v.phase === "lobby" && v.seat < 0 && free.length > 0 && !this.pending;
    show(byId("tg-join"), joining);
    if (joining) fill(byId<HTMLSelectElement>("tg-join-seat"), free.map((i) => [String(i), "Seat " + (i + 1)]));
    const opened = v.fairness?.openings?.opened.every(Boolean) ?? true; // a table with openings starts once every seat opened
    show(byId("tg-start"), v.phase === "lobby" && v.owner === this.ctx.uid && free.length === 0 && opened && !this.pending);
    const canAbandon = v.phase !== "finished" && v.owner === this.ctx.uid && !this.pending;
    show(byId("tg-abandon"), canAbandon);
    if (!canAbandon) show(byId("tg-abandon-confirm"), false);
    this.seatControls.render(v, this.name, this.pending);
    const waiting = this.pending || v.version < this.awaitVersion; // an action answered, not shown yet
    const legal = waiting || v.phase !== "playing" || this.trust.dealing(v) ? [] : v.legal;
    const el = byId("table");
    el.dataset.mine = legal.length ? "1" : "";
    el.dataset.pending = this.pending ? "1" : "";
    const key = JSON.stringify([legal, v.version]);
    if (key === this.movesKey) return;
    this.movesKey = key;
    const box = byId("tg-move-buttons");
    const hadFocus = box.contains(document.activeElement) || document.activeElement === document.body;
    const board = boardFor(v.game);
    const ctx = this.boardContext(v);
    const buttons = moveButtons(legal, this.info, (m) => this.move(m), board.moveLabel ? (m) => board.moveLabel!(m, ctx) : undefined);
    replace(box, ...buttons);
    show(byId("tg-moves"), buttons.length > 0);
    if (hadFocus && buttons[0]) buttons[0].focus();
  }

  /** renderTitle says in the title of a page in the background, and
   * with the player's permission in a notification, that the game waits
   * for this player's move (safety.ts, as the dungeon's page). */
  renderTitle(): void {
    if (this.closed) return;
    const v = this.view;
    const yourMove = v.phase === "playing" && v.toMove === v.seat && v.seat >= 0 && !this.pending && !this.trust.turn(v, this.name);
    signalTurn(this.alert, { gameId: this.id, version: v.version, yourMove, revealDue: this.trust.due(v), seatedInPlay: this.seatedInPlay() }, byId("tg-notify"));
  }

  /** join takes the seat chosen; at a fair table with the player's
   * contribution, drawn now (after the page has shown the commitment)
   * and kept with the commitment seen; at one with openings with the
   * commitment to it alone (tableopen.ts). */
  private join(): void {
    const seat = Number(byId<HTMLSelectElement>("tg-join-seat").value);
    const options = chosenOptions(byId("tg-join-options"));
    const f = this.view.fairness;
    if (f?.openings && !this.pending) {
      // With openings: the commitment only, the contribution kept here.
      void commitAtJoin(this.ctx.uid, this.id, seat, f.commitmentHex).then(
        (c) => this.do("joinGame", { seat, ...(options ? { options } : {}), entropyCommitment: c }),
        (e) => (byId("tg-status").textContent = "Your contribution could not be drawn and kept: " + refusal(e)),
      );
      return;
    }
    let entropy: Record<string, string> = {};
    if (f && !this.pending) {
      const entropyHex = drawEntropy();
      saveSent(this.ctx.uid, this.id, { commitmentHex: f.commitmentHex, entropyHex });
      entropy = { entropy: entropyHex };
    }
    const fields = { seat, ...(options ? { options } : {}), ...entropy };
    if (this.view.mode !== "trustless" || this.pending) return this.do("joinGame", fields);
    void joinAt(this.view, this.ctx.uid, seat).then(
      (trust) => this.do("joinGame", { ...fields, ...trust }),
      (e) => (byId("tg-status").textContent = "Your seat could not be drawn: " + refusal(e)),
    );
  }

  /** move sends m; at a trustless table signed by the page's seat, with
   * its reveal when m draws. */
  private move(m: TableMove): void {
    if (this.view.mode !== "trustless") return this.do("act", { move: m });
    if (this.trust.lied) {
      byId("tg-status").textContent = "This page found the server lying at this table (a refused acknowledgement or a reveal marker, see above): it sends nothing more at this table.";
      return;
    }
    const v = this.view;
    void signedMove(v, m, this.ctx.call).then(
      (f) => (this.view.version === v.version ? this.do("act", f) : (byId("tg-status").textContent = "The table moved on while your move was being signed: choose again.")),
      (e) => (byId("tg-status").textContent = "Your move could not be signed: " + refusal(e)),
    );
  }

  /** do sends one action at the version shown, with a fresh action id
   * (the same one again while its answer is lost), then reads the game.
   * A join refused as stale (another player joined first: joins do not
   * depend on each other) is sent again at the version read, while its
   * seat is still free, at most five times; a leave likewise, while the
   * page still holds a seat in the lobby (a removal is not: the seat may
   * have changed hands). */
  private do(fn: string, fields: Record<string, unknown>): void {
    if (this.pending) return;
    this.pending = true;
    const status = byId("tg-status");
    status.textContent = "Sending…";
    this.movesKey = "";
    this.renderControls();
    let version = this.view.version;
    const send = async (): Promise<TableResult> => {
      for (let tries = 0; ; tries++) {
        const data = { game: this.view.game, gameId: this.id, actionId: this.ctx.newId("a"), version, ...fields };
        try {
          const r = await this.ctx.call<TableResult>(fn, data);
          // A trustless move's reveal or deal keys: its acknowledgement
          // checked and kept (tableack.ts).
          if (this.view.mode === "trustless" && this.view.seat >= 0) await this.trust.acked(this.view, fn, data, r);
          return r;
        } catch (e) {
          const stale = e instanceof CallError && e.details?.code === "stale_version";
          const leave = fn === "act" && fields["kind"] === "leave";
          if (!stale || (fn !== "joinGame" && !leave) || tries >= 4) throw e;
          await this.refresh();
          if (leave) {
            if (this.view.phase !== "lobby" || this.view.seat < 0) throw e;
            version = this.view.version;
            continue;
          }
          const seat = this.view.seats[Number(fields["seat"])];
          if (this.view.phase !== "lobby" || !seat || seat.uid !== "") throw e;
          version = this.view.version;
          if (this.view.mode === "trustless") Object.assign(fields, await joinAt(this.view, this.ctx.uid, Number(fields["seat"]))); // signed again at the new version
        }
      }
    };
    void send()
      .then(
        (r) => {
          status.textContent = r.replayed ? "Done (the server had already applied it)." : "";
          this.awaitVersion = Math.max(this.awaitVersion, r.version);
        },
        (e) => noteStatus(status, "Refused: " + refusal(e), version, e instanceof CallError ? e.details?.code ?? e.code : ""),
      )
      .then(async () => {
        this.pending = false;
        // Followed live, the listeners bring the action's result; polled,
        // it is read now, and after a leave (the listeners lose the table).
        if (!this.live || fields["kind"] === "leave") await this.refresh();
        this.movesKey = "";
        this.renderControls();
      });
  }
}
