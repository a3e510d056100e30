// What differs between the game modes, kept out of the board: a mode may
// add fields to a join (a fair game's contribution), follow each state and
// event as it arrives (a trustless game's reveal loop will), and hold the
// actions back while it works. The board, the log and the actions are the
// same for every mode.

import type { GameEvent, Public } from "./types";

/** Mode is one game mode's own steps. */
export interface Mode {
  readonly name: string;
  /** joinFields are added to this player's join (drawn at the moment of
   * the join, after the page has read the game). */
  joinFields(p: Public): Record<string, unknown>;
  /** note says, on the join form, what the mode does at the join. */
  joinNote(p: Public): string;
  /** line is the mode's part of the game's header line. */
  line(p: Public): string;
  /** followed is told of each new state and the events that came with it
   * (a mode that must answer them, as a trustless reveal, does it here). */
  followed(p: Public, evs: GameEvent[]): void;
  /** holding says why the actions are held back now, or "". */
  holding(): string;
}

/** randomHex returns n random bytes from the browser's CSPRNG, as hex. */
export function randomHex(n: number): string {
  const b = new Uint8Array(n);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

const crypto_: Mode = {
  name: "crypto",
  joinFields: () => ({}),
  joinNote: () => "",
  line: () => "Mode: crypto (dice from the server's secure generator; the shuffles are opened at the end).",
  followed: () => undefined,
  holding: () => "",
};

const fair: Mode = {
  name: "fair",
  // The contribution is drawn now, after the server committed to its seed
  // (the commitment is in the game the page has read), and sent with the
  // join: the protocol of docs/fairness.md.
  joinFields: () => ({ entropy: randomHex(32) }),
  joinNote: () =>
    "This is a fair game: when you join, your browser draws 32 random bytes (crypto.getRandomValues) " +
    "and sends them as your contribution to the game's seed.",
  line: (p) =>
    "Mode: fair" + (p.fairness?.commitmentHex ? `. The server committed to its seed: ${p.fairness.commitmentHex.slice(0, 16)}…` : "") + ".",
  followed: () => undefined,
  holding: () => "",
};

const trustless: Mode = {
  name: "trustless",
  // The seat's chain and key are drawn at the join by the trustless seat
  // (trustgame.ts), stored on this device, and only the chain's head and
  // the public key are sent, signed.
  joinFields: () => ({}),
  joinNote: () =>
    "This is a trustless game: when you join, your browser draws your hash chain's secret (crypto.getRandomValues) " +
    "and an Ed25519 signing key, keeps them on this device (IndexedDB), and sends only the chain's head and the public key, signed.",
  line: (p) => {
    const t = p.trustless;
    const n = t ? ` Chains of ${t.chainLength} links; each reveal round must close within ${Math.round(t.deadlineMs / 1000)} s.` : "";
    return "Mode: trustless (every die and card comes from the players' hash chains, revealed by their pages: nobody, the server included, knows one before its round)." + n;
  },
  followed: () => undefined,
  holding: () => "",
};

const modes: Record<string, Mode> = { crypto: crypto_, fair, trustless };

/** modeOf returns the game's mode (crypto for a game without one, as the
 * server plays it). */
export function modeOf(p: Public | null): Mode {
  return modes[p?.rng?.mode ?? "crypto"] ?? { ...crypto_, name: p?.rng?.mode ?? "unknown", line: () => `Mode: ${p?.rng?.mode}.` };
}

/** createFields are added to a create in the mode, with the creator's join
 * (the join's fields are drawn after the create's answer). */
export function joinFieldsAtCreate(mode: string): Record<string, unknown> {
  return mode === "fair" ? fair.joinFields({} as Public) : {};
}
