// A table game's page (any registered game but the dungeon, docs/play.md,
// "Other games: the generic board"): the lobby's game choice and create,
// and the open game drawn on the generic board (genericboard.ts), with its
// join, start and moves. A seated player's page follows the game by
// Firestore listeners where the page has Firestore (tablewatch.ts),
// reading getView once per version at which it is to move, for its legal
// moves; elsewhere (the in-memory server, or a page without a seat, which
// the rules keep out of the table's documents) it polls getView.

import { byId, h, replace, show } from "./dom";
import type { Firestore } from "firebase/firestore";
import type { Engine, GameInfo } from "./engine";
import { CallError } from "./backend";
import { refusal } from "./errors";
import { clearStale, noteStatus, pageTitle, signalTurn, TurnAlert } from "./safety";
import { appendLog, moveButtons, redescribeLog, renderPlayers, renderState, turnLine } from "./genericboard";
import { downloadRecord, FairView, saveSent } from "./tableend";
import { drawEntropy } from "./tablefair";
import { Follower } from "./tablefollow";
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
  /** db is the database to listen to, where the page has one. */
  db?: Firestore | undefined;
}

/** TableResult is the answer of createGame, joinGame, startGame and act. */
interface TableResult {
  version: number;
  replayed: boolean;
}


/** modeWords say what a table's mode means. */
const modeWords: Record<string, string> = {
  crypto: " (dice and cards from the server's secure generator)",
  fair: " (the server committed to its seed before anyone joined; each player's browser adds its own random bytes; everything is revealed and checked at the end)",
  seeded: " (replayable from its seed: for development)",
};

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
    for (const id of ["create-class-label", "create-class"]) show(byId(id), dungeon);
    // A table plays crypto or fair (seeded tables are the CLI's and the
    // API's: the page does not know whether the server allows them);
    // trustless is the dungeon's only.
    show(byId("create-mode-trustless"), dungeon);
    const trustless = document.querySelector<HTMLInputElement>('input[name="mode"][value="trustless"]');
    if (!dungeon && trustless?.checked) document.querySelector<HTMLInputElement>('input[name="mode"][value="crypto"]')!.checked = true;
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

/** createTable creates a table of the game chosen in the lobby, in the
 * mode chosen (crypto: the server's generator; fair: the server commits
 * to its seed), seats its creator and opens it. At a fair table the
 * creator's contribution is drawn after the page has read the
 * commitment, and kept with it (tableend.ts, saveSent). */
export async function createTable(ctx: TableContext, game: string, mode: string): Promise<void> {
  const gameId = ctx.newId("g");
  const seats = Number(byId<HTMLSelectElement>("create-seats").value);
  const seat = Number(byId<HTMLSelectElement>("create-seat").value);
  const created = await ctx.call<TableResult>("createGame", { game, gameId, actionId: ctx.newId("c"), mode, seats, ...openFields() });
  const options = chosenOptions(byId("create-options"));
  const join: Record<string, unknown> = { game, gameId, actionId: ctx.newId("j"), version: created.version, seat, ...(options ? { options } : {}) };
  if (mode === "fair") join["entropy"] = await fairEntropy(ctx, game, gameId);
  await ctx.call<TableResult>("joinGame", join);
  location.hash = "game=" + gameId;
}

/** fairEntropy reads a fair table's commitment, draws this player's
 * contribution and keeps both (before the join sends it). */
async function fairEntropy(ctx: TableContext, game: string, gameId: string): Promise<string> {
  const v = await ctx.call<TableView>("getView", { game, gameId });
  const commitmentHex = v.fairness?.commitmentHex;
  if (!commitmentHex) throw new Error("the fair table shows no commitment: not joining it");
  const entropyHex = drawEntropy();
  saveSent(ctx.uid, gameId, { commitmentHex, entropyHex });
  return entropyHex;
}

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
  private readonly alert = new TurnAlert();
  private readonly follower: Follower;
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
    this.follower = new Follower(ctx, { id, get view() { return self.view; }, get lastSeq() { return self.lastSeq; }, take: (v) => this.take(v), say: (t) => (byId("tg-status").textContent = t) });
    this.take(first);
  }

  /** game is the game's name. */
  get game(): string {
    return this.view.game;
  }

  close(): void {
    this.closed = true;
    this.follower.close();
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

  private take(v: TableView): void {
    this.view = v;
    this.name = seatName(v.seats, v.seat, v.names);
    this.who = uidName(v.names);
    for (const e of v.log) this.events.set(e.seq, e);
    const key = JSON.stringify([v.names ?? {}, v.seats.map((s) => s.uid)]);
    if (key !== this.namesKey) {
      this.namesKey = key;
      redescribeLog(byId("tg-log"), this.events, v.game, v.seats.length, this.name, this.who);
    }
    const el = byId("table");
    el.dataset.phase = v.phase;
    el.dataset.version = String(v.version);
    el.dataset.seat = String(v.seat);
    el.dataset.toMove = String(v.toMove);
    byId("tg-mode").textContent = `Mode: ${v.mode}${modeWords[v.mode] ?? ""}. ` +
      (this.live ? "The page follows the game live." : "The page reads the game every second.");
    el.dataset.live = this.live ? "1" : "";
    this.fair.render(v, this.name);
    show(byId("tg-share"), v.phase === "lobby" && v.seats.some((s) => s.uid === "")); // an invitation while a seat is free
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
    if (v.seat >= 0) this.follower?.follow();
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
    const waiting = this.pending || v.version < this.awaitVersion; // an action answered, not shown yet
    const legal = waiting || v.phase !== "playing" ? [] : v.legal;
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

  /** renderTitle says in the title of a page in the background, and
   * with the player's permission in a notification, that the game waits
   * for this player's move (safety.ts, as the dungeon's page). */
  renderTitle(): void {
    if (this.closed) return;
    const v = this.view;
    const yourMove = v.phase === "playing" && v.toMove === v.seat && v.seat >= 0 && !this.pending;
    signalTurn(this.alert, { gameId: this.id, version: v.version, yourMove, revealDue: false, seatedInPlay: this.seatedInPlay() }, byId("tg-notify"));
  }

  /** join takes the seat chosen; at a fair table with the player's
   * contribution, drawn now (after the page has shown the commitment)
   * and kept with the commitment seen. */
  private join(): void {
    const seat = Number(byId<HTMLSelectElement>("tg-join-seat").value);
    const options = chosenOptions(byId("tg-join-options"));
    const f = this.view.fairness;
    let entropy: Record<string, string> = {};
    if (f && !this.pending) {
      const entropyHex = drawEntropy();
      saveSent(this.ctx.uid, this.id, { commitmentHex: f.commitmentHex, entropyHex });
      entropy = { entropy: entropyHex };
    }
    this.do("joinGame", { seat, ...(options ? { options } : {}), ...entropy });
  }

  private move(m: TableMove): void {
    this.do("act", { move: m });
  }

  /** do sends one action at the version shown, with a fresh action id
   * (the same one again while its answer is lost), then reads the game.
   * A join refused as stale (another player joined first: joins do not
   * depend on each other) is sent again at the version read, while its
   * seat is still free, at most five times. */
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
          return await this.ctx.call<TableResult>(fn, data);
        } catch (e) {
          const stale = e instanceof CallError && e.details?.code === "stale_version";
          if (!stale || fn !== "joinGame" || tries >= 4) throw e;
          await this.refresh();
          const seat = this.view.seats[Number(fields["seat"])];
          if (this.view.phase !== "lobby" || !seat || seat.uid !== "") throw e;
          version = this.view.version;
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
        // it is read now.
        if (!this.live) await this.refresh();
        this.movesKey = "";
        this.renderControls();
      });
  }
}
