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
}

/** Result is the answer of an action. */
export interface Result {
  gameId: string;
  actionId: string;
  version: number;
  events: GameEvent[];
  replayed: boolean;
}
