// A table game's page (any registered game but the dungeon, docs/play.md,
// "Other games: the generic board"): the lobby's game choice and create,
// and the open game followed by polling getView every second, drawn on
// the generic board (genericboard.ts), with its join, start and moves.

import { byId, h, replace, show } from "./dom";
import type { Engine, GameInfo } from "./engine";
import { CallError } from "./backend";
import { refusal } from "./errors";
import { clearStale, noteStatus, pageTitle } from "./safety";
import { appendLog, moveButtons, redescribeLog, renderPlayers, renderState, turnLine } from "./genericboard";
import { openFields, showRematch } from "./spectate";
import { gameLabel, outcomeLine, seatName, uidName, words, type TableEvent, type TableMove, type TableView } from "./tablewords";

/** TableContext is what a table's page needs from the app. */
export interface TableContext {
  uid: string;
  /** call calls a function, sending the same request again while its
   * answer is lost. */
  call<T>(fn: string, data: object): Promise<T>;
  newId(prefix: string): string;
  info(game: string): GameInfo | undefined;
}

/** TableResult is the answer of createGame, joinGame, startGame and act. */
interface TableResult {
  version: number;
  replayed: boolean;
}

const POLL_MS = 1000;
/** HIDDEN_TICKS: a page in the background reads every fifth tick. */
const HIDDEN_TICKS = 5;

function fill(sel: HTMLSelectElement, options: [string, string][], want?: string): void {
  const keep = want ?? sel.value;
  replace(sel, ...options.map(([v, label]) => h("option", { value: v }, label)));
  if (options.some(([v]) => v === keep)) sel.value = keep;
}

function seatOptions(n: number): [string, string][] {
  return Array.from({ length: n }, (_, i) => [String(i), "Seat " + (i + 1)] as [string, string]);
}

/** optionSelects makes a labelled select per seat option of the game. */
function optionSelects(box: HTMLElement, prefix: string, info: GameInfo): void {
  replace(
    box,
    ...info.seats.options.flatMap((o) => [
      h("label", { for: `${prefix}-${o.name}` }, capitalWords(o.name) + (o.doc ? ` (${o.doc})` : "")),
      (() => {
        const s = h("select", { id: `${prefix}-${o.name}`, "data-option": o.name });
        fill(s, o.values.map((x) => [x, x]));
        return s;
      })(),
    ]),
  );
  show(box, info.seats.options.length > 0);
}

function capitalWords(s: string): string {
  const w = words(s);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function chosenOptions(box: HTMLElement): Record<string, string> | undefined {
  const sels = Array.from(box.querySelectorAll<HTMLSelectElement>("select[data-option]"));
  if (sels.length === 0) return undefined;
  return Object.fromEntries(sels.map((s) => [s.dataset.option!, s.value]));
}

/** chosenGame is the game the lobby's create form names. */
export function chosenGame(): string {
  return byId<HTMLSelectElement>("create-game").value || "dungeon";
}

/** setupGameChoice fills the lobby's "Game" choice from the registry (the
 * dungeon first, the default) and shows, for the game chosen, its fields:
 * the dungeon's modes and classes, or a table game's player count, seat
 * and seat options. */
export function setupGameChoice(engine: Engine, dungeonSeats: number): void {
  const games = engine.games();
  const sel = byId<HTMLSelectElement>("create-game");
  fill(sel, games.map((g) => [g.name, gameLabel(g)]), "dungeon");
  const seats = byId<HTMLSelectElement>("create-seats");
  const seat = byId<HTMLSelectElement>("create-seat");
  const update = () => {
    const info = games.find((g) => g.name === sel.value);
    const dungeon = !info || info.name === "dungeon";
    for (const id of ["create-mode", "create-class-label", "create-class"]) show(byId(id), dungeon);
    for (const id of ["create-seats-label", "create-seats"]) show(byId(id), !dungeon);
    if (dungeon) {
      fill(seat, seatOptions(dungeonSeats));
      show(byId("create-options"), false);
      return;
    }
    const counts: [string, string][] = [];
    for (let n = info.seats.min; n <= info.seats.max; n++) counts.push([String(n), `${n} players`]);
    fill(seats, counts, seats.dataset.game === info.name ? undefined : String(info.seats.default));
    seats.dataset.game = info.name;
    fill(seat, seatOptions(Number(seats.value)));
    optionSelects(byId("create-options"), "create-option", info);
  };
  sel.addEventListener("change", update);
  seats.addEventListener("change", update);
  update();
}

/** createTable creates a table of the game chosen in the lobby (crypto
 * mode: the server's generator), seats its creator and opens it. */
export async function createTable(ctx: TableContext, game: string): Promise<void> {
  const gameId = ctx.newId("g");
  const seats = Number(byId<HTMLSelectElement>("create-seats").value);
  const seat = Number(byId<HTMLSelectElement>("create-seat").value);
  const created = await ctx.call<TableResult>("createGame", { game, gameId, actionId: ctx.newId("c"), mode: "crypto", seats, ...openFields() });
  const options = chosenOptions(byId("create-options"));
  await ctx.call<TableResult>("joinGame", { gameId, actionId: ctx.newId("j"), version: created.version, seat, ...(options ? { options } : {}) });
  location.hash = "game=" + gameId;
}

/** TableGame is an open table game: its view as last read, followed by
 * polling getView (every second; every five in the background). */
export class TableGame {
  view: TableView;
  private lastSeq = 0;
  private timer = 0;
  private ticks = 0;
  private reading = false;
  private again = false;
  private pending = false;
  private closed = false;
  private movesKey = "";
  private readonly info: GameInfo | undefined;
  private readonly ac = new AbortController();

  constructor(
    private readonly ctx: TableContext,
    readonly id: string,
    first: TableView,
  ) {
    this.view = first;
    this.info = ctx.info(first.game);
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
    if (this.info) optionSelects(byId("tg-join-options"), "tg-option", this.info);
    this.take(first);
    this.timer = window.setInterval(() => this.tick(), POLL_MS);
  }

  /** game is the game's name. */
  get game(): string {
    return this.view.game;
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.timer);
    this.ac.abort();
    document.title = pageTitle({ hidden: false, yourMove: false, revealDue: false });
  }

  private tick(): void {
    if (document.hidden && ++this.ticks % HIDDEN_TICKS !== 0) return;
    if (this.view.phase === "finished") return window.clearInterval(this.timer);
    void this.refresh();
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
      const v = await this.ctx.call<TableView>("getView", { game: this.view.game, gameId: this.id, afterSeq: this.lastSeq });
      if (!this.closed && v.version >= this.view.version) this.take(v);
    } catch (e) {
      if (!this.closed) byId("tg-status").textContent = "The game could not be read: " + refusal(e);
    } finally {
      this.reading = false;
    }
    if (this.again) {
      this.again = false;
      await this.refresh();
    }
  }

  private name = seatName([], -1);
  private who = uidName();
  /** events are the log's events by seq, to say them again when the
   * names change; namesKey the names and seats they were said with. */
  private events = new Map<number, TableEvent>();
  private namesKey = "";

  private take(v: TableView): void {
    this.view = v;
    this.name = seatName(v.seats, v.seat, v.names);
    this.who = uidName(v.names);
    for (const e of v.log) this.events.set(e.seq, e);
    const key = JSON.stringify([v.names ?? {}, v.seats.map((s) => s.uid)]);
    if (key !== this.namesKey) {
      this.namesKey = key;
      redescribeLog(byId("tg-log"), this.events, v.game, this.name, this.who);
    }
    const el = byId("table");
    el.dataset.phase = v.phase;
    el.dataset.version = String(v.version);
    el.dataset.seat = String(v.seat);
    byId("tg-mode").textContent = `Mode: ${v.mode}${v.mode === "crypto" ? " (dice from the server's secure generator)" : ""}. The page reads the game every second.`;
    show(byId("tg-share"), v.phase === "lobby");
    this.lastSeq = appendLog(byId("tg-log"), v, this.lastSeq, this.name, this.who);
    el.dataset.logSeq = String(this.lastSeq);
    const box = byId("tg-log-box");
    box.scrollTop = box.scrollHeight;
    renderPlayers(byId("tg-players"), v, this.info, this.name);
    renderState(byId("tg-state"), v, this.name);
    byId("tg-turn").textContent = turnLine(v, this.name, this.ctx.uid);
    show(byId("tg-end"), v.phase === "finished");
    show(byId("tg-watching"), !!v.spectating && v.phase !== "lobby"); // read-only: no seat, no move
    showRematch("tg-rematch", v.seat >= 0, v.phase === "finished");
    byId("tg-result").textContent = outcomeLine(v, this.name);
    // A refusal is said at its version, and cleared once a later one shows.
    clearStale(byId("tg-status"), v.version);
    this.renderControls();
    this.renderTitle();
  }

  /** renderControls offers the join form, the owner's start and the
   * legal moves, none while an action is on its way. */
  private renderControls(): void {
    const v = this.view;
    const free = v.seats.map((s, i) => (s.uid ? -1 : i)).filter((i) => i >= 0);
    const joining = v.phase === "lobby" && v.seat < 0 && free.length > 0 && !this.pending;
    show(byId("tg-join"), joining);
    if (joining) fill(byId<HTMLSelectElement>("tg-join-seat"), free.map((i) => [String(i), "Seat " + (i + 1)]));
    show(byId("tg-start"), v.phase === "lobby" && v.owner === this.ctx.uid && free.length === 0 && !this.pending);
    const canAbandon = v.phase !== "finished" && v.owner === this.ctx.uid && !this.pending;
    show(byId("tg-abandon"), canAbandon);
    if (!canAbandon) show(byId("tg-abandon-confirm"), false);
    const legal = this.pending || v.phase !== "playing" ? [] : v.legal;
    const el = byId("table");
    el.dataset.mine = legal.length ? "1" : "";
    el.dataset.pending = this.pending ? "1" : "";
    const key = JSON.stringify([legal, v.version]);
    if (key === this.movesKey) return;
    this.movesKey = key;
    const box = byId("tg-move-buttons");
    const hadFocus = box.contains(document.activeElement) || document.activeElement === document.body;
    const buttons = moveButtons(legal, this.info, (m) => this.move(m));
    replace(box, ...buttons);
    show(byId("tg-moves"), buttons.length > 0);
    if (hadFocus && buttons[0]) buttons[0].focus();
  }

  /** renderTitle says in the title of a page in the background that the
   * game waits for this player's move. */
  private renderTitle(): void {
    const v = this.view;
    const yourMove = v.phase === "playing" && v.toMove === v.seat && v.seat >= 0 && !this.pending;
    const title = pageTitle({ hidden: document.hidden, yourMove, revealDue: false });
    if (document.title !== title) document.title = title;
  }

  private join(): void {
    const seat = Number(byId<HTMLSelectElement>("tg-join-seat").value);
    const options = chosenOptions(byId("tg-join-options"));
    this.do("joinGame", { seat, ...(options ? { options } : {}) });
  }

  private move(m: TableMove): void {
    this.do("act", { move: m });
  }

  /** do sends one action at the version shown, with a fresh action id
   * (the same one again while its answer is lost), then reads the game. */
  private do(fn: string, fields: Record<string, unknown>): void {
    if (this.pending) return;
    this.pending = true;
    const status = byId("tg-status");
    status.textContent = "Sending…";
    this.movesKey = "";
    this.renderControls();
    const version = this.view.version;
    const data = { game: this.view.game, gameId: this.id, actionId: this.ctx.newId("a"), version, ...fields };
    void this.ctx
      .call<TableResult>(fn, data)
      .then(
        (r) => (status.textContent = r.replayed ? "Done (the server had already applied it)." : ""),
        (e) => noteStatus(status, "Refused: " + refusal(e), version, e instanceof CallError ? e.details?.code ?? e.code : ""),
      )
      .then(async () => {
        this.pending = false;
        await this.refresh();
        this.movesKey = "";
        this.renderControls();
      });
  }
}
