// What every part of the page shares (docs/play.md): the configuration,
// the engine, the backend and the player signed in, set once by main.ts's
// boot; the screens; fresh ids; calls sent again while their answer is
// lost; and the connection line.

import type { Backend, User } from "./backend";
import type { Config } from "./config";
import { byId, h, replace, show } from "./dom";
import type { Engine } from "./engine";
import { retryable } from "./errors";

/** app is the page's state: set by boot before any screen uses it. */
export const app = {} as { cfg: Config; engine: Engine; backend: Backend; user: User | null };

const sections = ["boot", "signin", "lobby", "game", "table"] as const;

/** screen shows one of the page's sections. */
export function screen(name: (typeof sections)[number]): void {
  for (const s of sections) show(byId(s), s === name);
  document.body.dataset.screen = name;
}

/** bootError says why the page cannot start. */
export function bootError(title: string, msg: string): void {
  screen("boot");
  byId("boot-title").textContent = title;
  byId("boot-msg").textContent = msg;
  document.body.dataset.screen = "boot-error";
}

/** newId is a fresh id of [a-z0-9] (game and action ids). */
export function newId(prefix: string): string {
  const b = new Uint8Array(10);
  crypto.getRandomValues(b);
  const abc = "abcdefghijkmnpqrstuvwxyz23456789";
  return prefix + Array.from(b, (x) => abc[x % 32]).join("");
}

/** callRetrying calls a function, sending the same request again (same
 * action id) while the answer is lost, up to three more times. */
export async function callRetrying<T>(name: string, data: object, onRetry?: (n: number) => void): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await app.backend.call<T>(name, data);
    } catch (e) {
      if (!retryable(e) || n >= 3) throw e;
      onRetry?.(n + 1);
      await new Promise((r) => setTimeout(r, 250 * 2 ** n));
    }
  }
}

/** call is callRetrying without a retry note. */
export const call = <T,>(fn: string, data: object) => callRetrying<T>(fn, data);

/** fillSelect fills a select with options, keeping its value if offered. */
export function fillSelect(sel: HTMLSelectElement, options: [string, string][]): void {
  const keep = sel.value;
  replace(sel, ...options.map(([v, label]) => h("option", { value: v }, label)));
  if (options.some(([v]) => v === keep)) sel.value = keep;
}

/** classLabel is a dungeon class's name as shown ("monk": "Monk"). */
export const classLabel = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);

/** autoJoinKey keeps the seat and class chosen at a trustless create,
 * for the game's page to join with. */
export function autoJoinKey(gameId: string): string {
  return "fairboard.autojoin." + app.user!.uid + "." + gameId;
}

/** netState is the listener's or the poller's latest word; netChanged is
 * told when the line changes (the open game's buttons follow it). */
let netState = "";
let netChanged: () => void = () => undefined;

/** onNet sets what is told when the connection line changes. */
export function onNet(fn: () => void): void {
  netChanged = fn;
}

/** setNet takes the listener's latest word ("cache", "error ...", ...). */
export function setNet(s: string): void {
  netState = s;
  updateNet();
}

/** updateNet says in the connection line whether the page is offline,
 * reconnecting, polling or failed. */
export function updateNet(): void {
  const el = byId("net");
  let text = "";
  let state = "online";
  if (!navigator.onLine) {
    text = "Offline: your moves wait until the connection is back; the board shows what was last read.";
    state = "offline";
  } else if (netState === "cache") {
    text = "Reconnecting: the board shows what was last read.";
    state = "offline";
  } else if (!app.backend.live) {
    text = "This server keeps games in memory (no Firestore): the page asks it for news every second instead of listening.";
    state = "polling";
  } else if (netState.startsWith("error")) {
    text = "The live connection failed: " + netState.slice(6);
    state = "error";
  }
  el.textContent = text;
  el.dataset.state = state;
  netChanged();
}
