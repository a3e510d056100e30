// What the action panel and the screen read of the game they belong to:
// the GameView, seen through an interface so that neither imports it
// (gameview.ts builds both).

import type { Names } from "./log";
import type { Poller } from "./spectate";
import type { TrustSeat } from "./trustgame";
import type { Public } from "./types";

/** GameHost is the game followed (GameView): its id, its last state, a
 * problem to say instead of actions, its trustless seat, whether the
* reader spectates, its poller and its action panel, the names of its
 * players and cards (Names), whether the reader holds a seat, and a fresh read. */
export interface GameHost extends Names {
  readonly id: string;
  state: Public | null;
  problem: string;
  trust: TrustSeat | null;
  spectating: boolean;
  readonly poller: Poller;
  readonly actions: { readonly pending: unknown; render(): void };
  who(uid: unknown): string;
  seated(): boolean;
  refresh(): Promise<void>;
}
