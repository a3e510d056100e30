// The player's web app: sign-in, lobby, the live board, actions, the end
// and its verification. docs/play.md describes each screen.

import { newBackend, CallError, type Backend, type User } from "./backend";
import { loadConfig, type Config } from "./config";
import { append, byId, h, replace, show } from "./dom";
import { loadEngine, type Engine } from "./engine";
import { refusal, retryable } from "./errors";
import { describe, PROTOCOL, type Names } from "./log";
import type { Action, GameEvent, Mark, Public, Result, View } from "./types";
import { renderBoard, renderFight, renderPlayers, seatLabel } from "./board";
import { joinFieldsAtCreate, modeOf } from "./modes";
import { TrustSeat } from "./trustgame";
import { clearOtherTab, legalNow, noteOtherTab } from "./seatact";
import { clearStale, confirmBar, guestMustConfirm, isIrreversible, noteStatus, ordered, signalTurn, TurnAlert } from "./safety";
import { chosenGame, createTable, setupGameChoice, TableGame, type TableContext } from "./tablegame";
import { isTableView, type TableView } from "./tablewords";
import { forgetName, loadName, setupNameForm } from "./name";
import { askRematch, joinRematchTable, loadOpenGames, openFields, Poller, setupOpenGames, showRematch, takeRematch } from "./spectate";
import { renderHelp } from "./help";
import { gameLabel } from "./tablewords";

let cfg: Config;
let engine: Engine;
let backend: Backend;
let user: User | null = null;
let current: GameView | null = null;
/** table is the open table game (any game but the dungeon), if any. */
let table: TableGame | null = null;

const sections = ["boot", "signin", "lobby", "game", "table"] as const;
function screen(name: (typeof sections)[number]): void {
  for (const s of sections) show(byId(s), s === name);
  document.body.dataset.screen = name;
}

function bootError(title: string, msg: string): void {
  screen("boot");
  byId("boot-title").textContent = title;
  byId("boot-msg").textContent = msg;
  document.body.dataset.screen = "boot-error";
}

/** newId is a fresh id of [a-z0-9] (game and action ids). */
function newId(prefix: string): string {
  const b = new Uint8Array(10);
  crypto.getRandomValues(b);
  const abc = "abcdefghijkmnpqrstuvwxyz23456789";
  return prefix + Array.from(b, (x) => abc[x % 32]).join("");
}

async function boot(): Promise<void> {
  // crypto.subtle, Web Locks and IndexedDB's guarantees exist only in a
  // secure context: https, or http to this machine (localhost, 127.0.0.1).
  if (!window.isSecureContext || !crypto.subtle || !navigator.locks || !window.indexedDB) {
    bootError(
      "This page needs a secure connection",
      `It was opened over plain http from ${location.host}, which the browser does not treat as secure, so it withholds ` +
        "what the game needs to keep your secrets (crypto.subtle to sign, Web Locks so that two tabs never both reveal, " +
        "IndexedDB to keep a trustless seat's keys). Open it over https, or on this machine as " +
        "http://localhost or http://127.0.0.1 (docs/play.md says how to serve it over https for a phone).",
    );
    return;
  }
  try {
    cfg = await loadConfig();
  } catch (e) {
    bootError("The server's configuration could not be read", String(e));
    return;
  }
  try {
    engine = await loadEngine("play.wasm");
  } catch (e) {
    bootError("The game engine could not load", String(e));
    return;
  }
  backend = newBackend(cfg);
  // Start-up: from the navigation's start to the engine and config loaded.
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  setupForms();
  updateNet();
  window.addEventListener("online", updateNet);
  window.addEventListener("offline", updateNet);
  window.addEventListener("hashchange", route);
  backend.onUser((u) => {
    user = u;
    byId("who").textContent = u ? "Signed in as " + u.label : "";
    if (u) void loadName(<T,>(fn: string, data: object) => callRetrying<T>(fn, data), u.uid, u.label);
    else forgetName();
    show(byId("signout"), !!u);
    route();
  });
}

/** netState is the listener's or the poller's latest word. */
let netState = "";
function updateNet(): void {
  const el = byId("net");
  let text = "";
  let state = "online";
  if (!navigator.onLine) {
    text = "Offline: your moves wait until the connection is back; the board shows what was last read.";
    state = "offline";
  } else if (netState === "cache") {
    text = "Reconnecting: the board shows what was last read.";
    state = "offline";
  } else if (!backend.live) {
    text = "This server keeps games in memory (no Firestore): the page asks it for news every second instead of listening.";
    state = "polling";
  } else if (netState.startsWith("error")) {
    text = "The live connection failed: " + netState.slice(6);
    state = "error";
  }
  el.textContent = text;
  el.dataset.state = state;
  current?.renderActions();
}

function route(): void {
  if (!user) {
    current?.close();
    current = null;
    closeTable();
    screen("signin");
    show(byId("firebase-signin"), !cfg.devAuth);
    show(byId("dev-form"), !!cfg.devAuth);
    return;
  }
  const id = new URLSearchParams(location.hash.slice(1)).get("game");
  if (id) {
    if (current?.id !== id) {
      current?.close();
      closeTable();
      current = new GameView(id);
      void current.open();
    }
    screen(table ? "table" : "game");
    return;
  }
  current?.close();
  current = null;
  closeTable();
  const last = localStorage.getItem("fairboard.lastGame." + user.uid);
  const resume = byId("resume");
  if (last) {
    replace(resume, "Your last game: ", h("a", { href: "#game=" + last, id: "resume-link" }, last));
  }
  show(resume, !!last);
  screen("lobby");
  void loadOpenGames(lobbyCall, listLabel);
}

function closeTable(): void {
  table?.close();
  table = null;
}

/** lobbyCall calls a function for the lobby (sent again while its answer
 * is lost); listLabel names a game in the list of open games. */
const lobbyCall = <T,>(fn: string, data: object) => callRetrying<T>(fn, data);
const listLabel = (game: string) => gameLabel({ name: game });

/** tableContext is what a table game's page uses of the app. */
function tableContext(): TableContext {
  return {
    uid: user!.uid,
    call: <T,>(fn: string, data: object) => callRetrying<T>(fn, data),
    newId,
    info: (name) => engine.games().find((g) => g.name === name),
    db: backend.firestore(),
  };
}

/** openTable shows a table game, whose first view getView answered. */
function openTable(id: string, v: TableView): void {
  closeTable();
  localStorage.setItem("fairboard.lastGame." + user!.uid, id);
  table = new TableGame(tableContext(), id, v);
  screen("table");
  joinRematchTable(lobbyCall, newId, table, v);
}

function fillSelect(sel: HTMLSelectElement, options: [string, string][]): void {
  const keep = sel.value;
  replace(sel, ...options.map(([v, label]) => h("option", { value: v }, label)));
  if (options.some(([v]) => v === keep)) sel.value = keep;
}

const classLabel = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

function setupForms(): void {
  const seats: [string, string][] = [];
  for (let i = 0; i < engine.rules.maxPlayers; i++) seats.push([String(i), "Seat " + (i + 1)]);
  fillSelect(byId<HTMLSelectElement>("create-seat"), seats);
  fillSelect(byId<HTMLSelectElement>("create-class"), engine.rules.classes.map((c) => [c, classLabel(c)]));
  setupGameChoice(engine, engine.rules.maxPlayers);
  setupOpenGames(lobbyCall, listLabel);

  const err = byId("signin-error");
  const guard = (fn: () => Promise<void>) => async () => {
    err.textContent = "";
    try {
      await fn();
    } catch (e) {
      err.textContent = "Sign-in failed: " + (e instanceof Error ? e.message : String(e));
    }
  };
  byId("guest").addEventListener("click", guard(() => backend.signInGuest()));
  setupNameForm(<T,>(fn: string, data: object) => callRetrying<T>(fn, data));
  const email = byId<HTMLInputElement>("email");
  const password = byId<HTMLInputElement>("password");
  byId("email-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void guard(() => backend.signInEmail(email.value, password.value, false))();
  });
  byId("email-signup").addEventListener("click", () => {
    if (!byId<HTMLFormElement>("email-form").reportValidity()) return;
    void guard(() => backend.signInEmail(email.value, password.value, true))();
  });
  byId("dev-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void guard(() => backend.signInDev(byId<HTMLInputElement>("dev-name").value))();
  });
  byId("signout").addEventListener("click", () => {
    // A guest who signs out cannot come back as the same player: warn
    // first when the open game holds their seat.
    if (guestMustConfirm(user?.label, (!!current?.seated() && current.state?.phase !== "finished") || !!table?.seatedInPlay())) {
      show(byId("signout-warning"), true);
      byId("signout-cancel").focus();
      return;
    }
    void backend.signOut();
  });
  byId("signout-cancel").addEventListener("click", () => show(byId("signout-warning"), false));
  byId("signout-confirm").addEventListener("click", () => {
    show(byId("signout-warning"), false);
    void backend.signOut();
  });
  byId("notify").addEventListener("click", () => {
    void Notification.requestPermission().then(() => current?.renderTitle());
  });
  byId("tg-notify").addEventListener("click", () => {
    void Notification.requestPermission().then(() => table?.renderTitle());
  });

  byId("create-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void createGame();
  });
  byId("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const raw = byId<HTMLInputElement>("open-id").value.trim();
    const m = /game=([A-Za-z0-9_-]+)/.exec(raw);
    const id = m ? m[1]! : raw;
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) {
      byId("lobby-error").textContent = "A game id is 1 to 128 letters, digits, - or _.";
      return;
    }
    location.hash = "game=" + id;
  });
  byId("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    current?.join();
  });
  byId("refresh").addEventListener("click", () => void current?.refresh());
  byId("leave").addEventListener("click", () => {
    location.hash = "";
  });
  byId("copy-link").addEventListener("click", () => {
    const link = byId<HTMLAnchorElement>("share-link").href;
    navigator.clipboard?.writeText(link).then(
      () => (byId("action-status").textContent = "The link is copied."),
      () => (byId("action-status").textContent = "Copy the link by hand: " + link),
    );
  });
  byId("abandon").addEventListener("click", () => {
    show(byId("abandon-confirm"), true);
    byId("abandon-confirm").focus();
  });
  byId("abandon-confirm").addEventListener("click", () => {
    show(byId("abandon-confirm"), false);
    current?.send({ kind: "abandon", actor: user!.uid });
  });
  byId("verify").addEventListener("click", () => void current?.verify());
  byId("rematch").addEventListener("click", () => current && void askRematch(lobbyCall, current.id, "dungeon", byId("rematch-status")));
  byId("tg-rematch").addEventListener("click", () => table && void askRematch(lobbyCall, table.id, table.game, byId("tg-rematch-status")));
  byId("help-open").addEventListener("click", () => {
    // How to play: the game's own words and numbers (its definition's
    // help, from the engine's WebAssembly), built once per game: the
    // dungeon's, or the open table game's.
    const body = byId("help-body");
    const game = table?.game ?? "dungeon";
    if (body.dataset.game !== game) renderHelp(body, engine.help(game));
    body.dataset.game = game;
    byId<HTMLDialogElement>("help").showModal();
    byId("help-title").focus(); // at its top; Tab reaches Close, Escape closes
  });
  byId("log-protocol").addEventListener("click", () => {
    // The fairness protocol's records (signed actions, reveal rounds,
    // sealed shuffles) stay in the log, collapsed until asked for.
    const box = byId("log-box");
    const shown = box.dataset.protocol !== "shown";
    box.dataset.protocol = shown ? "shown" : "";
    const b = byId("log-protocol");
    b.setAttribute("aria-pressed", String(shown));
    b.textContent = shown ? "Hide the fairness records" : "Show the fairness records";
  });
}

async function createGame(): Promise<void> {
  const errEl = byId("lobby-error");
  errEl.textContent = "";
  const mode = (document.querySelector('input[name="mode"]:checked') as HTMLInputElement).value;
  const seat = Number(byId<HTMLSelectElement>("create-seat").value);
  const cls = byId<HTMLSelectElement>("create-class").value;
  const gameId = newId("g");
  const button = byId<HTMLButtonElement>("create");
  button.disabled = true;
  try {
    const game = chosenGame();
    if (game !== "dungeon") return await createTable(tableContext(), game, mode);
    await callRetrying("createGame", { gameId, actionId: newId("c"), mode, ...openFields() });
    if (mode === "trustless") {
      // The seat's chain and key are drawn by the game's page, once it has
      // read the game (its chain length, its version): it joins then.
      sessionStorage.setItem(autoJoinKey(gameId), JSON.stringify({ seat, cls }));
      location.hash = "game=" + gameId;
      return;
    }
    // A fair game's contribution is drawn now, after the server has
    // committed to its seed (createGame's answer), and sent with the join.
    const join: Record<string, unknown> = { gameId, actionId: newId("j"), seat, class: cls, ...joinFieldsAtCreate(mode) };
    await callRetrying("joinGame", join);
    location.hash = "game=" + gameId;
  } catch (e) {
    errEl.textContent = "The game could not be created: " + refusal(e);
  } finally {
    button.disabled = false;
  }
}

/** RECENT is how many events "Just now" shows. */
const RECENT = 8;

/** RESYNC_TICKS is how many seconds a trustless page waits between two
 * looks at what its seat owes in an open round (trustgame.ts, resync). */
const RESYNC_TICKS = 5;

/** SILENCE_MS is how long a live page waits for news from its listeners
 * before it reads the game itself (getView): a Firestore listener was seen
 * to stay silent for a minute on a loaded emulator while the game moved
 * on, and the page then looked stuck on a move already made. */
const SILENCE_MS = 5000;

/** LOOK_AGAIN is defined true by the build (web/play/bundle.Args): a live
 * page reads the game after SILENCE_MS without news. Only the broken
 * variant a test builds to show that a silent listener is caught
 * without it (the positive control) goes without. */
declare const LOOK_AGAIN: boolean;

/** autoJoinKey keeps the seat and class chosen at a trustless create,
 * for the game's page to join with. */
function autoJoinKey(gameId: string): string {
  return "fairboard.autojoin." + user!.uid + "." + gameId;
}

/** callRetrying calls a function, sending the same request again (same
 * action id) while the answer is lost, up to three more times. */
async function callRetrying<T>(name: string, data: object, onRetry?: (n: number) => void): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await backend.call<T>(name, data);
    } catch (e) {
      if (!retryable(e) || n >= 3) throw e;
      onRetry?.(n + 1);
      await new Promise((r) => setTimeout(r, 250 * 2 ** n));
    }
  }
}

/** Pending is an action sent and not yet seen on the board. */
interface Pending {
  fn: string;
  data: Record<string, unknown>;
  /** version is the game version its answer reported, once answered. */
  version?: number;
}

const actionLabels: Record<string, (a: Action, n: Names) => string> = {
  start: () => "Start the game",
  useItem: (a, n) => "Use " + n.card(a.cardId),
  dropItem: (a, n) => "Drop " + n.card(a.cardId),
  endManage: () => "Done with items",
  offerDuel: (a, n) => "Challenge " + n.who(a.target),
  skipDuel: () => "Challenge no one",
  move: () => "Roll and move",
  sleep: () => "Sleep (heal instead of moving)",
  resolveCombatRound: () => "Fight a round",
  resolveDuelRound: () => "Fight a duel round",
  reroll: () => "Re-roll the defense die",
  declineReroll: () => "Keep the die",
  discard: (a, n) => "Discard " + n.card(a.cardId),
};

/** GameView is the open game: its state as read, the log, the actions. */
class GameView implements Names {
  state: Public | null = null;
  private lastSeq = 0;
  private unwatch: (() => void) | null = null;
  private pending: Pending | null = null;
  private problem = "";
  private legalKey = "";
  private closed = false;
  /** events are the log's events by seq, said again when the names or
   * the players change (namesKey): a line said before a player's name
   * was known (a reload reads the log before the game, a trustless page
   * before its join) names the player once it is. */
  private events = new Map<number, GameEvent>();
  private namesKey = "";
  /** names are the players' names copied into the game, by uid
   * (untrusted text: put in as text only). */
  private names: Record<string, string> = {};
  /** fresh are the events taken since the last state, for the mode. */
  private fresh: GameEvent[] = [];
  /** trust is this player's seat in a trustless game. */
  trust: TrustSeat | null = null;
  private ticker = 0;
  /** lastNews is when a state, events or markers last came; silence is
   * the timer that reads the game after SILENCE_MS without any. */
  private lastNews = 0;
  private silence = 0;
  /** spectating: getView answered this player as a spectator (not in the
   * game, which is open to spectators); poller reads it then. */
  spectating = false;
  private readonly poller = new Poller(() => this.refresh());

  constructor(readonly id: string) {}

  who(uid: unknown): string {
    const you = typeof uid === "string" && uid === user?.uid ? " (you)" : "";
    const name = typeof uid === "string" ? this.names[uid] : undefined;
    if (name) return name + you;
    const p = this.state?.players?.find((x) => x.uid === uid);
    if (p) return seatLabel(p) + you;
    if (typeof uid === "string" && uid) return engine.cardName(uid);
    return "someone";
  }

  card(id: unknown): string {
    return typeof id === "string" ? engine.cardName(id) : "a card";
  }

  private get storageKey(): string {
    return "fairboard.pending." + user!.uid + "." + this.id;
  }

  seated(): boolean {
    return !!this.state?.players?.some((p) => p.uid === user?.uid);
  }

  async open(): Promise<void> {
    engine.follow(this.id);
    replace(byId("game-id"), this.id);
    const link = location.origin + location.pathname + "#game=" + this.id;
    const a = byId<HTMLAnchorElement>("share-link");
    a.href = link;
    a.textContent = link;
    replace(byId("log"));
    replace(byId("latest"));
    replace(byId("recent"));
    byId("recent").dataset.seq = "";
    replace(byId("board"));
    show(byId("end"), false);
    byId("verdict").dataset.status = "";
    replace(byId("verdict-title"));
    replace(byId("verdict-message"));
    byId("action-status").textContent = "";
    byId("turn").textContent = "Loading the game…";
    this.setProblem("");
    localStorage.setItem("fairboard.lastGame." + user!.uid, this.id);
    document.addEventListener("visibilitychange", this.onVisibility);
    show(byId("share"), true);
    try {
      await this.refresh();
    } catch (e) {
      // A bad address or a game this player may not see: say so, with
      // the way back, and no invitation to a game that is not there.
      const missing = e instanceof CallError && e.code === "functions/not-found";
      byId("turn").textContent = missing
        ? "There is no game with this id, or it is not open to you. Check the link, or go back to the lobby."
        : "This game could not be opened: " + refusal(e);
      byId("game").dataset.openError = missing ? "not_found" : "error";
      show(byId("share"), false);
      show(byId("actions"), false);
      byId("leave").focus();
      return;
    }
    if (this.closed) return;
    byId("game").dataset.openError = "";
    if (this.state?.trustless) await this.openTrust();
    const saved = sessionStorage.getItem(this.storageKey);
    if (saved) {
      // An action sent before a reload whose answer never came: send it
      // again with its action id (the server answers a landed one with its
      // first result, and applies it once).
      this.pending = JSON.parse(saved) as Pending;
      void this.attempt();
    }
    this.joinRematch(); // after: its join is a pending action of its own
    this.watch();
  }

  /** openTrust sets up this player's seat of a trustless game: its
   * secrets from IndexedDB, and the join chosen at the create. */
  private async openTrust(): Promise<void> {
    const t = new TrustSeat({
      engine,
      uid: user!.uid,
      gameId: this.id,
      call: <T,>(fn: string, data: object) => callRetrying<T>(fn, data),
      lie: (what) => {
        this.setProblem(what);
        this.render();
      },
      changed: () => this.state && this.render(),
      status: (text) => (byId("action-status").textContent = text),
      refresh: () => void this.refresh().catch(() => undefined),
    });
    this.trust = t;
    try {
      await t.init();
    } catch (e) {
      byId("action-status").textContent = "This browser's storage (IndexedDB) could not be read: " + String(e);
      return;
    }
    let ticks = 0;
    this.ticker = window.setInterval(() => {
      this.renderTrust();
      if (++ticks % RESYNC_TICKS !== 0) return;
      // A round open for a while: look again at what the seat owes (a
      // reveal whose call failed), as the Go client's Play does; the game
      // itself is read again after a silence (lookAgain).
      t.resync();
    }, 1000);
    if (this.state) t.seen(this.state);
    const auto = sessionStorage.getItem(autoJoinKey(this.id));
    if (auto && !this.seated() && this.state?.phase === "lobby") {
      sessionStorage.removeItem(autoJoinKey(this.id));
      const { seat, cls } = JSON.parse(auto) as { seat: number; cls: string };
      await this.joinTrustless(seat, cls);
    }
  }

  private readonly onVisibility = () => {
    this.renderTrust();
    this.renderTitle();
  };

  /** refresh reads the game with getView: the whole log after what is
   * shown (in pages of 1000), then the state. */
  async refresh(): Promise<void> {
    for (;;) {
      const v = await backend.call<View | TableView>("getView", { gameId: this.id, afterSeq: this.lastSeq });
      if (this.closed) return;
      if (isTableView(v)) {
        // Another game than the dungeon: its page is the generic board.
        this.close();
        return openTable(this.id, v);
      }
      this.spectating = !!v.spectating;
      if (this.spectating && backend.live && !this.seated() && v.state.phase !== "finished") this.poller.start();
      if (v.names) this.takeNames(v.names);
      this.takeEvents(v.events);
      if (!v.more) {
        this.takeState(v.state);
        if (v.state.trustless) this.takeMarks(v.reveals ?? []);
        return;
      }
    }
  }

  /** lookAgain reads the game with getView after SILENCE_MS without news
   * from the listeners, in every mode and phase until the game ends (as
   * the Go client's watcher does after its silence): a move the other
   * player made shows even if a listener never delivers it. */
  private lookAgain(): void {
    const p = this.state;
    if (this.closed || !p || p.phase === "finished" || Date.now() - this.lastNews < SILENCE_MS) return;
    this.lastNews = Date.now();
    void this.refresh().catch(() => undefined);
  }

  /** watch follows the game live once seated (the security rules let only
   * the seated players read it), or by polling on a memory store. */
  private watch(): void {
    if (this.unwatch || this.closed) return;
    if (backend.live && !this.seated()) {
      // The rules let only seated players listen: a spectator polls getView.
      if (this.spectating && this.state?.phase !== "finished") this.poller.start();
      return;
    }
    if (LOOK_AGAIN && backend.live && !this.silence) {
      this.lastNews = Date.now();
      this.silence = window.setInterval(() => this.lookAgain(), 1000);
    }
    this.unwatch = backend.watch(this.id, this.lastSeq, {
      state: (p) => {
        this.watchFailures = 0;
        this.takeState(p);
      },
      events: (evs) => this.takeEvents(evs),
      marks: (ms) => this.takeMarks(ms),
      names: (m) => this.takeNames(m),
      status: (s, err) => {
        netState = s === "error" ? "error " + (err instanceof Error ? err.message : String(err)) : s;
        updateNet();
        if (s === "error") this.rewatch();
      },
    });
  }

  private watchFailures = 0;

  /** rewatch follows the game again after its listener failed (a listener
   * that fails is over): it reads what it missed with getView, then
   * listens again, at growing intervals, up to five times in a row. */
  private rewatch(): void {
    this.unwatch?.();
    this.unwatch = null;
    if (this.closed || this.watchFailures >= 5) return;
    const delay = 1000 * 2 ** this.watchFailures++;
    window.setTimeout(() => {
      if (this.closed || this.unwatch) return;
      this.refresh().then(
        () => this.watch(),
        () => this.rewatch(),
      );
    }, delay);
  }

  close(): void {
    this.closed = true;
    this.poller.stop();
    window.clearInterval(this.ticker);
    window.clearInterval(this.silence);
    document.removeEventListener("visibilitychange", this.onVisibility);
    this.unwatch?.();
    this.unwatch = null;
  }

  private setProblem(p: string): void {
    const fresh = !!p && !this.problem;
    if (fresh) this.problem = p;
    const el = byId("problem");
    el.textContent = this.problem ? "This game cannot be trusted: " + this.problem : "";
    show(el, !!this.problem);
    // No action is offered after a lie: take back the ones shown.
    if (fresh && this.state) this.renderActions();
  }

  private takeState(p: Public): void {
    if (this.closed) return;
    this.lastNews = Date.now();
    if (this.state && p.version < this.state.version) return; // an older read, arriving late
    this.setProblem(engine.state(p));
    const first = !this.state;
    this.state = p;
    clearOtherTab(byId("action-status"), p.version, p.trustless?.pending?.index);
    clearStale(byId("action-status"), p.version);
    if (this.pending?.version !== undefined && p.version >= this.pending.version) {
      this.pending = null;
      sessionStorage.removeItem(this.storageKey);
    }
    this.render();
    this.redescribe();
    modeOf(p).followed(p, this.fresh.splice(0));
    this.trust?.seen(p);
    if (first && p.phase !== "lobby" && !document.body.dataset.firstBoardMs) {
      // From the navigation's start: the time to the first board of a
      // loaded game (a reload, an opened link).
      document.body.dataset.firstBoardMs = String(Math.round(performance.now()));
    }
    if (this.seated()) this.watch();
  }

  /** takeNames takes the game's names, and says again what they name. */
  private takeNames(m: Record<string, string>): void {
    if (this.closed) return;
    this.names = { ...m };
    this.redescribe();
    if (this.state) this.render();
  }

  /** redescribe says every log line again, the latest draw and the recent
   * events, when the names or the players changed since they were said. */
  private redescribe(): void {
    const key = JSON.stringify([this.names, (this.state?.players ?? []).map((p) => [p.uid, p.seat, p.class])]);
    if (key === this.namesKey) return;
    this.namesKey = key;
    for (const li of Array.from(byId("log").querySelectorAll<HTMLElement>("li[data-seq]"))) {
      const e = this.events.get(Number(li.dataset.seq));
      if (e) li.textContent = describe(e, this);
    }
    const latest = byId("latest").querySelector<HTMLElement>("p[data-seq]");
    const le = latest ? this.events.get(Number(latest.dataset.seq)) : undefined;
    if (latest && le) latest.textContent = describe(le, this);
    this.renderRecent();
  }

  /** takeMarks takes the open round's reveal markers: checked by the
   * engine against the seats' keys and the pending action it replayed. */
  private takeMarks(ms: Mark[]): void {
    if (this.closed) return;
    this.lastNews = Date.now();
    this.setProblem(engine.marks(ms));
    this.trust?.setMarks(ms);
    this.renderTrust();
  }

  private takeEvents(evs: GameEvent[]): void {
    if (this.closed) return;
    this.lastNews = Date.now();
    this.setProblem(engine.events(evs));
    const log = byId("log");
    for (const e of evs) {
      if (e.seq <= this.lastSeq) continue;
      this.lastSeq = e.seq;
      this.fresh.push(e);
      const text = describe(e, this);
      append(log, h("li", { "data-seq": e.seq, "data-type": e.type, class: PROTOCOL.has(e.type) ? "protocol" : undefined }, text));
      if (!PROTOCOL.has(e.type)) this.recent = [...this.recent, e].slice(-RECENT);
      this.events.set(e.seq, e);
      if (e.type === "DiceRolled" || e.type === "CardDrawn" || e.type === "ChanceResolved" || e.type === "LootRoll") {
        replace(byId("latest"), h("p", { class: "latest " + e.type, "data-seq": e.seq }, text));
      }
    }
    if (byId("recent").dataset.seq !== String(this.recent.at(-1)?.seq ?? 0)) this.renderRecent();
    byId("game").dataset.logSeq = String(this.lastSeq);
    const box = byId("log-box");
    box.scrollTop = box.scrollHeight;
    // The replay may have caught up with the game document only now: a
    // reveal it waits for is due from here.
    if (this.state) this.trust?.seen(this.state);
  }

  private render(): void {
    const p = this.state!;
    const g = byId("game");
    g.dataset.phase = p.phase;
    g.dataset.version = String(p.version);
    g.dataset.awaiting = p.awaiting ?? "";
    g.dataset.versionAt = String(Date.now());
    byId("mode-line").textContent = modeOf(p).line(p) + (p.round ? ` Round ${p.round}.` : "");
    // The invitation belongs to the lobby: not to a game in play or over.
    show(byId("share"), p.phase === "lobby");
    show(byId("watching"), this.spectating && !this.seated() && p.phase !== "lobby");
    if (this.seated()) this.poller.stop(); // listened to from now on
    if (p.version !== this.shown?.version) {
      // The last move's changes are drawn against the state it started
      // from (the one shown before it).
      this.before = this.shown;
      this.shown = p;
    }
    renderBoard(byId("board"), engine, p, this, this.before);
    renderPlayers(byId("players"), engine, p, this, user?.uid ?? "", this.before);
    renderFight(byId("fight"), engine, p, this);
    byId("turn").textContent = this.turnLine(p);
    this.renderTrust();
    this.renderActions();
    if (p.phase === "finished") this.renderEnd(p);
  }

  /** renderTrust draws a trustless game's round: the action waiting for
   * its reveals, whom it waits for, the deadline counting down, where
   * this seat's key is, and what a page in the background means. */
  renderTrust(): void {
    const p = this.state;
    const box = byId("trust");
    show(box, !!p?.trustless);
    if (!p?.trustless) return;
    const pd = p.phase !== "finished" ? p.trustless.pending : null;
    const round = byId("trust-round");
    const dl = byId("trust-deadline");
    const marks = this.trust?.marks ?? [];
    if (pd) {
      const done = new Set([...marks.filter((m) => m.index === pd.index).map((m) => m.uid), ...(pd.reveals ?? []).map((r) => r.uid)]);
      const waiting = (p.trustless.seats ?? []).filter((s) => !done.has(s.uid)).map((s) => this.who(s.uid));
      const kind = actionLabels[pd.action.kind]?.(pd.action, this) ?? pd.action.kind;
      const text = `Reveal round ${pd.index}: "${kind}" by ${this.who(pd.action.actor)} waits for the reveals of ` +
        (waiting.length ? waiting.join(", ") : "no one (closing)") + ".";
      if (round.textContent !== text) round.textContent = text;
      round.dataset.waiting = (p.trustless.seats ?? []).filter((s) => !done.has(s.uid)).map((s) => s.uid).join(",");
      const left = Math.max(0, Math.ceil((pd.deadline - Date.now()) / 1000));
      dl.textContent = left > 0
        ? `Reveal deadline: ${left} s left. A seat that has not revealed by then lets the server abort the game (nothing is re-rolled).`
        : "The reveal deadline has passed: the server may abort the game now.";
      dl.dataset.deadline = String(pd.deadline);
    } else {
      round.textContent = p.phase === "finished"
        ? `${p.trustless.nextIndex - 1} reveal rounds were played.`
        : `No reveal round open: the next action that draws uses index ${p.trustless.nextIndex}.`;
      round.dataset.waiting = "";
      dl.textContent = "";
      dl.dataset.deadline = "";
    }
    const bg = byId("trust-background");
    const mine = this.trust?.place === "here" && p.phase !== "finished";
    bg.textContent = document.hidden
      ? "This page is in the background: your browser may pause it, and then it cannot reveal. A round waiting for you waits until you come back; if its deadline passes first, the server aborts the game."
      : "Keep this page open: it reveals your links by itself. A phone may pause it in the background; a round left waiting past its deadline aborts the game.";
    show(bg, mine);
    const due = !!pd && !(pd.reveals ?? []).some((r) => r.uid === user?.uid) && !marks.some((m) => m.index === pd.index && m.uid === user?.uid);
    this.revealDue = mine && due;
    this.renderTitle();
    const key = byId("trust-key");
    key.textContent = this.trust?.keyNote() ?? "";
    key.dataset.place = this.trust?.place ?? "";
  }

  private revealDue = false;
  /** shown is the state last drawn; before the one drawn before it, at
   * an older version: what the last move changed is their difference. */
  private shown: Public | null = null;
  private before: Public | null = null;
  /** recent are the last events, said in "Just now". */
  private recent: GameEvent[] = [];

  /** renderRecent says the last events in "Just now", with the names
   * known now (a join is said again once its player is seated). */
  private renderRecent(): void {
    const recent = byId("recent");
    recent.dataset.seq = String(this.recent.at(-1)?.seq ?? 0);
    replace(recent, ...this.recent.map((e, i) => h("li", { "data-seq": e.seq, class: i === this.recent.length - 1 ? "newest" : undefined }, describe(e, this))));
  }
  private readonly alert = new TurnAlert();

  /** renderTitle says in the title, and with the player's permission in a
   * notification, when a page in the background waits for this player. */
  renderTitle(): void {
    const p = this.state;
    const yourMove = !!p && p.phase === "playing" && !!user && p.awaiting === user.uid && !this.pending && !p.trustless?.pending;
    signalTurn(this.alert, { gameId: this.id, version: p?.version ?? 0, yourMove, revealDue: this.revealDue, seatedInPlay: this.seated() && p?.phase !== "finished" }, byId("notify"));
  }

  private turnLine(p: Public): string {
    const steps: Record<string, string> = {
      manage: "use or drop items",
      preDuel: "challenge a player on the tile, or not",
      moveOrSleep: "move or sleep",
      combat: "fight",
      duel: "duel",
      capacity: "too many items: discard one",
      bracket: "final bracket",
    };
    switch (p.phase) {
      case "lobby": {
        const n = p.players?.length ?? 0;
        if (n >= engine.rules.maxPlayers) {
          if (!this.seated()) return "Every seat of this game is taken: you cannot join it. Go back to the lobby to create or open another game.";
          return p.owner === user?.uid ? `All ${n} seats are taken: start the game.` : `All ${n} seats are taken: waiting for the owner to start the game.`;
        }
        return `Waiting for players: ${n} seated (${engine.rules.minPlayers} needed to start, ${engine.rules.maxPlayers} at most).`;
      }
      case "finished":
        return "The game is over.";
    }
    const pd = p.trustless?.pending;
    if (pd) return `Reveal round ${pd.index}: waiting for the players' reveals.`;
    const step = p.step ? ` (${steps[p.step] ?? p.step})` : "";
    if (p.awaiting === user?.uid) return `Your move${step}.`;
    return `Waiting for ${this.who(p.awaiting)}${step}.`;
  }

  /** renderActions offers the actions the engine lists for this player,
   * unless an action is on its way or the game cannot be trusted. */
  renderActions(): void {
    const p = this.state;
    if (!p || !user) return;
    const box = byId("action-buttons");
    const held = modeOf(p).holding() || this.trustHolding(p);
    const legal = this.problem || held ? [] : engine.legal(user.uid);
    const offline = !navigator.onLine;
    const joins = legal.filter((a) => a.kind === "join");
    const turn = ordered(legal.filter((a) => a.kind !== "join" && a.kind !== "abandon"));
    const canAbandon = legal.some((a) => a.kind === "abandon");
    // The join form: the seats and classes the engine offers.
    show(byId("join"), joins.length > 0 && !this.pending);
    if (joins.length) {
      const seats = [...new Set(joins.map((a) => a.seat ?? 0))].sort((a, b) => a - b);
      fillSelect(byId<HTMLSelectElement>("join-seat"), seats.map((s) => [String(s), "Seat " + (s + 1)]));
      const classes = [...new Set(joins.map((a) => a.class ?? ""))];
      fillSelect(byId<HTMLSelectElement>("join-class"), classes.map((c) => [c, classLabel(c)]));
      const note = modeOf(p).joinNote(p);
      byId("entropy-note").textContent = note;
      show(byId("entropy-note"), note !== "");
    }
    show(byId("abandon"), canAbandon && !this.pending);
    if (!canAbandon) show(byId("abandon-confirm"), false);
    const g = byId("game");
    g.dataset.mine = turn.length && !this.pending ? "1" : "";
    g.dataset.pending = this.pending ? "1" : "";
    const key = JSON.stringify([turn, !!this.pending, offline, p.version]);
    if (key === this.legalKey) return;
    const hadFocus = box.contains(document.activeElement) || document.activeElement === document.body || document.activeElement === byId("turn");
    this.legalKey = key;
    show(byId("actions"), turn.length > 0 && !this.pending);
    if (this.pending) {
      replace(box);
      return;
    }
    const buttons = turn.map((a) =>
      h(
        "button",
        {
          type: "button",
          class: "action " + a.kind,
          "data-kind": a.kind,
          "data-card": a.cardId,
          "data-target": a.target,
          disabled: offline,
        },
        (actionLabels[a.kind] ?? ((x: Action) => x.kind))(a, this),
      ),
    );
    buttons.forEach((b, i) =>
      b.addEventListener("click", () => {
        const a = turn[i]!;
        if (!isIrreversible(a.kind)) return this.send(a);
        // Asked first: "No, keep it" takes the focus, so Enter twice on
        // the first button never destroys anything.
        replace(box, ...confirmBar(b.textContent ?? a.kind, () => this.send(a), () => {
          this.legalKey = "";
          this.renderActions();
        }));
        byId("confirm-no").focus();
      }),
    );
    replace(box, ...buttons);
    if (hadFocus) (buttons[0] ?? byId("turn")).focus();
  }

  /** trustHolding says why a trustless game's actions are held back:
   * the seat's key is elsewhere (or not read yet). While a reveal round is
   * open, engine.LegalActions itself lists no turn action (only the
   * owner's abandon, and the reveals the page makes by itself). */
  private trustHolding(p: Public): string {
    if (!p.trustless || !this.seated()) return "";
    if (this.trust?.place === "elsewhere") return "this seat's key is on another device";
    if (this.trust?.place !== "here") return "this seat's key is being read";
    return "";
  }

  /** join takes the seat and class chosen; a fair game's contribution is
   * drawn now, after the page has read the server's commitment; a
   * trustless seat's chain and key are drawn and stored first. */
  join(): void {
    const seat = Number(byId<HTMLSelectElement>("join-seat").value);
    const cls = byId<HTMLSelectElement>("join-class").value;
    if (this.state?.trustless) {
      void this.joinTrustless(seat, cls);
      return;
    }
    this.send({ kind: "join", actor: user!.uid, seat, class: cls });
  }

  private async joinTrustless(seat: number, cls: string): Promise<void> {
    if (!this.trust || !this.state || this.pending) return;
    const status = byId("action-status");
    status.textContent = "Drawing your chain and key, then joining…";
    this.pending = { fn: "joinGame", data: {} };
    this.renderActions();
    try {
      await this.trust.join(this.state, seat, cls);
      status.textContent = "";
    } catch (e) {
      noteStatus(status, "Refused: " + refusal(e), this.state?.version ?? 0, e instanceof CallError ? e.details?.code ?? e.code : "");
    }
    this.pending = null;
    this.legalKey = "";
    await this.refresh().catch(() => undefined);
    this.renderActions();
  }

  /** send sends one action through its function, with a fresh action id
   * kept until the board shows it (across a reload too). */
  send(a: Action): void {
    if (this.pending || !this.state) return;
    const base = { gameId: this.id, actionId: newId("a") };
    let fn = "act";
    let data: Record<string, unknown>;
    switch (a.kind) {
      case "join":
        fn = "joinGame";
        data = { ...base, seat: a.seat, class: a.class, ...modeOf(this.state).joinFields(this.state) };
        break;
      case "start":
        fn = "startGame";
        data = base;
        break;
      default:
        data = { ...base, kind: a.kind, version: this.state.version };
        if (a.target) data["target"] = a.target;
        if (a.cardId) data["cardId"] = a.cardId;
    }
    if (this.state.trustless && this.trust) {
      // Signed by this seat's key inside its lock, from its record as it
      // is there; another tab's progress is read again (trustgame.ts, act).
      const p = this.state;
      const trust = this.trust;
      const pend: Pending = { fn, data };
      this.pending = pend;
      byId("action-status").textContent = "Signing…";
      this.renderActions();
      void this.attempt((retrying) =>
        trust.act(p, a, fn, data, {
          signed: (req) => {
            if (this.pending !== pend) return;
            pend.data = req;
            sessionStorage.setItem(this.storageKey, JSON.stringify(pend));
            byId("action-status").textContent = "Sending…";
          },
          send: (f, req) => callRetrying<Result>(f, req, retrying),
          refresh: () => this.refresh(),
          board: () => this.state,
          legal: (x) => legalNow(x, engine.legal(user!.uid)),
        }),
      );
      return;
    }
    this.pending = { fn, data };
    sessionStorage.setItem(this.storageKey, JSON.stringify(this.pending));
    byId("action-status").textContent = "Sending…";
    this.renderActions();
    void this.attempt();
  }

  /** attempt sends the pending action, again with the same action id while
   * its answer is lost; a trustless seat's goes through act (otherTab:
   * another tab of the seat had moved first, and the board is read). */
  private async attempt(act?: (retrying: (n: number) => void) => Promise<{ result?: Result; otherTab: boolean }>): Promise<void> {
    const pend = this.pending;
    if (!pend) return;
    const status = byId("action-status");
    const retrying = (n: number) => {
      status.textContent = `No answer from the server: sending the same action again (attempt ${n + 1}, action id ${pend.data["actionId"]}).`;
    };
    try {
      const { result: res, otherTab } = act ? await act(retrying) : { result: await callRetrying<Result>(pend.fn, pend.data, retrying), otherTab: false };
      if (this.pending !== pend) return;
      if (otherTab) {
        // The board with the other tab's move, read while this click is
        // still on its way (pend.version unset: nothing clears it yet).
        if (res) await this.refresh().catch(() => undefined);
        noteOtherTab(status, Math.max(res?.version ?? 0, this.state?.version ?? 0), this.state?.trustless?.pending?.index);
      } else status.textContent = res?.replayed ? "Done (the server had already applied it)." : "";
      if (res) pend.version = res.version;
      if (!res || (this.state && this.state.version >= res.version)) {
        this.pending = null;
        sessionStorage.removeItem(this.storageKey);
      } else {
        sessionStorage.setItem(this.storageKey, JSON.stringify(pend));
      }
      if (!backend.live || !this.seated()) await this.refresh();
    } catch (e) {
      if (this.pending !== pend) return;
      this.pending = null;
      sessionStorage.removeItem(this.storageKey);
      noteStatus(status, "Refused: " + refusal(e), this.state?.version ?? 0, e instanceof CallError ? e.details?.code ?? e.code : "");
      if (pend.fn === "joinGame") await this.refresh().catch(() => undefined);
    }
    this.legalKey = "";
    this.renderActions();
  }

  /** joinRematch joins the seat a rematch this player asked for keeps
   * for them (a trustless seat through its chain and key). */
  private joinRematch(): void {
    const r = takeRematch(this.id);
    if (!r || this.seated() || this.state?.phase !== "lobby") return;
    const cls = r.class ?? engine.rules.classes[0]!;
    if (this.state.trustless) void this.joinTrustless(r.seat, cls);
    else this.send({ kind: "join", actor: user!.uid, seat: r.seat, class: cls });
  }

  private renderEnd(p: Public): void {
    show(byId("end"), true);
    showRematch("rematch", this.seated(), p.phase === "finished");
    if (this.spectating) this.poller.stop();
    const winner = p.winner ? this.who(p.winner) : "";
    byId("result").textContent = !winner
      ? "The game was abandoned: no winner."
      : p.winner === user?.uid
        ? `You won after ${p.round} rounds.`
        : `${winner} won after ${p.round} rounds.`;
  }

  /** verify fetches the game's export and runs the verifier here. */
  async verify(): Promise<void> {
    const box = byId("verdict");
    const title = byId("verdict-title");
    const msg = byId("verdict-message");
    box.dataset.status = "pending";
    title.textContent = "Fetching the export and verifying it…";
    msg.textContent = "";
    try {
      const x = await callRetrying<object>("exportGame", { gameId: this.id });
      const v = engine.verify(JSON.stringify(x));
      title.textContent = v.status === "ok" ? "Verified" : v.status === "diverged" ? "Refused: the game does not hold together" : "Not a game export";
      msg.textContent = v.message;
      box.dataset.status = v.status;
    } catch (e) {
      title.textContent = "The export could not be fetched";
      msg.textContent = refusal(e);
      box.dataset.status = "error";
    }
  }
}

void boot();
