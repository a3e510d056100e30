// The open dungeon game (docs/play.md): its state as read, followed by
// Firestore listeners once seated (read again after a silence, and after
// a failed listener), by polling getView on the in-memory server or for a
// spectator; the players' names; a trustless seat's secrets. What it
// draws is gamescreen.ts's; its actions are gameactions.ts's.

import { app, autoJoinKey, call, setNet } from "./app";
import { CallError } from "./backend";
import { seatLabel } from "./board";
import { byId, show } from "./dom";
import { ActionPanel } from "./gameactions";
import { GameScreen } from "./gamescreen";
import type { Names } from "./log";
import { modeOf } from "./modes";
import { clearStale } from "./safety";
import { clearOtherTab } from "./seatact";
import { Poller } from "./spectate";
import { isTableView, type TableView } from "./tablewords";
import { TrustSeat } from "./trustgame";
import type { GameEvent, Mark, Public, View } from "./types";

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

/** GameView is the open game: its state as read, the log, the actions. */
export class GameView implements Names {
  state: Public | null = null;
  /** problem is why the game cannot be trusted ("" while it can). */
  problem = "";
  /** trust is this player's seat in a trustless game. */
  trust: TrustSeat | null = null;
  /** spectating: getView answered this player as a spectator (not in the
   * game, which is open to spectators); poller reads it then. */
  spectating = false;
  readonly poller = new Poller(() => this.refresh());
  readonly actions = new ActionPanel(this);
  readonly screen = new GameScreen(this);
  private lastSeq = 0;
  private unwatch: (() => void) | null = null;
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
  private ticker = 0;
  /** lastNews is when a state, events or markers last came; silence is
   * the timer that reads the game after SILENCE_MS without any. */
  private lastNews = 0;
  private silence = 0;
  private watchFailures = 0;

  /** opened is told when getView answered with a table game's view: its
   * page is the generic board's. */
  constructor(
    readonly id: string,
    private readonly opened: (id: string, v: TableView) => void,
  ) {}

  who(uid: unknown): string {
    const you = typeof uid === "string" && uid === app.user?.uid ? " (you)" : "";
    const name = typeof uid === "string" ? this.names[uid] : undefined;
    if (name) return name + you;
    const p = this.state?.players?.find((x) => x.uid === uid);
    if (p) return seatLabel(p) + you;
    if (typeof uid === "string" && uid) return app.engine.cardName(uid);
    return "someone";
  }

  card(id: unknown): string {
    return typeof id === "string" ? app.engine.cardName(id) : "a card";
  }

  seated(): boolean {
    return !!this.state?.players?.some((p) => p.uid === app.user?.uid);
  }

  async open(): Promise<void> {
    app.engine.follow(this.id);
    this.screen.reset();
    this.setProblem("");
    localStorage.setItem("fairboard.lastGame." + app.user!.uid, this.id);
    document.addEventListener("visibilitychange", this.onVisibility);
    try {
      await this.refresh();
    } catch (e) {
      this.screen.openFailed(e instanceof CallError && e.code === "functions/not-found", e);
      return;
    }
    if (this.closed) return;
    byId("game").dataset.openError = "";
    if (this.state?.trustless) await this.openTrust();
    this.actions.resume();
    this.actions.joinRematch(); // after: its join is a pending action of its own
    this.watch();
  }

  /** openTrust sets up this player's seat of a trustless game: its
   * secrets from IndexedDB, and the join chosen at the create. */
  private async openTrust(): Promise<void> {
    const t = new TrustSeat({
      engine: app.engine,
      uid: app.user!.uid,
      gameId: this.id,
      call,
      lie: (what) => {
        this.setProblem(what);
        this.screen.render();
      },
      changed: () => this.state && this.screen.render(),
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
      this.screen.renderTrust();
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
      await this.actions.joinTrustless(seat, cls);
    }
  }

  private readonly onVisibility = () => {
    this.screen.renderTrust();
    this.screen.renderTitle();
  };

  /** refresh reads the game with getView: the whole log after what is
   * shown (in pages of 1000), then the state. */
  async refresh(): Promise<void> {
    for (;;) {
      const v = await app.backend.call<View | TableView>("getView", { gameId: this.id, afterSeq: this.lastSeq });
      if (this.closed) return;
      if (isTableView(v)) {
        // Another game than the dungeon: its page is the generic board.
        this.close();
        return this.opened(this.id, v);
      }
      this.spectating = !!v.spectating;
      if (this.spectating && app.backend.live && !this.seated() && v.state.phase !== "finished") this.poller.start();
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
    if (app.backend.live && !this.seated()) {
      // The rules let only seated players listen: a spectator polls getView.
      if (this.spectating && this.state?.phase !== "finished") this.poller.start();
      return;
    }
    if (LOOK_AGAIN && app.backend.live && !this.silence) {
      this.lastNews = Date.now();
      this.silence = window.setInterval(() => this.lookAgain(), 1000);
    }
    this.unwatch = app.backend.watch(this.id, this.lastSeq, {
      state: (p) => {
        this.watchFailures = 0;
        this.takeState(p);
      },
      events: (evs) => this.takeEvents(evs),
      marks: (ms) => this.takeMarks(ms),
      names: (m) => this.takeNames(m),
      status: (s, err) => {
        setNet(s === "error" ? "error " + (err instanceof Error ? err.message : String(err)) : s);
        if (s === "error") this.rewatch();
      },
    });
  }

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
    if (fresh && this.state) this.actions.render();
  }

  private takeState(p: Public): void {
    if (this.closed) return;
    this.lastNews = Date.now();
    if (this.state && p.version < this.state.version) return; // an older read, arriving late
    this.setProblem(app.engine.state(p));
    const first = !this.state;
    this.state = p;
    clearOtherTab(byId("action-status"), p.version, p.trustless?.pending?.index);
    clearStale(byId("action-status"), p.version);
    this.actions.seen(p.version);
    this.screen.render();
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
    if (this.state) this.screen.render();
  }

  /** redescribe says every log line again, the latest draw and the recent
   * events, when the names or the players changed since they were said. */
  private redescribe(): void {
    const key = JSON.stringify([this.names, (this.state?.players ?? []).map((p) => [p.uid, p.seat, p.class])]);
    if (key === this.namesKey) return;
    this.namesKey = key;
    this.screen.redescribe(this.events);
  }

  /** takeMarks takes the open round's reveal markers: checked by the
   * engine against the seats' keys and the pending action it replayed. */
  private takeMarks(ms: Mark[]): void {
    if (this.closed) return;
    this.lastNews = Date.now();
    this.setProblem(app.engine.marks(ms));
    this.trust?.setMarks(ms);
    this.screen.renderTrust();
  }

  private takeEvents(evs: GameEvent[]): void {
    if (this.closed) return;
    this.lastNews = Date.now();
    this.setProblem(app.engine.events(evs));
    for (const e of evs) {
      if (e.seq <= this.lastSeq) continue;
      this.lastSeq = e.seq;
      this.fresh.push(e);
      this.events.set(e.seq, e);
      this.screen.logEvent(e);
    }
    this.screen.loggedTo(this.lastSeq);
    // The replay may have caught up with the game document only now: a
    // reveal it waits for is due from here.
    if (this.state) this.trust?.seen(this.state);
  }
}
