// The engine's part of the page: play.wasm (Go compiled to WebAssembly,
// see wasm/main.go) holds the ruleset, the legal-action enumeration and the
// export verifier, so the rules are never copied into JavaScript.

import type { Action, Public, GameEvent, Mark } from "./types";

/** toHex spells bytes as lowercase hex. */
export function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** fromHex reads lowercase or uppercase hex. */
export function fromHex(s: string): Uint8Array {
  const b = new Uint8Array(s.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return b;
}

declare global {
  // wasm_exec.js (Go's loader, loaded before this bundle) defines Go.
  class Go {
    importObject: WebAssembly.Imports;
    run(instance: WebAssembly.Instance): Promise<void>;
  }
}

interface WasmAPI {
  rules(): string;
  help(name?: string): string;
  games(): string;
  reset(gameId: string): Answer;
  state(json: string): Answer;
  events(json: string): Answer & { added?: number; checked?: number };
  legal(uid: string): string;
  check(): string;
  verify(text: string): Verdict;
  marks(json: string): Answer;
  seat(json: string): Answer & { head?: string };
  signBytes(json: string): Answer & { message?: string };
  reveal(): Answer & { none?: boolean; action?: string; message?: string; index?: number; digest?: string };
  actReveal(json: string): Answer & { none?: boolean; action?: string; message?: string; index?: number; digest?: string };
  seedSign(seedHex: string, msgHex: string): Answer & { signature?: string; publicKey?: string };
}

/** SeatSecrets is what the page keeps of its seat in a trustless game
 * and gives the engine (never the private key: WebCrypto holds it). */
export interface SeatSecrets {
  gameId: string;
  uid: string;
  seat: number;
  chainLength: number;
  chainSecret: string;
  publicKey: string;
  revealed: number;
  digest: string;
}

/** Reveal is the reveal the checked game waits for: the action (without
 * its signature) and the bytes to sign, hex. */
export interface Reveal {
  action: Action & { index: number; link: string; digest: string; transcript: string; seat: number };
  message: string;
  index: number;
  digest: string;
}

interface Answer {
  ok: boolean;
  error?: string;
}

/** Verdict is the export verifier's answer, as gamectl verify's. */
export interface Verdict {
  status: "ok" | "diverged" | "invalid";
  code: number;
  message: string;
}

export interface Tile {
  index: number;
  kind: "start" | "final" | "empty" | "treasure" | "enemy" | "chance";
  tier: number;
}

export interface Card {
  id: string;
  name: string;
  kind: string;
  tier: number;
}

/** Help is a game's rules in words, from its own definition (game.Help). */
export interface Help {
  summary?: string;
  sections: { title: string; intro?: string; items?: { name: string; text: string }[] }[];
  error?: string;
}

/** GameInfo is a registered game as its definition describes it
 * (fairboard.games(), web/play/wasm/games.go). */
export interface GameInfo {
  name: string;
  seats: { min: number; max: number; default: number; options: { name: string; values: string[]; doc: string }[] };
  kinds: KindInfo[];
  events: { type: string; fields: string[] }[];
  /** trustless: the page can play the game at a trustless table. */
  trustless?: boolean;
}

/** KindInfo is one move kind: its integer arguments and its doc;
 * forfeit for a move that gives something up for good (a fold), which
 * the page offers last. */
export interface KindInfo {
  name: string;
  doc: string;
  args: { name: string; min: number; max: number }[];
  forfeit?: boolean;
}

/** Rules is what the page draws, computed by the engine from its ruleset. */
export interface Rules {
  name: string;
  rulesHash: string;
  minPlayers: number;
  maxPlayers: number;
  maxHp: number;
  classes: string[];
  tiles: Tile[];
  cards: Card[];
}

/** Engine is the loaded WebAssembly. It follows one game at a time and
 * checks each state and event once, as it arrives. */
export class Engine {
  readonly rules: Rules;
  private readonly cards = new Map<string, Card>();

  constructor(private readonly api: WasmAPI) {
    this.rules = JSON.parse(api.rules()) as Rules;
    for (const c of this.rules.cards) this.cards.set(c.id, c);
  }

  /** help is how to play the game (the dungeon, or the registered game
   * named), from its own definition. */
  help(name?: string): Help {
    return JSON.parse(name ? this.api.help(name) : this.api.help()) as Help;
  }

  /** games lists the registered games, the dungeon first. */
  games(): GameInfo[] {
    return JSON.parse(this.api.games()) as GameInfo[];
  }

  /** cardName is a card's name ("Dagger"), or its id if unknown. */
  cardName(id: string): string {
    return this.cards.get(id)?.name ?? id;
  }

  /** follow starts following a game, forgetting the previous one. */
  follow(gameId: string): void {
    const a = this.api.reset(gameId);
    if (!a.ok) throw new Error(a.error);
  }

  /** state checks and takes the game document; it returns the problem
   * found ("" if none). */
  state(p: Public): string {
    const a = this.api.state(JSON.stringify(p));
    return a.ok ? "" : a.error ?? "refused";
  }

  /** events checks and takes log events in order; it returns the problem
   * found ("" if none). */
  events(evs: GameEvent[]): string {
    if (evs.length === 0) return this.api.check();
    const a = this.api.events(JSON.stringify(evs));
    return a.ok ? "" : a.error ?? "refused";
  }

  /** legal lists the actions uid may send now, as the engine decides. */
  legal(uid: string): Action[] {
    return (JSON.parse(this.api.legal(uid)) as Action[] | null) ?? [];
  }

  /** problem is the first problem found in the followed game, or "". */
  problem(): string {
    return this.api.check();
  }

  /** marks checks the open round's reveal markers as read; it returns
   * the problem found ("" if none). */
  marks(ms: Mark[]): string {
    const a = this.api.marks(JSON.stringify(ms));
    return a.ok ? "" : a.error ?? "refused";
  }

  /** seat gives the engine this player's seat; it returns the chain's
   * head (64 hex digits). */
  seat(s: SeatSecrets): string {
    const a = this.api.seat(JSON.stringify(s));
    if (!a.ok) throw new Error(a.error);
    return a.head!;
  }

  /** signBytes returns the bytes this seat signs for its action a. */
  signBytes(a: Action & { version: number }): Uint8Array {
    const r = this.api.signBytes(JSON.stringify(a));
    if (!r.ok) throw new Error(r.error);
    return fromHex(r.message!);
  }

  /** reveal returns the reveal the checked game waits for from this
   * seat, null if none; it throws the problem found when the server
   * shows what the log does not make. */
  reveal(): Reveal | null {
    const r = this.api.reveal();
    if (!r.ok) throw new Error(r.error);
    if (r.none) return null;
    return { action: JSON.parse(r.action!), message: r.message!, index: r.index!, digest: r.digest! };
  }

  /** actReveal returns the reveal to send with this seat's signed action
   * a when a draws (docs/fairness.md, "An action with its reveal"): the
   * engine has recorded its index and digest; null when a draws nothing. */
  actReveal(a: Action & { version: number; signature: string }): Reveal | null {
    const r = this.api.actReveal(JSON.stringify(a));
    if (!r.ok) throw new Error(r.error);
    if (r.none) return null;
    return { action: JSON.parse(r.action!), message: r.message!, index: r.index!, digest: r.digest! };
  }

  /** seedSign signs with the key of a 32-byte seed (a browser without
   * Ed25519 in WebCrypto): the signature and the public key, hex. */
  seedSign(seed: string, msg: Uint8Array): { signature: string; publicKey: string } {
    const r = this.api.seedSign(seed, toHex(msg));
    if (!r.ok) throw new Error(r.error);
    return { signature: r.signature!, publicKey: r.publicKey! };
  }

  /** verify runs the export verifier on an export's text. */
  verify(text: string): Verdict {
    return this.api.verify(text);
  }
}

/** loadEngine fetches and starts play.wasm. */
export async function loadEngine(url: string): Promise<Engine> {
  const go = new Go();
  const ready = new Promise<void>((resolve) => window.addEventListener("fairboard-ready", () => resolve(), { once: true }));
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(url + ": HTTP " + resp.status);
  const { instance } = await WebAssembly.instantiateStreaming(resp, go.importObject);
  void go.run(instance); // runs for the page's lifetime
  await ready;
  const api = (globalThis as unknown as { fairboard: WasmAPI }).fairboard;
  return new Engine(api);
}
