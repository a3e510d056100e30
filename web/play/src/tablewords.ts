// The generic board's words, with no DOM (run by Node in
// TestTableWordsInNode): a table game's view as getView answers it
// (functions.TableView), its log events in words, its moves' labels, and
// its public state as key/value rows. A game may add its own phrasing
// (the phrasebooks below); every other game is said from its definition's
// names alone.

import type { GameInfo, KindInfo } from "./engine";
import type { TableFairness } from "./tablefair";
import { eightsPhrases } from "./eightscards";

/** TableSeat is a seat of the table: its uid ("" while free) and its
 * options in the order of the game's seat options. */
export interface TableSeat {
  uid: string;
  options: string[] | null;
}

/** TableMove is a move as the game writes it: {kind, ...args}. */
export type TableMove = { kind: string } & Record<string, unknown>;

/** TableEvent is a log event (tablestore.AppendEventJSON): a game's own
 * (game: true, its fields by the definition's names) or the table's. */
export type TableEvent = { seq: number; type: string; game?: boolean; to?: number; uid?: string; options?: string[] } & Record<string, unknown>;

/** TableView is getView's answer for a table game. */
export interface TableView {
  game: string;
  gameId: string;
  mode: string;
  owner: string;
  phase: "lobby" | "playing" | "finished";
  version: number;
  seats: TableSeat[];
  seat: number;
  toMove: number;
  state: unknown;
  /** the game's ruleset (getView's; absent from a view made of the
   * table's documents). */
  rules?: unknown;
  legal: TableMove[];
  log: TableEvent[];
  /** outcome: reason and missing for a table ended before its end (at
   * a fair table with openings "unopened", and the seats, from 0, that
   * did not open; "idle", no seats, for a table the server's sweep
   * closed because nobody acted at it for too long). */
  outcome: { abandoned: boolean; winners: number[]; payoffs: number[]; reason?: string; missing?: number[] } | null;
  /** the players' names copied into the game, by uid (untrusted text). */
  names?: Record<string, string>;
  /** a fair table's protocol: its commitment, and once finished what
   * opens it. */
  fairness?: TableFairness | null;
  /** true when the caller reads the table as a spectator (the public part). */
  spectating?: boolean;
}

/** isTableView tells a table game's getView answer from the dungeon's:
 * it names its game. */
export function isTableView(v: unknown): v is TableView {
  return typeof v === "object" && v !== null && typeof (v as { game?: unknown }).game === "string";
}

/** words spells a field name in plain words: "turnTotal" is "turn total". */
export function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.-]+/g, " ")
    .toLowerCase()
    .trim();
}

/** capital capitalizes the first letter. */
export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** SeatNames names a seat in the page's words ("Seat 2 · bob (you)"). */
export type SeatNames = (seat: number) => string;

/** seatName is the page's name of a seat: its player's name from the
 * game's names, else 1-based with its uid; "(you)" for the reader's. */
export function seatName(seats: TableSeat[], me: number, names: Record<string, string> = {}): SeatNames {
  return (seat) => {
    const s = seats[seat];
    const you = seat === me ? " (you)" : "";
    const n = s?.uid ? names[s.uid] : undefined;
    if (n) return n + you;
    const uid = s?.uid ? " · " + s.uid : "";
    return `Seat ${seat + 1}${uid}${you}`;
  };
}

/** uidName names an account by the game's names, else by its uid. */
export function uidName(names: Record<string, string> = {}): (uid: unknown) => string {
  return (uid) => (typeof uid === "string" && uid ? names[uid] ?? uid : "someone");
}

/** Phrasebook is a game's own words for its events: a function per type
 * of the event's fields (the seat already named: who; any other seat by
 * seatOf, by its number from 0). */
type Phrasebook = Record<string, (e: TableEvent, who: string, seatOf: (seat: unknown) => string, seats: number, rules: unknown) => string>;

const num = (v: unknown) => (typeof v === "number" ? v : Number(v));

const phrasebooks: Record<string, Phrasebook> = {
  pig: {
    GameStarted: (e) => `The game starts: ${num(e["seats"])} players, first to ${num(e["goal"])} wins, a ${num(e["dieSides"])}-sided die.`,
    Rolled: (e, who) =>
      num(e["value"]) === 1 ? `${who} rolled 1` : `${who} rolled ${num(e["value"])} (turn total ${num(e["turnTotal"])})`,
    Busted: (e, who) => (num(e["lost"]) > 0 ? `${who} lost the turn total of ${num(e["lost"])}` : `${who} ends the turn with nothing`),
    Held: (e, who) => `${who} held: banked ${num(e["banked"])}`,
    Won: (e, who) => `${who} won with ${num(e["score"])}`,
  },
  kuhn: {
    Dealt: (e) => `Your card: ${kuhnCard(e["card"])}`,
    Passed: (e, who) => `${who} passed (pot ${num(e["pot"])})`,
    Bet: (e, who) => `${who} bet (pot ${num(e["pot"])})`,
    Folded: (_e, who) => `${who} folded`,
    Called: (e, who) => `${who} called (pot ${num(e["pot"])})`,
    Showdown: (e, _who, seatOf) => `Showdown: ${seatOf(0)} shows ${kuhnCard(e["card0"])}, ${seatOf(1)} shows ${kuhnCard(e["card1"])}`,
    Won: (e, who) => `${who} won the pot of ${num(e["pot"])}`,
  },
  eights: eightsPhrases,
  leduc: {
    Dealt: (e, _who, _seatOf, n) => `Your card: ${leducCard(e["card"], n)}`,
    Checked: (_e, who) => `${who} checked`,
    Called: (e, who) => `${who} called (pot ${num(e["pot"])})`,
    Raised: (e, who) => `${who} raised (pot ${num(e["pot"])})`,
    Folded: (_e, who) => `${who} folded`,
    PublicCard: (e, _who, _seatOf, n) => `The public card: ${leducCard(e["card"], n)}`,
    Showdown: (e, _who, seatOf) => `Showdown: ${seatOf(0)} shows ${leducCard(e["card0"], 2)}, ${seatOf(1)} shows ${leducCard(e["card1"], 2)}`,
    Shown: (e, who, _seatOf, n) => `${who} shows ${leducCard(e["card"], n)}`,
    Won: (e, who) => `${who} won the pot of ${num(e["pot"])}`,
    Split: (e) => `Equal ranks: the pot of ${num(e["pot"])} is split`,
    Shared: (e, who) => `${who} has one of the best hands and shares the pot of ${num(e["pot"])}`,
  },
};

/** leducCard names a Leduc card by its number at a table of seats
 * seats, as the game's state does (games/leduc NameCard): the seats+1
 * highest ranks up to the King, two suits each; with two seats 0 Js,
 * 1 Jh, 2 Qs, 3 Qh, 4 Ks, 5 Kh, with three 0 Ts ... 7 Kh. */
export function leducCard(v: unknown, seats: number): string {
  const c = num(v);
  const ranks = "3456789TJQK";
  if (!Number.isInteger(c) || seats < 2 || seats > 10 || c < 0 || c >= 2 * (seats + 1)) return String(v);
  return ranks.charAt(ranks.length - (seats + 1) + Math.floor(c / 2)) + "sh".charAt(c % 2);
}

/** describeTableEvent says a log event in words (at a table of seats
 * seats, which names some games' cards): the game's phrasebook
 * if it has one for the type, else "Type: seat 1, field value, ..." from
 * the definition's field names; the table's own events in words. */
export function describeTableEvent(e: TableEvent, game: string, name: SeatNames, who: (uid: unknown) => string = uidName(), seats = 2, rules: unknown = null): string {
  const seatOf = (v: unknown) => (typeof v === "number" ? name(v) : "a seat");
  if (!e.game) {
    switch (e.type) {
      case "TableCreated":
        return `${who(e.uid)} created the table (${num(e["seats"])} seats)`;
      case "Joined":
        return `${who(e.uid)} took seat ${num(e["seat"]) + 1}` + (e.options?.length ? ` (${e.options.join(", ")})` : "");
      case "Left":
        return `${who(e.uid)} left seat ${num(e["seat"]) + 1}`;
      case "SeatRemoved":
        return `The owner removed ${who(e.uid)} from seat ${num(e["seat"]) + 1}`;
      case "Started":
        return "The game started";
      case "Opened":
        return `${who(e.uid)} opened their contribution`;
      case "Abandoned":
        // The server's end of a table nobody acted at (the sweep: uid
        // "@server", options ["idle"]), or the owner's.
        if (e.options?.[0] === "idle") return "The server closed the table: nobody acted at it for too long";
        return e.uid === "@server" ? "The server abandoned the game" : "The owner abandoned the game";
      case "Addressed":
        // The trace of an event addressed to one seat: who got it, nothing of it.
        return `${seatOf(e["seat"])} was told something only they can see`;
      // A trustless table's protocol (tablestore.TableEventFields).
      case "Pending":
        return num(e["index"]) === 0
          ? `${seatOf(e["seat"])} moved: the move waits for the players' keys of the cards it shows`
          : `${seatOf(e["seat"])} moved: the move waits for reveal round ${num(e["index"])}`;
      case "Revealed":
        return `${seatOf(e["seat"])} revealed a link for reveal round ${num(e["index"])}`;
      case "RoundClosed":
        return `Reveal round ${num(e["index"])}: every player's link is revealed; the draw follows`;
      case "Aborted":
        return aborted(e, who);
      case "DealSettled":
        return dealSettled(e, who);
      case "DeckCommitted":
        // A named deck's commitment (table.TypeDeckCommitted): options are
        // the deck id, the tag and the commitment, opened at the end.
        return `The deck ${e.options?.[0] ?? "?"} was shuffled (${num(e["cards"])} cards): its order is committed as ${(e.options?.[2] ?? "").slice(0, 16)}…, opened at the end`;
    }
  }
  const book = phrasebooks[game]?.[e.type];
  if (book) return book(e, seatOf(e["seat"]), seatOf, seats, rules);
  const skip = new Set(["seq", "type", "game", "to", "uid", "options"]);
  const parts = Object.entries(e)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => (k === "seat" ? seatOf(v) : `${words(k)} ${typeof v === "object" ? JSON.stringify(v) : String(v)}`));
  return words(e.type).replace(/^./, (c) => c.toUpperCase()) + (parts.length ? ": " + parts.join(", ") : "");
}

/** aborted says a table's abort: its round (a trustless table's), its
 * reason (the event's first option) and the players whose reveal or
 * opening did not come (the other options, uids). */
function aborted(e: TableEvent, who: (uid: unknown) => string): string {
  const [reason, ...missing] = e.options ?? [];
  const at = num(e["index"]) > 0 ? ` at reveal round ${num(e["index"])}` : "";
  switch (reason) {
    case "deadline":
      return `The game ended${at}: no reveal came from ${missing.map(who).join(", ") || "a player"} by the deadline`;
    case "unopened":
      return `The table ended before its start: ${missing.map(who).join(", ") || "a player"} did not open their contribution by the deadline`;
    case "chainExhausted":
      return `The game ended${at}: a move needed more rounds than the players' chains hold`;
    default:
      return `The game was stopped${at}`;
  }
}

/** dealSettled says the end of a dealt hand: settled (every key in, the
 * deal checked), or forfeited by the players named (uids after the
 * reason): a deadline missed or a pass or key that did not check. */
function dealSettled(e: TableEvent, who: (uid: unknown) => string): string {
  const [reason, ...seats] = e.options ?? [];
  const names = seats.map(who).join(", ") || "a player";
  switch (reason) {
    case "deadline":
      return `The hand ended: no pass or key came from ${names} by the deadline, who loses what they had put in`;
    case "cheat":
      return `The hand ended: a pass or key from ${names} did not check, who loses the most the hand could cost`;
    default:
      return "The hand is settled: every player's keys are in and the deal checks";
  }
}

/** moveLabel is a move's button label: its kind in words with its
 * arguments ("Roll", "Bet (amount 3)"). */
export function moveLabel(m: TableMove): string {
  const args = Object.entries(m)
    .filter(([k]) => k !== "kind")
    .map(([k, v]) => `${words(k)} ${String(v)}`);
  return capital(words(m.kind)) + (args.length ? ` (${args.join(", ")})` : "");
}

/** moveDoc is the kind's doc from the game's definition, "" if none. */
export function moveDoc(m: TableMove, kinds: KindInfo[]): string {
  return kinds.find((k) => k.name === m.kind)?.doc ?? "";
}

/** Row is one line of the public state: a label, its value, and the
 * seat it belongs to (-1 for none). */
export interface Row {
  key: string;
  label: string;
  value: string;
  seat: number;
  /** toMove: the value is the seat the game awaits (shown only in play). */
  toMove?: boolean;
}

/** Hints are a game's own names for its state's fields, and which
 * fields hold a seat, each by its path (keys joined by "."). */
interface Hints {
  labels: Record<string, string>;
  seatFields: string[];
  hidden: string[];
  /** formats say a field's value in words, by its path. */
  formats?: Record<string, (v: unknown) => string>;
}

/** betting says a poker game's betting string in words, one letter a
 * move ("pb" in Kuhn: "pass, bet"); "—" before any. */
function betting(letters: Record<string, string>): (v: unknown) => string {
  return (v) => (typeof v === "string" && v !== "" ? Array.from(v, (c) => letters[c] ?? c).join(", ") : "—");
}

/** leducBetting words a Leduc round's betting: its 'c' is a check while
 * no raise is open in the round (as the log's Checked says), a call
 * after one. */
function leducBetting(v: unknown): string {
  if (typeof v !== "string" || v === "") return "—";
  let raised = false;
  return Array.from(v, (c) => {
    switch (c) {
      case "r":
        raised = true;
        return "raise";
      case "c":
        return raised ? "call" : "check";
      case "f":
        return "fold";
      default:
        return c;
    }
  }).join(", ");
}

/** kuhnCard names a Kuhn card (0 J, 1 Q, 2 K; -1, a card the server does
 * not know at a trustless table, "—"). */
export const kuhnCard = (v: unknown) => ["J", "Q", "K"][num(v)] ?? (num(v) === -1 ? "—" : String(v));

const hints: Record<string, Hints> = {
  pig: {
    labels: { banked: "Score", turnTotal: "Turn total", turns: "Turns played", turn: "To move" },
    seatFields: ["turn"],
    hidden: ["over"],
  },
  leduc: {
    labels: {
      "public.round": "Round",
      "public.round1": "Round 1 betting",
      "public.round2": "Round 2 betting",
      "public.publicCard": "Public card",
      "public.in": "Chips in",
      "public.pot": "Pot",
      "public.toMove": "To move",
      "public.shown": "Shown",
      "private.card": "Your card",
    },
    seatFields: ["public.toMove"],
    hidden: [],
    formats: { "public.round1": leducBetting, "public.round2": leducBetting },
  },
  kuhn: {
    labels: { "public.history": "Betting", "public.pot": "Pot", "public.toMove": "To move", "public.shown": "Shown", "private.card": "Your card" },
    seatFields: ["public.toMove"],
    hidden: [],
    formats: { "public.history": betting({ p: "pass", b: "bet" }), "public.shown": kuhnCard, "private.card": kuhnCard },
  },
};

/** stateRows lists the public state as rows: a number, string or boolean
 * field as one row; an array with one entry per seat as a row per seat
 * ("Score", Seat 1); other arrays and objects by their paths. Field
 * names are said in words, or by the game's own labels. */
export function stateRows(state: unknown, game: string, seats: number, name: SeatNames): Row[] {
  const h = hints[game];
  const rows: Row[] = [];
  const label = (path: string[]) => h?.labels[path.join(".")] ?? capital(path.map(words).join(" "));
  const say = (key: string, v: unknown) => (v !== null && h?.formats?.[key] ? h.formats[key](v) : fmt(v));
  const walk = (v: unknown, path: string[]) => {
    const key = path.join(".");
    if (h?.hidden.includes(key)) return;
    if (Array.isArray(v)) {
      if (v.length === seats && v.every((x) => typeof x !== "object" || x === null)) {
        v.forEach((x, i) => rows.push({ key: key + "." + i, label: label(path), value: say(key, x), seat: i }));
        return;
      }
      v.forEach((x, i) => walk(x, [...path, String(i + 1)]));
      return;
    }
    if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
      return;
    }
    const isSeat = h?.seatFields.includes(key) === true && typeof v === "number";
    rows.push({ key, label: label(path), value: isSeat ? name(v as number) : say(key, v), seat: -1, ...(isSeat ? { toMove: true } : {}) });
  };
  // A spectator reads the public part alone (the game's AppendPublic), a
  // seat its view ({public, private}); the hints name the fields of the
  // latter, so the former is read as its public part.
  const hinted = !!h && Object.keys(h.labels).some((k) => k.startsWith("public."));
  const flat = hinted && typeof state === "object" && state !== null && !Array.isArray(state) && !("public" in state);
  if (state !== null && state !== undefined) walk(flat ? { public: state } : state, []);
  return rows;
}

function fmt(v: unknown): string {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (v === null || v === undefined) return "—";
  return String(v);
}

/** outcomeLine says a finished table's outcome to its reader. */
export function outcomeLine(v: TableView, name: SeatNames): string {
  const o = v.outcome;
  if (!o) return "";
  if (o.reason === "unopened")
    return `The table ended before its start: ${(o.missing ?? []).map(name).join(", ") || "a seat"} did not open the contribution committed to at the join by the deadline. No winner.`;
  if (o.reason === "idle") return "The table was closed: nobody acted at it for too long. No winner.";
  if (o.abandoned) return "The game was abandoned: no winner.";
  if (o.winners.length === 0) return "The game ended with no winner.";
  if (o.winners.includes(v.seat)) return o.winners.length === 1 ? "You won." : `You won, with ${o.winners.filter((w) => w !== v.seat).map(name).join(", ")}.`;
  return `${o.winners.map(name).join(" and ")} won.`;
}

/** gameLabel is a game's name in the lobby. */
export function gameLabel(g: Pick<GameInfo, "name">): string {
  return g.name === "dungeon" ? "Dungeon (the reference game)" : capital(words(g.name));
}
