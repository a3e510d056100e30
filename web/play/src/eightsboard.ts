// Crazy Eights' board (boards.ts; the game is games/eights): the top card
// of the discard pile and the suit in force, the reader's hand face up
// (the cards it may play marked), every other seat's hand as a count of
// cards face down, the draw pile's count; and the game's moves said as
// cards ("Play 7♥", "Play 8♠, naming diamonds", "Draw a card"). Card c
// of a deck of R ranks is rank c%R+1 of suit floor(c/R) (the game's
// rules); the suits are spades, hearts, diamonds, clubs in that order.
// The ranks come from the ruleset as getView answered it, 8 (the
// default) when the page has none. eightsModel and the names need no DOM
// (run by Node in TestBoardsInNode).

import { h, replace } from "./dom";
import { cardBack, cardFace, cardWords, obj } from "./boardparts";
import type { Board, BoardContext } from "./boardtypes";
import { eightsCard, eightsRanks, eightsSuits, suitMarks, suitName } from "./eightscards";
import { outcomeLine, type SeatNames, type TableMove, type TableView } from "./tablewords";

/** EightsModel is what the board shows: the top card and the suit in
 * force, the reader's hand (null for a spectator), each seat's card
 * count, the draw pile's and discard pile's counts. */
export interface EightsModel {
  started: boolean;
  top: string | null;
  suit: string;
  hand: string[] | null;
  seats: { seat: number; cards: number; me: boolean; toMove: boolean }[];
  stock: number;
  discards: number;
}

/** eightsModel reads the board from the view: a seat's view is {public,
 * private}, a spectator's the public part alone. */
export function eightsModel(v: TableView, rules: unknown): EightsModel {
  const ranks = eightsRanks(rules ?? v.rules);
  const st = obj(v.state);
  const pub = "public" in st ? obj(st["public"]) : st;
  const priv = obj(st["private"]);
  const hands = Array.isArray(pub["hands"]) ? (pub["hands"] as unknown[]) : [];
  const toMove = v.phase === "playing" && typeof pub["toMove"] === "number" ? (pub["toMove"] as number) : -1;
  const hand = Array.isArray(priv["hand"]) ? (priv["hand"] as unknown[]).map((c) => eightsCard(c, ranks) ?? "?") : null;
  return {
    started: Object.keys(pub).length > 0,
    top: eightsCard(pub["top"], ranks),
    suit: suitName(pub["suit"]),
    hand: v.seat >= 0 ? hand : null,
    seats: v.seats.map((_, i) => ({ seat: i, cards: typeof hands[i] === "number" ? (hands[i] as number) : 0, me: i === v.seat, toMove: i === toMove })),
    stock: typeof pub["stock"] === "number" ? (pub["stock"] as number) : 0,
    discards: Array.isArray(pub["discards"]) ? (pub["discards"] as unknown[]).length : 0,
  };
}

/** eightsMoveLabel says a move of Crazy Eights as its card: "Play 7♥",
 * "Play 8♠, naming diamonds" (an eight names the suit in force), "Draw
 * a card"; the hand is the mover's, from its view. */
export function eightsMoveLabel(m: TableMove, v: TableView, rules: unknown): string {
  if (m.kind === "draw") return "Draw a card";
  const ranks = eightsRanks(rules ?? v.rules);
  const priv = obj(obj(v.state)["private"]);
  const hand = Array.isArray(priv["hand"]) ? (priv["hand"] as unknown[]) : [];
  const card = eightsCard(hand[Number(m["card"])], ranks);
  if (!card) return `Play card ${Number(m["card"]) + 1}`;
  const shown = card.replace(/^T/, "10").slice(0, -1) + suitMarks[eightsSuits.indexOf(card.slice(-1) as (typeof eightsSuits)[number])];
  const named = card.startsWith("8") ? `, naming ${suitName(m["suit"])}` : "";
  return `Play ${shown}${named}`;
}

/** drawEights draws the board into el. */
function drawEights(el: HTMLElement, c: BoardContext): void {
  const m = eightsModel(c.view, c.rules);
  if (!m.started) {
    replace(el, h("p", { class: "board-note" }, "The cards have not been dealt."));
    return;
  }
  const name: SeatNames = c.name;
  const pile = h(
    "div",
    { class: "poker-middle" },
    h("div", { class: "public-card" }, m.top ? cardFace(m.top, "The top card") : cardBack("The top card"), h("span", { class: "board-line muted" }, "Top card")),
    h(
      "p",
      { class: "pot-words" },
      h(
        "span",
        { class: "pot-text" },
        h("span", { class: "board-big" }, "Suit in force: ", h("strong", { "data-board": "suit" }, m.suit || "—")),
        h("span", { class: "board-line" }, `Draw pile: ${m.stock} card${m.stock === 1 ? "" : "s"} · discards: ${m.discards}`),
        c.view.outcome ? h("span", { class: "board-line turn-mark" }, outcomeLine(c.view, name)) : null,
      ),
    ),
  );
  const seats = m.seats.map((s) => {
    const who = name(s.seat);
    const cards = s.me && m.hand
      ? m.hand.map((card) => cardFace(card, "Your card"))
      : [cardBack(`${who}'s hand: ${s.cards} card${s.cards === 1 ? "" : "s"}, face down`)];
    return h(
      "li",
      { class: `poker-seat eights-seat s${(s.seat % 6) + 1}` + (s.me ? " me" : "") + (s.toMove ? " to-move" : ""), "data-seat": s.seat, "data-cards": s.cards },
      h("div", { class: "eights-hand" }, ...cards),
      h(
        "span",
        { class: "seat-words" },
        h("strong", { class: "seat-name" }, who),
        s.toMove ? h("span", { class: "turn-mark" }, " · to move") : null,
        h("span", { class: "board-line" }, `${s.cards} card${s.cards === 1 ? "" : "s"}`),
        s.me && m.hand ? h("span", { class: "board-line muted" }, "Your hand: " + m.hand.map(cardWords).join(", ")) : null,
      ),
    );
  });
  replace(el, pile, h("ol", { class: "poker-seats", "aria-label": "Seats" }, ...seats));
}

/** eightsBoard draws Crazy Eights' board and says its moves as cards. */
export const eightsBoard: Board = {
  own: true,
  draw: drawEights,
  moveLabel: (m, c) => eightsMoveLabel(m, c.view, c.rules),
};
