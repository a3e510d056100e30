// What a table game's board is (boards.ts is the registry of them): the
// types the boards and the registry share, apart, so that a board does
// not import the registry that imports it.

import type { SeatNames, TableEvent, TableMove, TableView } from "./tablewords";

/** BoardContext is what a board is drawn from: the table's view (its
 * state, seats, the seat's own view and whose move it is), every event
 * the page has seen of it in order (a view read after a seq holds only
 * the later ones), the ruleset as getView last answered it (null if
 * never: the listeners' view has none), the seats' names, and at a
 * trustless table the cards opened on this device (their numbers, null
 * while none is), which the server's view holds closed. */
export interface BoardContext {
  view: TableView;
  events: TableEvent[];
  rules: unknown;
  name: SeatNames;
  opened: number[] | null;
}

/** Board draws one game's board into its element, replacing what it
 * drew before. A game's own board (own: true) is drawn in the page's
 * "The board" section, with the game's values still listed as rows
 * below; the generic board (own: false) is those rows. */
export interface Board {
  own: boolean;
  draw(el: HTMLElement, c: BoardContext): void;
  /** moveLabel, where a game has it, says a move's button in the game's
   * own words (Crazy Eights' "Play 7♥"); without it a move is its kind
   * and arguments (moveLabel of tablewords.ts). */
  moveLabel?(m: TableMove, c: BoardContext): string;
}
