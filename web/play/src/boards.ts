// The board renderers of table games (docs/play.md, "Game boards"): a
// game's name maps to the board that draws it from the table's view; a
// game with none plays on the generic board (genericboard.ts: its public
// state as key/value rows), which boardFor gives for any name it does not
// know. A game adds its board by writing a Board (its own file, drawing
// from BoardContext alone, with the pieces of boardparts.ts) and naming
// it in boards below.

import { renderState } from "./genericboard";
import { kuhnBoard, leducBoard } from "./pokerboard";
import { pigBoard } from "./pigboard";
import type { SeatNames, TableEvent, TableView } from "./tablewords";

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
}

/** genericBoard is the board of any game without its own: the public
 * state as key/value rows. */
export const genericBoard: Board = {
  own: false,
  draw: (el, c) => renderState(el, c.view, c.name),
};

/** boards are the games' own boards, by game name. */
const boards: Record<string, Board> = {
  pig: pigBoard,
  kuhn: kuhnBoard,
  leduc: leducBoard,
};

/** boardFor returns the board of the game named, the generic board for
 * a name without one (any name: the lookup never fails). */
export function boardFor(game: string): Board {
  return Object.prototype.hasOwnProperty.call(boards, game) ? boards[game]! : genericBoard;
}

/** seenEvents lists a map of events by seq in the order of their seqs. */
export function seenEvents(events: Map<number, TableEvent>): TableEvent[] {
  return Array.from(events.values()).sort((a, b) => a.seq - b.seq);
}
