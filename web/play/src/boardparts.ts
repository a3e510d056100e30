// The pieces a game's own board is drawn with (boards.ts): a die, a card
// face or back, a score track. Each is an element with its meaning in
// words for a screen reader (role="img" with an aria-label, or a native
// <meter> with its label); the drawing itself is CSS (static/boards.css),
// never an inline style (the page's policy allows none).

import { h } from "./dom";

/** obj is v as a JSON object, {} for anything else (a view's state is
 * untrusted JSON). */
export const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** pipsOf are the cells (0-8, row by row of a 3×3 grid) a die face
 * from 1 to 6 shows a pip in. */
const pipsOf: Record<number, number[]> = {
  1: [4],
  2: [0, 8],
  3: [0, 4, 8],
  4: [0, 2, 6, 8],
  5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8],
};

/** die draws a die showing value: its pips for 1 to 6, its number for
 * any other face (a die of more sides); label says it in words. */
export function die(value: number, label: string): HTMLElement {
  const pips = pipsOf[value];
  const el = h("div", { class: "die" + (pips ? "" : " die-number"), role: "img", "aria-label": label, "data-value": value });
  if (!pips) {
    el.append(h("span", { class: "die-face", "aria-hidden": "true" }, String(value)));
    return el;
  }
  for (let i = 0; i < 9; i++) el.append(h("span", { class: pips.includes(i) ? "pip" : "pip none", "aria-hidden": "true" }));
  return el;
}

/** rankWords names a card's rank letter. */
const rankWords: Record<string, string> = {
  "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine",
  T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};
/** suitWords and suitMarks name a card's suit letter. */
const suitWords: Record<string, string> = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const suitMarks: Record<string, string> = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** cardWords says a card named by its rank letter and, if it has one,
 * its suit letter ("Kh": "King of hearts"; Kuhn's "Q": "Queen"); a name
 * it does not know is said as it is. */
export function cardWords(card: string): string {
  const rank = rankWords[card.charAt(0)];
  if (!rank || card.length > 2) return card;
  const suit = card.length === 2 ? suitWords[card.charAt(1)] : "";
  if (suit === undefined) return card;
  return suit ? `${rank} of ${suit}` : rank;
}

/** cardFace draws a card face up: its rank and suit in its corners and
 * its middle; its name (cardWords) as its label, after whose it is. */
export function cardFace(card: string, whose: string): HTMLElement {
  const rank = card.charAt(0) === "T" ? "10" : card.charAt(0);
  const suit = card.length === 2 ? card.charAt(1) : "";
  const mark = suitMarks[suit] ?? "";
  return h(
    "div",
    { class: "card face" + (suit === "h" || suit === "d" ? " red" : ""), role: "img", "aria-label": `${whose}: ${cardWords(card)}`, "data-card": card },
    h("span", { class: "corner", "aria-hidden": "true" }, rank, mark ? h("br") : null, mark),
    h("span", { class: "middle", "aria-hidden": "true" }, mark || rank),
    h("span", { class: "corner low", "aria-hidden": "true" }, rank, mark ? h("br") : null, mark),
  );
}

/** cardBack draws a card face down, labelled with what it is. */
export function cardBack(label: string): HTMLElement {
  return h("div", { class: "card back", role: "img", "aria-label": label, "data-card": "" });
}

/** track draws a score on its way to a goal: a meter from 0 to the goal
 * (none without a goal), labelled in words, and the score in figures;
 * with a pending part (a turn total not banked yet: pending is the score
 * it would make, labelled pendingLabel), a second, paler meter under the
 * first reaches it. */
export function track(score: number, goal: number | null, label: string, extra: string, pending?: { to: number; label: string }): HTMLElement[] {
  const figures = h("span", { class: "track-score" }, goal ? `${score} of ${goal}` : String(score), extra ? h("span", { class: "track-extra" }, extra) : null);
  if (!goal) return [figures];
  const bar = h("meter", { min: 0, max: goal, value: Math.min(score, goal), "aria-label": label, class: "track-bar" + (pending ? " over-pending" : "") });
  if (!pending) return [bar, figures];
  return [bar, h("meter", { min: 0, max: goal, value: Math.min(pending.to, goal), "aria-label": pending.label, class: "track-bar pending" }), figures];
}
