// Reading the public log, and saying each event in words.

import type { GameEvent } from "./types";

/** eventsOfDoc returns the events a log document holds, in order. Two
 * layouts exist, and one game may hold both: a document per applied
 * action, {events: [event, ...]} (id = its last event's seq), and, in
 * games stored before it, a document per event with the event's fields at
 * top level (id = its seq). Ordering the documents by id gives the events
 * in order in both. */
export function eventsOfDoc(id: string, data: Record<string, unknown>): GameEvent[] {
  const list = data["events"];
  if (Array.isArray(list)) {
    return list.map((e, i) => {
      if (!e || typeof e !== "object") throw new Error(`log document ${id}: event ${i} is not an object`);
      return e as GameEvent;
    });
  }
  if (typeof data["seq"] !== "number" || typeof data["type"] !== "string") {
    throw new Error(`log document ${id} is neither an event nor a list of events`);
  }
  return [data as GameEvent];
}

/** docId is the log document id of a seq: 20 digits, zero-padded. */
export function docId(seq: number): string {
  return String(seq).padStart(20, "0");
}

/** InOrder hands on a game's log events in seq order, each once, however
 * a listener delivers them. A snapshot of the log is not always the whole
 * log up to some point: the Firestore emulator's first snapshot of a long
 * log can hold its later documents without its earlier ones, which come
 * in the next. So take keeps an event after the next one due until the
 * gap before it is filled. An event already handed on that comes again
 * (a changed document) is handed on again, before the new ones, so that
 * the engine, which checks it against the one it has, names any change. */
export class InOrder {
  private next: number;
  private held = new Map<number, GameEvent>();

  /** afterSeq is the last event already had (0: none). */
  constructor(afterSeq: number) {
    this.next = afterSeq + 1;
  }

  /** take adds events heard, in any order, and returns, in seq order,
   * those heard again (seq at most after) and then those now due: the run
   * that follows the last one returned. */
  take(evs: GameEvent[]): GameEvent[] {
    const out: GameEvent[] = [];
    for (const e of evs) {
      if (!Number.isInteger(e.seq) || e.seq < 1) continue;
      if (e.seq < this.next) out.push(e);
      else this.held.set(e.seq, e);
    }
    out.sort((a, b) => a.seq - b.seq);
    for (let e = this.held.get(this.next); e; e = this.held.get(this.next)) {
      this.held.delete(this.next);
      out.push(e);
      this.next++;
    }
    return out;
  }

  /** after is the seq of the last event handed on (0: none). */
  get after(): number {
    return this.next - 1;
  }

  /** waiting says whether events are held for an earlier one missing. */
  get waiting(): boolean {
    return this.held.size > 0;
  }
}

/** Names says who a uid is and what a card is called. */
export interface Names {
  who(uid: unknown): string;
  card(id: unknown): string;
}

const tagWords: Record<string, string> = {
  "move.roll": "to move",
  "chance.earthquake.backRoll": "for the earthquake",
  "monk.cancel.roll": "to cancel the hit",
  "combat.player.attack": "to attack",
  "combat.player.defense": "to defend",
  "combat.enemy.attack": "to attack",
  "combat.enemy.defense": "to defend",
  "duel.player.attack": "to attack in the duel",
  "duel.player.defense": "to defend in the duel",
  "duel.defense.reroll": "re-rolling the defense",
  "turnOrder.roll": "for turn order",
};

/** deckWords names a deck ("treasure.t1") as a player says it. */
export function deckWords(id: unknown): string {
  const m = /^(treasure|enemy)\.t(\d)$/.exec(String(id));
  if (m) return `the tier-${m[2]} ${m[1]} deck`;
  return id === "chance" ? "the chance deck" : `the ${String(id)} deck`;
}

/** enemiesWords says an enemy composition ("1xT2+1xT1") in words: "a
 * tier-2 enemy and a tier-1 enemy". */
export function enemiesWords(choice: unknown): string {
  const parts = String(choice).split("+").map((p) => {
    const m = /^(\d+)xT(\d)$/.exec(p);
    if (!m) return p;
    const n = Number(m[1]);
    return n === 1 ? `a tier-${m[2]} enemy` : `${n === 2 ? "two" : n === 3 ? "three" : n} tier-${m[2]} enemies`;
  });
  return parts.length > 1 ? parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1] : parts[0]!;
}

/** lootWords says a loot roll's outcome ("T2", "none"). */
function lootWords(outcome: unknown): string {
  const m = /^T(\d)$/.exec(String(outcome));
  if (m) return `a tier-${m[1]} treasure`;
  return outcome === "none" ? "nothing" : String(outcome);
}

/** kindWords says what a kind of action does, for the protocol's records. */
const kindWords: Record<string, string> = {
  create: "creation of the game",
  join: "join",
  start: "start",
  useItem: "use of an item",
  dropItem: "drop of an item",
  endManage: "end of the item step",
  offerDuel: "challenge",
  skipDuel: "pass on a challenge",
  move: "roll to move",
  sleep: "sleep",
  resolveCombatRound: "fight round",
  resolveDuelRound: "duel round",
  reroll: "re-roll",
  declineReroll: "keeping of the die",
  discard: "discard",
  abandon: "abandon",
};

/** PROTOCOL are the event types of a trustless game's protocol records:
 * the page shows them in the log only on request (a collapsed detail). */
export const PROTOCOL = new Set(["ActionAccepted", "ActionPending", "RoundRevealed", "DeckShuffled"]);

/** trustSentence says a trustless protocol's record (the event's
 * "trustless" field, engine.TrustRecord) in words. */
function trustSentence(e: GameEvent, n: Names): string {
  const t = (e["trustless"] ?? {}) as { index?: number; action?: { kind?: string; actor?: string }; reveals?: unknown[]; reason?: string; missing?: string[] };
  // A create or join is read before its actor is seated: no name yet.
  const k = t.action?.kind;
  const what = kindWords[k ?? ""] ?? k;
  const act = !t.action ? "an action" : k === "create" || k === "join" ? `the signed ${what}` : `${n.who(t.action.actor)}'s signed ${what}`;
  switch (e.type) {
    case "ActionAccepted":
      return `${act.charAt(0).toUpperCase() + act.slice(1)} was applied.`;
    case "ActionPending":
      return `${act.charAt(0).toUpperCase() + act.slice(1)} waits for reveal round ${t.index}.`;
    case "RoundRevealed":
      return `Reveal round ${t.index}: every seat's link is revealed (${t.reveals?.length ?? 0}); the draw follows.`;
    default:
      return `The game was aborted at reveal round ${t.index} (${t.reason}${t.missing?.length ? ": no reveal from " + t.missing.map((u) => n.who(u)).join(", ") : ""}).`;
  }
}

/** describe says an event in words, as one sentence. */
export function describe(e: GameEvent, n: Names): string {
  const s = sentence(e, n);
  // A card's own name may end the sentence already ("Earthquake!.").
  return s.replace(/([!?.])\.$/, "$1");
}

function sentence(e: GameEvent, n: Names): string {
  const who = n.who(e["uid"]);
  switch (e.type) {
    case "GameCreated":
      return `${who} created the game.`;
    case "PlayerJoined":
      return `${who} sat down as a ${e["class"]}.`;
    case "DeckShuffled":
      return `${deckWords(e["deckId"]).replace(/^t/, "T")} (${e["size"]} cards) was shuffled, its order sealed until the end.`;
    case "TurnOrderRolled":
      return `${who} rolled ${e["value"]} for turn order.`;
    case "TieBreakRerolled":
      return `${who} re-rolled ${e["value"]} to break a tie.`;
    case "GameStarted":
      return `The game started: ${(e["order"] as string[]).map((u) => n.who(u)).join(", then ")}.`;
    case "TurnStarted":
      return `Round ${e["round"]}: ${who}'s turn.`;
    case "DiceRolled": {
      const tag = String(e["tag"]);
      const total = e["total"] !== undefined ? ` (total ${e["total"]})` : "";
      return `${n.who(e["who"])} rolled ${e["value"]} on a d${e["sides"]} ${tagWords[tag] ?? "(" + tag + ")"}${total}.`;
    }
    case "Moved":
      return `${who} moved from tile ${e["from"]} to tile ${e["to"]}${e["cause"] === "move" ? "" : " (" + e["cause"] + ")"}.`;
    case "Slept":
      return `${who} slept and healed ${e["amount"]} (HP ${e["hp"]}).`;
    case "Healed":
      return `${who} healed ${e["amount"]} (HP ${e["hp"]}).`;
    case "CardDrawn":
      return `${who} drew ${n.card(e["cardId"])} from ${deckWords(e["deckId"])}.`;
    case "ChanceResolved":
      return `Chance card: ${n.card(e["cardId"])}.`;
    case "ItemUsed":
      return `${who} used ${n.card(e["cardId"])} (HP ${e["hp"]}).`;
    case "ItemDropped":
      return `${who} dropped ${n.card(e["cardId"])}.`;
    case "Discarded":
      return `${who} discarded ${n.card(e["cardId"])}.`;
    case "EnemyCompositionChosen":
      return `On tile ${e["tileId"]}, ${enemiesWords(e["choice"])} ${/^1xT\d$/.test(String(e["choice"])) ? "appears" : "appear"}.`;
    case "EnemySpawned":
      return `${n.card(e["cardId"])} (HP ${e["hp"]}) enters the fight.`;
    case "DamageDealt":
      return `${n.who(e["who"])} dealt ${e["amount"]} to ${n.who(e["target"])} (HP ${e["hp"]}).`;
    case "EnemyDefeated":
      return `${n.card(e["cardId"])} is defeated.`;
    case "LootRoll":
      return `The loot roll gives ${lootWords(e["outcome"])}.`;
    case "KnockedOut":
      return `${who} was knocked out and sent back from tile ${e["from"]} to ${e["to"]} (HP ${e["hp"]}).`;
    case "CombatEnded":
      return e["outcome"] === "won"
        ? `${who} won the fight.`
        : e["outcome"] === "knockedOut"
          ? `${who} lost the fight.`
          : e["outcome"] === "retreated"
            ? `${who} retreated from the fight.`
            : `${who}'s fight ended (${e["outcome"]}).`;
    case "DuelOffered":
      return `${who} challenged ${n.who(e["target"])} to a duel.`;
    case "DuelCancelled":
      return `The duel was cancelled (${e["reason"] === "smokeBomb" ? "a smoke bomb" : e["reason"] === "monk" ? "the monk's roll" : e["reason"]}).`;
    case "RerollDeclined":
      return `${who} kept the die.`;
    case "DuelEnded":
      return e["winner"]
        ? `${n.who(e["winner"])} won the duel${e["outcome"] === "knockout" ? " by a knock-out" : ""}.`
        : "The duel ended in a draw.";
    case "ItemTaken":
      return `${who} took ${n.card(e["cardId"])} from ${n.who(e["target"])}.`;
    case "TieBreakResolved":
      return `A tie (${e["reason"]}) was broken: ${n.who(e["chosenUid"])}.`;
    case "RoundEnded":
      return `Round ${e["round"]} ended.`;
    case "BracketStarted":
      return `The final bracket starts: ${(e["candidates"] as string[]).map((u) => n.who(u)).join(", ")}.`;
    case "GameFinished":
      return e["outcome"] === "abandoned"
        ? "The game was abandoned."
        : `The game is over after round ${e["round"]}: ${n.who(e["winner"])} won ${
            e["outcome"] === "finalTile"
              ? "on the final tile"
              : e["outcome"] === "leftFinalTile"
                ? "as the furthest along (no one stayed on the final tile)"
                : e["outcome"] === "roundLimit"
                  ? "as the furthest along at the round limit"
                  : "(" + e["outcome"] + ")"
          }.`;
    case "FairnessRevealed":
      return "The game's secrets (seeds and shuffle salts) are revealed: it can be verified.";
    case "ActionAccepted":
    case "ActionPending":
    case "RoundRevealed":
    case "GameAborted":
      return trustSentence(e, n);
  }
  return `${e.type}.`;
}
