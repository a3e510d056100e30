// Crazy Eights' cards in words (games/eights): card c of a deck of R
// ranks is rank c%R+1 of suit floor(c/R); the suits are spades, hearts,
// diamonds and clubs in that order; and its log in words. The board
// (eightsboard.ts) and the log's words (tablewords.ts) both use it.

import { cardWords, obj } from "./boardparts";

const suitNames = ["spades", "hearts", "diamonds", "clubs"];

/** suitMarks are the suits' signs, in the game's order. */
export const suitMarks = ["♠", "♥", "♦", "♣"];

/** eightsSuits are the suits' letters, in the game's order (0..3). */
export const eightsSuits = ["s", "h", "d", "c"] as const;

/** eightsRanks reads the ranks per suit from a ruleset (its JSON text or
 * object): 8 to 13, else the default 8. */
export function eightsRanks(rules: unknown): number {
  let r = rules;
  if (typeof r === "string") {
    try {
      r = JSON.parse(r);
    } catch {
      return 8;
    }
  }
  const n = obj(r)["ranks"];
  return typeof n === "number" && Number.isInteger(n) && n >= 8 && n <= 13 ? n : 8;
}

/** eightsCard names card c of a deck of ranks ranks ("As", "Th",
 * "Kc"), null for anything that is no card of it. */
export function eightsCard(c: unknown, ranks: number): string | null {
  if (typeof c !== "number" || !Number.isInteger(c) || c < 0 || c >= ranks * 4) return null;
  const rank = (c % ranks) + 1;
  const letter = rank === 1 ? "A" : rank === 10 ? "T" : rank === 11 ? "J" : rank === 12 ? "Q" : rank === 13 ? "K" : String(rank);
  return letter + eightsSuits[Math.floor(c / ranks)];
}

/** suitName says suit s (0..3) in words, "" for none. */
export function suitName(s: unknown): string {
  return typeof s === "number" && s >= 0 && s < 4 ? suitNames[s]! : "";
}


/** eightsSaid says card c under rules in words ("Seven of hearts"). */
export function eightsSaid(c: unknown, rules: unknown): string {
  const card = eightsCard(c, eightsRanks(rules));
  return card ? cardWords(card) : "a card";
}

const num = (v: unknown) => (typeof v === "number" ? v : Number(v));

/** Phrase says one event (its fields), the seat named who, under rules
 * (tablewords.ts's phrasebooks). */
type Phrase = (e: Record<string, unknown>, who: string, seatOf: (seat: unknown) => string, seats: number, rules: unknown) => string;

/** eightsPhrases are Crazy Eights' words for its events. */
export const eightsPhrases: Record<string, Phrase> = {
  Started: (e, _who, _seatOf, _n, r) =>
    `The game starts: ${num(e["seats"])} players, ${num(e["cards"])} cards, ${num(e["hand"])} each; the top card: ${eightsSaid(e["top"], r)}`,
  Dealt: (e, _who, _seatOf, _n, r) => `You were dealt ${eightsSaid(e["card"], r)}`,
  Played: (e, who, _seatOf, _n, r) => {
    const card = eightsSaid(e["card"], r);
    const named = card.startsWith("Eight") ? `, naming ${suitName(e["suit"])}` : "";
    return `${who} played ${card}${named} (${num(e["left"])} left in hand)`;
  },
  Reshuffled: (e) => `The discards were shuffled into a new draw pile of ${num(e["cards"])} cards`,
  Drew: (e, who) => `${who} drew a card (${num(e["stock"])} left to draw)`,
  Drawn: (e, _who, _seatOf, _n, r) => `You drew ${eightsSaid(e["card"], r)}`,
  Passed: (_e, who) => `${who} could neither play nor draw, and passed`,
  Won: (_e, who) => `${who} played their last card and won`,
  Ended: (e) => (num(e["reason"]) === 2 ? `A draw: the game reached its limit of ${num(e["moves"])} moves` : "A draw: nobody could play or draw"),
};
