// Safe defaults (issue 30, item 8) and the your-turn alert (item 7): the
// order in which actions are offered, the ones that ask first, status
// lines that clear once the game moves on, and the page's title.

import { h, show } from "./dom";
import type { Action } from "./types";

/** irreversible are the action kinds that cannot be undone: an item
 * dropped or discarded is gone. They are offered last and ask first. */
const irreversible = new Set(["dropItem", "discard"]);

/** isIrreversible says whether an action of kind asks for a confirmation. */
export function isIrreversible(kind: string): boolean {
  return irreversible.has(kind);
}

/** ordered returns the actions with the irreversible ones last, each part
 * in the engine's order, so that the first button (which takes the
 * focus, and which Enter presses) never destroys anything. */
export function ordered(actions: Action[]): Action[] {
  return [...actions.filter((a) => !isIrreversible(a.kind)), ...actions.filter((a) => isIrreversible(a.kind))];
}

/** confirmBar is what replaces the action buttons after a click on an
 * irreversible one: the question, "Keep it" (focused by the caller: Enter
 * twice on the first button cancels) and the confirming button. */
export function confirmBar(label: string, yes: () => void, no: () => void): HTMLElement[] {
  const keep = h("button", { type: "button", id: "confirm-no" }, "No, keep it");
  const go = h("button", { type: "button", id: "confirm-yes", class: "danger" }, "Yes: " + label.charAt(0).toLowerCase() + label.slice(1));
  keep.addEventListener("click", no);
  go.addEventListener("click", yes);
  return [h("p", { id: "confirm-text" }, label + "? It cannot be undone."), keep, go];
}

/** noteStatus shows text in a status line, said at the game's version:
 * clearStale clears it once the board shows a later version, so that a
 * refusal never stays beside the buttons of a new turn. */
export function noteStatus(el: HTMLElement, text: string, version: number, code = ""): void {
  el.textContent = text;
  el.dataset.code = code;
  el.dataset.statusAt = String(version);
}

/** clearStale clears a status line noted at an older version than
 * version (and leaves any other text alone). */
export function clearStale(el: HTMLElement, version: number): void {
  const at = el.dataset.statusAt;
  if (at === undefined || version <= +at) return;
  el.textContent = "";
  el.dataset.code = "";
  delete el.dataset.statusAt;
}

/** TITLE is the page's title when nothing waits for this player. */
export const TITLE = "fairboard: play";

/** pageTitle is the title for the page's state: a page in the background
 * says when the game waits for this player (a reveal first: it has a
 * deadline). */
export function pageTitle(s: { hidden: boolean; yourMove: boolean; revealDue: boolean }): string {
  if (!s.hidden) return TITLE;
  if (s.revealDue) return "Your reveal is due — fairboard";
  if (s.yourMove) return "Your move — fairboard";
  return TITLE;
}

/** TurnAlert shows a notification, with the player's permission, when the
 * page is in the background and the game comes to wait for this player:
 * once per game version. */
export class TurnAlert {
  private shownAt = -1;

  /** available says whether the browser can notify and has not been
   * refused (the page then offers to ask). */
  static available(): boolean {
    return typeof Notification !== "undefined" && Notification.permission !== "denied";
  }

  /** granted says whether notifications are allowed. */
  static granted(): boolean {
    return typeof Notification !== "undefined" && Notification.permission === "granted";
  }

  /** notify notifies for the game at version, once, if allowed. */
  notify(gameId: string, version: number, body: string): boolean {
    if (!TurnAlert.granted() || version === this.shownAt) return false;
    this.shownAt = version;
    new Notification("fairboard: your move", { body, tag: "fairboard-" + gameId });
    return true;
  }
}

/** Turn is what the page signals of a game to its player: the game and
 * its version, whether it waits for this player's move (or reveal), and
 * whether the player holds a seat in a game not over (who may ask to be
 * notified). */
export interface Turn {
  gameId: string;
  version: number;
  yourMove: boolean;
  revealDue: boolean;
  seatedInPlay: boolean;
}

/** signalTurn says in the title, and with the player's permission in a
 * notification (once per version), when a page in the background waits
 * for this player; and offers the button that asks for the permission
 * while it can still be given. The dungeon's page and a table's share
 * it. */
export function signalTurn(alert: TurnAlert, t: Turn, notifyButton: HTMLElement): void {
  const title = pageTitle({ hidden: document.hidden, yourMove: t.yourMove, revealDue: t.revealDue });
  if (document.title !== title) document.title = title;
  if (document.hidden && t.yourMove) alert.notify(t.gameId, t.version, `Game ${t.gameId} waits for your move.`);
  show(notifyButton, TurnAlert.available() && !TurnAlert.granted() && t.seatedInPlay);
}

/** guestMustConfirm says whether signing out asks first: a guest cannot
 * sign in again as the same player, so a guest holding a seat in a game
 * not over is warned before losing it (issue 30, item 8). */
export function guestMustConfirm(label: string | undefined, seatedInPlay: boolean): boolean {
  return !!label?.startsWith("guest") && seatedInPlay;
}
