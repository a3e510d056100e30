// The dungeon game's actions on its page (docs/play.md): the buttons the
// engine lists for this player, the join form, the confirmation of an
// action that cannot be undone, and the sending of one action at a time,
// again with the same action id while its answer is lost (across a reload
// too), a trustless seat's signed inside its lock.

import { app, callRetrying, classLabel, fillSelect, newId } from "./app";
import { CallError } from "./backend";
import { byId, h, replace, show } from "./dom";
import { refusal } from "./errors";
import type { Names } from "./log";
import { modeOf } from "./modes";
import { confirmBar, isIrreversible, noteStatus, ordered } from "./safety";
import { legalNow, noteOtherTab } from "./seatact";
import { takeRematch } from "./spectate";
import type { Action, Public, Result } from "./types";
import type { GameHost } from "./gamehost";

/** Pending is an action sent and not yet seen on the board. */
interface Pending {
  fn: string;
  data: Record<string, unknown>;
  /** version is the game version its answer reported, once answered. */
  version?: number;
}

/** actionLabels say each action as its button does. */
export const actionLabels: Record<string, (a: Action, n: Names) => string> = {
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

/** ActionPanel offers and sends the open game's actions. */
export class ActionPanel {
  /** pending is the action on its way, if any. */
  pending: Pending | null = null;
  private legalKey = "";

  constructor(private readonly g: GameHost) {}

  private get storageKey(): string {
    return "fairboard.pending." + app.user!.uid + "." + this.g.id;
  }

  /** resume sends again an action sent before a reload whose answer
   * never came, with its action id (the server answers a landed one with
   * its first result, and applies it once). */
  resume(): void {
    const saved = sessionStorage.getItem(this.storageKey);
    if (!saved) return;
    this.pending = JSON.parse(saved) as Pending;
    void this.attempt();
  }

  /** seen forgets the pending action once the board shows its version. */
  seen(version: number): void {
    if (this.pending?.version !== undefined && version >= this.pending.version) {
      this.pending = null;
      sessionStorage.removeItem(this.storageKey);
    }
  }

  /** render offers the actions the engine lists for this player,
   * unless an action is on its way or the game cannot be trusted. */
  render(): void {
    const p = this.g.state;
    const user = app.user;
    if (!p || !user) return;
    const box = byId("action-buttons");
    const held = modeOf(p).holding() || this.trustHolding(p);
    const legal = this.g.problem || held ? [] : app.engine.legal(user.uid);
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
        (actionLabels[a.kind] ?? ((x: Action) => x.kind))(a, this.g),
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
          this.render();
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
    if (!p.trustless || !this.g.seated()) return "";
    if (this.g.trust?.place === "elsewhere") return "this seat's key is on another device";
    if (this.g.trust?.place !== "here") return "this seat's key is being read";
    return "";
  }

  /** join takes the seat and class chosen; a fair game's contribution is
   * drawn now, after the page has read the server's commitment; a
   * trustless seat's chain and key are drawn and stored first. */
  join(): void {
    const seat = Number(byId<HTMLSelectElement>("join-seat").value);
    const cls = byId<HTMLSelectElement>("join-class").value;
    if (this.g.state?.trustless) {
      void this.joinTrustless(seat, cls);
      return;
    }
    this.send({ kind: "join", actor: app.user!.uid, seat, class: cls });
  }

  async joinTrustless(seat: number, cls: string): Promise<void> {
    const g = this.g;
    if (!g.trust || !g.state || this.pending) return;
    const status = byId("action-status");
    status.textContent = "Drawing your chain and key, then joining…";
    this.pending = { fn: "joinGame", data: {} };
    this.render();
    try {
      await g.trust.join(g.state, seat, cls);
      status.textContent = "";
    } catch (e) {
      noteStatus(status, "Refused: " + refusal(e), g.state?.version ?? 0, e instanceof CallError ? e.details?.code ?? e.code : "");
    }
    this.pending = null;
    this.legalKey = "";
    await g.refresh().catch(() => undefined);
    this.render();
  }

  /** send sends one action through its function, with a fresh action id
   * kept until the board shows it (across a reload too). */
  send(a: Action): void {
    const g = this.g;
    if (this.pending || !g.state) return;
    const base = { gameId: g.id, actionId: newId("a") };
    let fn = "act";
    let data: Record<string, unknown>;
    switch (a.kind) {
      case "join":
        fn = "joinGame";
        data = { ...base, seat: a.seat, class: a.class, ...modeOf(g.state).joinFields(g.state) };
        break;
      case "start":
        fn = "startGame";
        data = base;
        break;
      default:
        data = { ...base, kind: a.kind, version: g.state.version };
        if (a.target) data["target"] = a.target;
        if (a.cardId) data["cardId"] = a.cardId;
    }
    if (g.state.trustless && g.trust) {
      // Signed by this seat's key inside its lock, from its record as it
      // is there; another tab's progress is read again (trustgame.ts, act).
      const p = g.state;
      const trust = g.trust;
      const pend: Pending = { fn, data };
      this.pending = pend;
      byId("action-status").textContent = "Signing…";
      this.render();
      void this.attempt((retrying) =>
        trust.act(p, a, fn, data, {
          signed: (req) => {
            if (this.pending !== pend) return;
            pend.data = req;
            sessionStorage.setItem(this.storageKey, JSON.stringify(pend));
            byId("action-status").textContent = "Sending…";
          },
          send: (f, req) => callRetrying<Result>(f, req, retrying),
          refresh: () => g.refresh(),
          board: () => g.state,
          legal: (x) => legalNow(x, app.engine.legal(app.user!.uid)),
        }),
      );
      return;
    }
    this.pending = { fn, data };
    sessionStorage.setItem(this.storageKey, JSON.stringify(this.pending));
    byId("action-status").textContent = "Sending…";
    this.render();
    void this.attempt();
  }

  /** attempt sends the pending action, again with the same action id while
   * its answer is lost; a trustless seat's goes through act (otherTab:
   * another tab of the seat had moved first, and the board is read). */
  private async attempt(act?: (retrying: (n: number) => void) => Promise<{ result?: Result; otherTab: boolean }>): Promise<void> {
    const g = this.g;
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
        if (res) await g.refresh().catch(() => undefined);
        noteOtherTab(status, Math.max(res?.version ?? 0, g.state?.version ?? 0), g.state?.trustless?.pending?.index);
      } else status.textContent = res?.replayed ? "Done (the server had already applied it)." : "";
      if (res) pend.version = res.version;
      if (!res || (g.state && g.state.version >= res.version)) {
        this.pending = null;
        sessionStorage.removeItem(this.storageKey);
      } else {
        sessionStorage.setItem(this.storageKey, JSON.stringify(pend));
      }
      if (!app.backend.live || !g.seated()) await g.refresh();
    } catch (e) {
      if (this.pending !== pend) return;
      this.pending = null;
      sessionStorage.removeItem(this.storageKey);
      noteStatus(status, "Refused: " + refusal(e), g.state?.version ?? 0, e instanceof CallError ? e.details?.code ?? e.code : "");
      if (pend.fn === "joinGame") await g.refresh().catch(() => undefined);
    }
    this.legalKey = "";
    this.render();
  }

  /** joinRematch joins the seat a rematch this player asked for keeps
   * for them (a trustless seat through its chain and key). */
  joinRematch(): void {
    const g = this.g;
    const r = takeRematch(g.id);
    if (!r || g.seated() || g.state?.phase !== "lobby") return;
    const cls = r.class ?? app.engine.rules.classes[0]!;
    if (g.state.trustless) void this.joinTrustless(r.seat, cls);
    else this.send({ kind: "join", actor: app.user!.uid, seat: r.seat, class: cls });
  }
}
