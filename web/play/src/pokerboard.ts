// Kuhn's and Leduc's board (boards.ts): each seat with its card (its own
// face up, the others' face down until shown at the showdown), the chips
// it has in (Leduc's state holds them) and its last action; the pot, the
// betting round, and Leduc's public card once it is open. At a trustless
// table the seat's card is the one opened on this device (the server's
// view holds it closed). pokerModel reads what to draw with no DOM (run by
// Node in TestBoardsInNode); kuhnBoard and leducBoard draw it.

import { h, replace } from "./dom";
import { cardBack, cardFace, cardWords, obj } from "./boardparts";
import type { Board, BoardContext } from "./boardtypes";
import { kuhnCard, leducCard, outcomeLine, stateRows, type SeatNames, type TableEvent, type TableView } from "./tablewords";

/** PokerSeat is one seat on the board: its card face up (its name, as
 * "Kh" or Kuhn's "K") or null (face down), whether it is the reader's,
 * to move, out of the hand, its chips in (null where the game's state
 * does not hold them: Kuhn) and its last action in words ("" for none). */
export interface PokerSeat {
  seat: number;
  card: string | null;
  me: boolean;
  toMove: boolean;
  folded: boolean;
  chipsIn: number | null;
  action: string;
}

/** PokerModel is what the board shows. publicCard is Leduc's public card
 * (null until open), undefined for a game without one (Kuhn); round says
 * the betting round, betting its moves in words; dealing is true at a
 * trustless table while the seat's own card is not open on this device. */
export interface PokerModel {
  started: boolean;
  pot: number | null;
  publicCard: string | null | undefined;
  round: string;
  betting: string;
  seats: PokerSeat[];
  dealing: boolean;
}

/** actions say a poker event in a seat's line. */
const actions: Record<string, string> = { Passed: "passed", Bet: "bet", Called: "called", Folded: "folded", Checked: "checked", Raised: "raised" };

/** cardName names a card of the game as its state or its deal says it:
 * Kuhn's 0-2 (J, Q, K), Leduc's name ("Ks") or its number at a table of
 * seats seats; null for none or a closed one. */
export function cardName(game: string, v: unknown, seats: number): string | null {
  if (v === null || v === undefined || v === -1 || v === "-") return null;
  if (game === "kuhn") return typeof v === "number" && v >= 0 && v <= 2 ? kuhnCard(v) : null;
  if (typeof v === "number") return leducCard(v, seats);
  return typeof v === "string" && /^[2-9TJQKA][shdc]$/.test(v) ? v : null;
}

/** pokerModel reads the board of Kuhn or Leduc (game) from the view: a
 * seat's view is {public, private}, a spectator's the public part alone;
 * opened are the cards opened on this device at a trustless table. */
export function pokerModel(game: string, v: TableView, events: TableEvent[], name: SeatNames, opened: number[] | null): PokerModel {
  const st = obj(v.state);
  const pub = "public" in st ? obj(st["public"]) : st;
  const priv = obj(st["private"]);
  const n = v.seats.length;
  const trustless = v.mode === "trustless";
  const own = trustless ? cardName(game, opened?.[0], n) : cardName(game, priv["card"], n);
  const shown = Array.isArray(pub["shown"]) ? (pub["shown"] as unknown[]) : [];
  const inArr = Array.isArray(pub["in"]) ? (pub["in"] as unknown[]) : null;
  const foldedArr = Array.isArray(pub["folded"]) ? (pub["folded"] as unknown[]) : [];
  const last = new Map<number, string>();
  const foldedBy = new Set<number>();
  for (const e of events) {
    const a = e.game ? actions[e.type] : undefined;
    if (a && typeof e["seat"] === "number") {
      last.set(e["seat"], a);
      if (e.type === "Folded") foldedBy.add(e["seat"]);
    }
  }
  const playing = v.phase === "playing";
  const toMove = playing && typeof pub["toMove"] === "number" ? (pub["toMove"] as number) : -1;
  const rows = stateRows(v.state, game, n, name);
  const row = (key: string) => rows.find((r) => r.key === key)?.value ?? "";
  const round = game === "leduc" ? (typeof pub["round"] === "number" ? `Round ${pub["round"]} of 2` : "") : "Betting";
  const betting = game === "leduc" ? row(`public.round${pub["round"] === 2 ? 2 : 1}`) : row("public.history");
  return {
    started: Object.keys(pub).length > 0,
    pot: typeof pub["pot"] === "number" ? (pub["pot"] as number) : null,
    publicCard: game === "leduc" ? cardName(game, pub["publicCard"], n) : undefined,
    round,
    betting: betting === "—" ? "no bet yet" : betting,
    dealing: trustless && v.seat >= 0 && own === null,
    seats: v.seats.map((_, i) => ({
      seat: i,
      card: cardName(game, shown[i], n) ?? (i === v.seat ? own : null),
      me: i === v.seat,
      toMove: i === toMove,
      folded: foldedArr[i] === true || foldedBy.has(i),
      chipsIn: inArr && typeof inArr[i] === "number" ? (inArr[i] as number) : null,
      action: last.get(i) ?? "",
    })),
  };
}

/** drawPoker draws the board of game into el. */
function drawPoker(game: string, el: HTMLElement, c: BoardContext): void {
  const m = pokerModel(game, c.view, c.events, c.name, c.opened);
  if (!m.started) {
    replace(el, h("p", { class: "board-note" }, "The cards have not been dealt."));
    return;
  }
  const seats = m.seats.map((s) => {
    const who = c.name(s.seat);
    const whose = s.me ? "Your card" : `${who}'s card`;
    const card = s.card
      ? cardFace(s.card, whose)
      : cardBack(s.me && m.dealing ? "Your card: being dealt and opened on this device" : `${whose}, face down`);
    const marks = [s.toMove ? "to move" : "", s.folded ? "folded" : ""].filter(Boolean).join(", ");
    return h(
      "li",
      { class: `poker-seat s${(s.seat % 6) + 1}` + (s.me ? " me" : "") + (s.toMove ? " to-move" : "") + (s.folded ? " folded" : ""), "data-seat": s.seat },
      card,
      h(
        "span",
        { class: "seat-words" },
        h("strong", { class: "seat-name" }, who),
        marks ? h("span", { class: "turn-mark" }, ` · ${marks}`) : null,
        s.card ? h("span", { class: "board-line" }, `${s.me ? "Your card" : "Card"}: ${cardWords(s.card)}`) : null,
        s.chipsIn !== null ? h("span", { class: "board-line" }, "Chips in: ", h("strong", { "data-board": "chips-in" }, String(s.chipsIn))) : null,
        s.action ? h("span", { class: "board-line muted" }, `Last: ${s.action}`) : null,
      ),
    );
  });
  const middle = h(
    "div",
    { class: "poker-middle" },
    m.publicCard !== undefined
      ? h("div", { class: "public-card" }, m.publicCard ? cardFace(m.publicCard, "The public card") : cardBack("The public card, not open yet"), h("span", { class: "board-line muted" }, m.publicCard ? "Public card" : "Public card: after round 1"))
      : null,
    h(
      "p",
      { class: "pot-words" },
      h("span", { class: "chips", "aria-hidden": "true" }),
      h(
        "span",
        { class: "pot-text" },
        h("span", { class: "board-big" }, "Pot: ", h("strong", { "data-board": "pot" }, m.pot === null ? "—" : String(m.pot))),
        h("span", { class: "board-line" }, m.round ? `${m.round}: ${m.betting}` : m.betting),
        c.view.outcome ? h("span", { class: "board-line turn-mark" }, outcomeLine(c.view, c.name)) : null,
      ),
    ),
  );
  replace(el, middle, h("ol", { class: "poker-seats", "aria-label": "Seats" }, ...seats));
}

/** kuhnBoard draws Kuhn poker's board. */
export const kuhnBoard: Board = { own: true, draw: (el, c) => drawPoker("kuhn", el, c) };

/** leducBoard draws Leduc hold'em's board. */
export const leducBoard: Board = { own: true, draw: (el, c) => drawPoker("leduc", el, c) };
