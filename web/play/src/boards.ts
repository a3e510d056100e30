// The board renderers of table games (docs/play.md, "Game boards"): a
// game's name maps to the board that draws it from the table's view; a
// game with none plays on the generic board (genericboard.ts: its public
// state as key/value rows), which boardFor gives for any name it does not
// know. A game adds its board by writing a Board (its own file, drawing
// from BoardContext alone, with the pieces of boardparts.ts) and naming
// it in boards below.

import { renderState } from "./genericboard";
import { eightsBoard } from "./eightsboard";
import { kuhnBoard, leducBoard } from "./pokerboard";
import { pigBoard } from "./pigboard";
import type { Board } from "./boardtypes";
import type { TableEvent } from "./tablewords";

export type { Board, BoardContext } from "./boardtypes";

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
  eights: eightsBoard,
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
