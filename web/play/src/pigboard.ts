// Pig's board (boards.ts): each seat's banked score as a track to the
// goal, the turn total of the seat to move, the last die rolled, whose
// turn it is. pigModel reads what to draw from the view with no DOM (run
// by Node in TestBoardsInNode); pigBoard draws it.

import { h, replace } from "./dom";
import { die, track } from "./boardparts";
import type { Board, BoardContext } from "./boardtypes";
import { outcomeLine, type TableEvent, type TableView } from "./tablewords";

/** PigSeat is one seat's line on Pig's board. */
export interface PigSeat {
  seat: number;
  banked: number;
  toMove: boolean;
  me: boolean;
}

/** PigModel is what Pig's board shows: the goal (null when neither the
 * ruleset nor the log says it), each seat's score, the turn total, the
 * seat to move (-1 once over or before the start), and the last roll
 * (null before any). started is false before the game's state exists. */
export interface PigModel {
  started: boolean;
  goal: number | null;
  seats: PigSeat[];
  turnTotal: number;
  toMove: number;
  lastRoll: { seat: number; value: number } | null;
}

const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);

/** pigGoal is the score that wins: the ruleset's goal, else the one the
 * game's start said in the log, else null. */
export function pigGoal(rules: unknown, events: TableEvent[]): number | null {
  const fromRules = typeof rules === "object" && rules !== null ? int((rules as Record<string, unknown>)["goal"]) : null;
  if (fromRules !== null && fromRules > 0) return fromRules;
  const started = events.find((e) => e.game && e.type === "GameStarted");
  const g = started ? int(started["goal"]) : null;
  return g !== null && g > 0 ? g : null;
}

/** pigModel reads Pig's board from the view (its state {banked, turn,
 * turnTotal, turns, over}), the events seen (the last Rolled: the die)
 * and the ruleset (the goal). */
export function pigModel(v: TableView, events: TableEvent[], rules: unknown): PigModel {
  const s = (typeof v.state === "object" && v.state !== null ? v.state : {}) as Record<string, unknown>;
  const banked = Array.isArray(s["banked"]) ? (s["banked"] as unknown[]) : [];
  const over = s["over"] === true || v.phase === "finished";
  const turn = int(s["turn"]);
  const toMove = !over && v.phase === "playing" && turn !== null ? turn : -1;
  let lastRoll: PigModel["lastRoll"] = null;
  for (const e of events) {
    if (e.game && e.type === "Rolled" && int(e["seat"]) !== null && int(e["value"]) !== null) lastRoll = { seat: e["seat"] as number, value: e["value"] as number };
  }
  return {
    started: banked.length > 0,
    goal: pigGoal(rules, events),
    seats: v.seats.map((_, i) => ({ seat: i, banked: int(banked[i]) ?? 0, toMove: i === toMove, me: i === v.seat })),
    turnTotal: int(s["turnTotal"]) ?? 0,
    toMove,
    lastRoll,
  };
}

/** pigBoard draws Pig's board. */
export const pigBoard: Board = {
  own: true,
  draw(el: HTMLElement, c: BoardContext) {
    const m = pigModel(c.view, c.events, c.rules);
    if (!m.started) {
      replace(el, h("p", { class: "board-note" }, "The game has not started."));
      return;
    }
    const tracks = h(
      "ol",
      { class: "tracks", "aria-label": m.goal ? `Scores: the first to ${m.goal} wins` : "Scores" },
      ...m.seats.map((s) => {
        const who = c.name(s.seat);
        const extra = s.toMove && m.turnTotal > 0 ? ` + ${m.turnTotal} this turn` : "";
        return h(
          "li",
          { class: `track s${(s.seat % 6) + 1}` + (s.toMove ? " to-move" : "") + (s.me ? " me" : ""), "data-seat": s.seat, "data-banked": s.banked },
          h("span", { class: "track-name" }, who, s.toMove ? h("span", { class: "turn-mark" }, " · to move") : null),
          ...track(s.banked, m.goal, `${who}: score ${s.banked}` + (m.goal ? ` of ${m.goal}` : ""), extra,
            extra ? { to: s.banked + m.turnTotal, label: `${who}: ${s.banked + m.turnTotal} if the turn total is banked now` } : undefined),
        );
      }),
    );
    const roll = m.lastRoll;
    const over = c.view.outcome ? outcomeLine(c.view, c.name) : "The game is over.";
    const turnText = m.toMove < 0 ? over : m.seats[m.toMove]?.me ? "Your turn" : `${c.name(m.toMove)}'s turn`;
    replace(
      el,
      tracks,
      h(
        "div",
        { class: "pig-turn" },
        roll ? die(roll.value, `The last roll: ${roll.value}, by ${c.name(roll.seat)}`) : h("div", { class: "die die-none", role: "img", "aria-label": "No die rolled yet" }),
        h(
          "p",
          { class: "pig-turn-words" },
          h("span", { class: "board-big" }, turnText),
          m.toMove >= 0 ? h("span", { class: "board-line" }, "Turn total: ", h("strong", { "data-board": "turn-total" }, String(m.turnTotal))) : null,
          roll ? h("span", { class: "board-line muted" }, `Last roll: ${roll.value}, by ${c.name(roll.seat)}`) : h("span", { class: "board-line muted" }, "No die rolled yet"),
        ),
      ),
    );
  },
};
