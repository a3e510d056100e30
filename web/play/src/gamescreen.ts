// The dungeon game's page as drawn (docs/play.md): the board and the
// players against the state before the last move, the turn line, "Just
// now", the log, a trustless game's reveal round and its deadline, the
// title and notification when the game waits for this player, and the
// end with its verification.

import { app, callRetrying } from "./app";
import { renderBoard, renderFight, renderPlayers } from "./board";
import { append, byId, h, replace, show } from "./dom";
import { refusal } from "./errors";
import { actionLabels } from "./gameactions";
import { describe, PROTOCOL } from "./log";
import { modeOf } from "./modes";
import { signalTurn, TurnAlert } from "./safety";
import { showRematch } from "./spectate";
import type { GameEvent, Public } from "./types";
import type { GameHost } from "./gamehost";

/** RECENT is how many events "Just now" shows. */
const RECENT = 8;

/** steps say each step of a turn, for the turn line. */
const steps: Record<string, string> = {
  manage: "use or drop items",
  preDuel: "challenge a player on the tile, or not",
  moveOrSleep: "move or sleep",
  combat: "fight",
  duel: "duel",
  capacity: "too many items: discard one",
  bracket: "final bracket",
};

/** GameScreen draws the open game. */
export class GameScreen {
  /** shown is the state last drawn; before the one drawn before it, at
   * an older version: what the last move changed is their difference. */
  private shown: Public | null = null;
  private before: Public | null = null;
  /** recent are the last events, said in "Just now". */
  private recent: GameEvent[] = [];
  private revealDue = false;
  private readonly alert = new TurnAlert();

  constructor(private readonly g: GameHost) {}

  /** reset empties the game's page for the game id, before it is read. */
  reset(): void {
    const id = this.g.id;
    replace(byId("game-id"), id);
    const link = location.origin + location.pathname + "#game=" + id;
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
    show(byId("share"), true);
  }

  /** openFailed says why the game could not be opened, with the way
   * back, and no invitation to a game that is not there. */
  openFailed(missing: boolean, e: unknown): void {
    byId("turn").textContent = missing
      ? "There is no game with this id, or it is not open to you. Check the link, or go back to the lobby."
      : "This game could not be opened: " + refusal(e);
    byId("game").dataset.openError = missing ? "not_found" : "error";
    show(byId("share"), false);
    show(byId("actions"), false);
    byId("leave").focus();
  }

  /** logEvent adds an event to the log, to "Just now" unless it is a
   * protocol record, and to the latest draw if it is one. */
  logEvent(e: GameEvent): void {
    const text = describe(e, this.g);
    append(byId("log"), h("li", { "data-seq": e.seq, "data-type": e.type, class: PROTOCOL.has(e.type) ? "protocol" : undefined }, text));
    if (!PROTOCOL.has(e.type)) this.recent = [...this.recent, e].slice(-RECENT);
    if (e.type === "DiceRolled" || e.type === "CardDrawn" || e.type === "ChanceResolved" || e.type === "LootRoll") {
      replace(byId("latest"), h("p", { class: "latest " + e.type, "data-seq": e.seq }, text));
    }
  }

  /** loggedTo marks the log as read up to seq and scrolls it down. */
  loggedTo(seq: number): void {
    if (byId("recent").dataset.seq !== String(this.recent.at(-1)?.seq ?? 0)) this.renderRecent();
    byId("game").dataset.logSeq = String(seq);
    const box = byId("log-box");
    box.scrollTop = box.scrollHeight;
  }

  /** redescribe says every log line again, the latest draw and the recent
   * events (with the names known now). */
  redescribe(events: Map<number, GameEvent>): void {
    for (const li of Array.from(byId("log").querySelectorAll<HTMLElement>("li[data-seq]"))) {
      const e = events.get(Number(li.dataset.seq));
      if (e) li.textContent = describe(e, this.g);
    }
    const latest = byId("latest").querySelector<HTMLElement>("p[data-seq]");
    const le = latest ? events.get(Number(latest.dataset.seq)) : undefined;
    if (latest && le) latest.textContent = describe(le, this.g);
    this.renderRecent();
  }

  /** renderRecent says the last events in "Just now", with the names
   * known now (a join is said again once its player is seated). */
  private renderRecent(): void {
    const recent = byId("recent");
    recent.dataset.seq = String(this.recent.at(-1)?.seq ?? 0);
    replace(recent, ...this.recent.map((e, i) => h("li", { "data-seq": e.seq, class: i === this.recent.length - 1 ? "newest" : undefined }, describe(e, this.g))));
  }

  render(): void {
    const g = this.g;
    const p = g.state!;
    const user = app.user;
    const el = byId("game");
    el.dataset.phase = p.phase;
    el.dataset.version = String(p.version);
    el.dataset.awaiting = p.awaiting ?? "";
    el.dataset.versionAt = String(Date.now());
    byId("mode-line").textContent = modeOf(p).line(p) + (p.round ? ` Round ${p.round}.` : "");
    // The invitation belongs to the lobby: not to a game in play or over.
    show(byId("share"), p.phase === "lobby");
    show(byId("watching"), g.spectating && !g.seated() && p.phase !== "lobby");
    if (g.seated()) g.poller.stop(); // listened to from now on
    if (p.version !== this.shown?.version) {
      // The last move's changes are drawn against the state it started
      // from (the one shown before it).
      this.before = this.shown;
      this.shown = p;
    }
    renderBoard(byId("board"), app.engine, p, g, this.before);
    renderPlayers(byId("players"), app.engine, p, g, user?.uid ?? "", this.before);
    renderFight(byId("fight"), app.engine, p, g);
    byId("turn").textContent = this.turnLine(p);
    this.renderTrust();
    g.actions.render();
    if (p.phase === "finished") this.renderEnd(p);
  }

  /** renderTrust draws a trustless game's round: the action waiting for
   * its reveals, whom it waits for, the deadline counting down, where
   * this seat's key is, and what a page in the background means. */
  renderTrust(): void {
    const g = this.g;
    const p = g.state;
    const user = app.user;
    const box = byId("trust");
    show(box, !!p?.trustless);
    if (!p?.trustless) return;
    const pd = p.phase !== "finished" ? p.trustless.pending : null;
    const round = byId("trust-round");
    const dl = byId("trust-deadline");
    const marks = g.trust?.marks ?? [];
    if (pd) {
      const done = new Set([...marks.filter((m) => m.index === pd.index).map((m) => m.uid), ...(pd.reveals ?? []).map((r) => r.uid)]);
      const waiting = (p.trustless.seats ?? []).filter((s) => !done.has(s.uid)).map((s) => g.who(s.uid));
      const kind = actionLabels[pd.action.kind]?.(pd.action, g) ?? pd.action.kind;
      const text = `Reveal round ${pd.index}: "${kind}" by ${g.who(pd.action.actor)} waits for the reveals of ` +
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
    const mine = g.trust?.place === "here" && p.phase !== "finished";
    bg.textContent = document.hidden
      ? "This page is in the background: your browser may pause it, and then it cannot reveal. A round waiting for you waits until you come back; if its deadline passes first, the server aborts the game."
      : "Keep this page open: it reveals your links by itself. A phone may pause it in the background; a round left waiting past its deadline aborts the game.";
    show(bg, mine);
    const due = !!pd && !(pd.reveals ?? []).some((r) => r.uid === user?.uid) && !marks.some((m) => m.index === pd.index && m.uid === user?.uid);
    this.revealDue = mine && due;
    this.renderTitle();
    const key = byId("trust-key");
    key.textContent = g.trust?.keyNote() ?? "";
    key.dataset.place = g.trust?.place ?? "";
  }

  /** renderTitle says in the title, and with the player's permission in a
   * notification, when a page in the background waits for this player. */
  renderTitle(): void {
    const g = this.g;
    const p = g.state;
    const user = app.user;
    const yourMove = !!p && p.phase === "playing" && !!user && p.awaiting === user.uid && !g.actions.pending && !p.trustless?.pending;
    signalTurn(this.alert, { gameId: g.id, version: p?.version ?? 0, yourMove, revealDue: this.revealDue, seatedInPlay: g.seated() && p?.phase !== "finished" }, byId("notify"));
  }

  private turnLine(p: Public): string {
    const g = this.g;
    const rules = app.engine.rules;
    const user = app.user;
    switch (p.phase) {
      case "lobby": {
        const n = p.players?.length ?? 0;
        if (n >= rules.maxPlayers) {
          if (!g.seated()) return "Every seat of this game is taken: you cannot join it. Go back to the lobby to create or open another game.";
          return p.owner === user?.uid ? `All ${n} seats are taken: start the game.` : `All ${n} seats are taken: waiting for the owner to start the game.`;
        }
        return `Waiting for players: ${n} seated (${rules.minPlayers} needed to start, ${rules.maxPlayers} at most).`;
      }
      case "finished":
        return "The game is over.";
    }
    const pd = p.trustless?.pending;
    if (pd) return `Reveal round ${pd.index}: waiting for the players' reveals.`;
    const step = p.step ? ` (${steps[p.step] ?? p.step})` : "";
    if (p.awaiting === user?.uid) return `Your move${step}.`;
    return `Waiting for ${g.who(p.awaiting)}${step}.`;
  }

  private renderEnd(p: Public): void {
    const g = this.g;
    show(byId("end"), true);
    showRematch("rematch", g.seated(), p.phase === "finished");
    if (g.spectating) g.poller.stop();
    const winner = p.winner ? g.who(p.winner) : "";
    byId("result").textContent = !winner
      ? "The game was abandoned: no winner."
      : p.winner === app.user?.uid
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
      const x = await callRetrying<object>("exportGame", { gameId: this.g.id });
      const v = app.engine.verify(JSON.stringify(x));
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
