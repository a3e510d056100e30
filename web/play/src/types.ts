// The shapes the page reads: the engine's JSON (engine.Public, engine.Event,
// engine.Action), as the functions answer them and as Firestore holds them.

export interface Player {
  uid: string;
  seat: number;
  class: string;
  hp: number;
  pos: number;
  items?: string[];
  atkBonus: number;
  defBonus: number;
  moveBonus: number;
}

export interface Enemy {
  cardId: string;
  tier: number;
  hp: number;
  atk: number;
  def: number;
}

export interface Public {
  gameId: string;
  owner: string;
  rulesHash: string;
  phase: "" | "lobby" | "playing" | "finished";
  version: number;
  logSeq: number;
  rng?: { mode: string };
  players?: Player[];
  order?: string[];
  current?: string;
  awaiting?: string;
  round: number;
  turn: number;
  step?: string;
  combat?: { uid: string; tier: number; round: number; enemies: Enemy[] } | null;
  duel?: { challenger: string; target: string; round: number; bracket?: boolean } | null;
  winner?: string;
  fairness?: { commitmentHex?: string; revealed?: boolean } | null;
  trustless?: Trustless | null;
}

/** Trustless is a trustless game's public part (engine.Trustless). */
export interface Trustless {
  chainLength: number;
  deadlineMs: number;
  nextIndex: number;
  transcript: string;
  seats?: { uid: string; seat: number; head: string; publicKey: string; link: string }[];
  pending?: {
    index: number;
    action: Action;
    digest: string;
    transcript: string;
    deadline: number;
    reveals?: { uid: string; seat: number; at: number }[];
  } | null;
}

/** Mark is a reveal marker of the open round (store.Mark): who revealed
 * which index when, and what they signed; never the link. */
export interface Mark {
  uid: string;
  seat: number;
  index: number;
  at: number;
  digest: string;
  transcript: string;
  signature: string;
}

/** GameEvent is one log event: its type, seq and the type's fields. */
export interface GameEvent {
  seq: number;
  type: string;
  [field: string]: unknown;
}

export interface Action {
  kind: string;
  actor: string;
  seat?: number;
  class?: string;
  keepSmokeBomb?: boolean;
  target?: string;
  cardId?: string;
}

/** View is getView's answer. */
export interface View {
  state: Public;
  events: GameEvent[];
  more: boolean;
  /** the open round's reveal markers (trustless games). */
  reveals?: Mark[];
  /** the players' names copied into the game, by uid (untrusted text). */
  names?: Record<string, string>;
  /** true when the caller reads the game as a spectator (not in it; the
   * game is open to spectators). */
  spectating?: boolean;
}

/** Result is the answer of an action. */
export interface Result {
  gameId: string;
  actionId: string;
  version: number;
  events: GameEvent[];
  replayed: boolean;
}
