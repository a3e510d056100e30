// The engine's part of the page: play.wasm (Go compiled to WebAssembly,
// see wasm/main.go) holds the ruleset, the legal-action enumeration and the
// export verifier, so the rules are never copied into JavaScript.

import type { Action, Public, GameEvent } from "./types";

declare global {
  // wasm_exec.js (Go's loader, loaded before this bundle) defines Go.
  class Go {
    importObject: WebAssembly.Imports;
    run(instance: WebAssembly.Instance): Promise<void>;
  }
}

interface WasmAPI {
  rules(): string;
  reset(gameId: string): Answer;
  state(json: string): Answer;
  events(json: string): Answer & { added?: number; checked?: number };
  legal(uid: string): string;
  check(): string;
  verify(text: string): Verdict;
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
