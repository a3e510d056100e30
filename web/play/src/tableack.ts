// The server's acknowledgements of a trustless seat's reveals and deal
// messages, in words (docs/play.md, "Acknowledgements kept";
// docs/fairness.md, "Dropped, then blamed, at a table"). The page's
// WebAssembly checks each one under the server's key the page's
// configuration pins (config.json's ackKey), keeps it with the seat's
// secrets on the device, and compares the table's end with it
// (web/play/wasm/tableack.go, with table/trustseat's code); this module
// says which answers carry one and what the page shows.

import { byId, show } from "./dom";

/** AckAnswer is the wasm's tableAck answer. */
export interface AckAnswer {
  ok: boolean;
  error?: string;
  refused?: boolean;
  signed?: boolean;
}

/** BlameAnswer is the wasm's tableBlame answer. */
export interface BlameAnswer {
  ok: boolean;
  error?: string;
  none?: boolean;
  dropped?: boolean;
  words?: string;
  index?: number;
  reason?: string;
  missing?: string[];
  absent?: string[];
  verified?: boolean;
  ack?: string;
}

/** brings says whether the request data sent to fn brings what the
 * server acknowledges: a reveal, a move with its reveal or deal keys, or
 * a deal message (table.AckMessage); its success answer is then an
 * acknowledgement to check and keep. */
export function brings(fn: string, data: Record<string, unknown>): boolean {
  if (fn === "reveal") return true;
  if (fn !== "act") return false;
  if (data["kind"] === "deal") return !!data["deal"];
  return data["move"] !== undefined && data["kind"] === undefined && (!!data["reveal"] || !!data["deal"]);
}

/** acked names what fn's request data brought, for the player. */
export function acked(fn: string, data: Record<string, unknown>): string {
  const index = (r: unknown) => (r as { index?: number } | undefined)?.index;
  if (fn === "reveal") return `your reveal for round ${String(data["index"])}`;
  if (data["kind"] === "deal") return "your part of the deal";
  if (data["reveal"]) return `your move's reveal for round ${String(index(data["reveal"]))}`;
  return "your move's keys of the deal";
}

/** ackLine is what the page says of an acknowledgement checked: kept
 * (signed by the pinned key, or unsigned where the page pins none), or
 * refused (the server lied, or the page's key is wrong), or not kept
 * (another failure); state is the element's data-ack. */
export function ackLine(a: AckAnswer, what: string): { text: string; state: "kept" | "refused" | "failed" } {
  if (a.ok) {
    const how = a.signed
      ? "signed by the server's key this page pins: if the server later names your seat as missing it, this page shows the server dropped it, and the signature proves it to anyone"
      : "unsigned (this page pins no server key): it convinces you, not a third party";
    return { text: `The server's acknowledgement of ${what} is kept on this device, ${how}.`, state: "kept" };
  }
  if (a.refused) {
    return {
      text:
        `The server's acknowledgement of ${what} does NOT verify under the server's key this page pins: either the server lied, ` +
        `or the key in this page's configuration is wrong. This page sends nothing more at this table. (${a.error ?? ""})`,
      state: "refused",
    };
  }
  return { text: `The server's acknowledgement of ${what} could not be kept: ${a.error ?? "unknown error"}.`, state: "failed" };
}

/** blameLine says a table ended naming this seat as missing what the
 * kept acknowledgement covers: the server dropped it. */
export function blameLine(b: BlameAnswer): string {
  const words = b.words ?? "";
  const sig = b.verified
    ? " The acknowledgement's signature verifies under the server's published key: anyone can check it (it is kept on this device with your seat)."
    : " The acknowledgement carries no signature this page can check under a pinned key: it convinces you, not a third party.";
  return "The server dropped a message it had acknowledged: " + words.replace(/^the server/, "it") + "." + sig;
}

/** Acks checks and keeps, through the page's WebAssembly, each
 * acknowledgement of this seat (run: the wasm's tableAck under the
 * seat's lock, its secrets stored after), shows it, and shows the blame
 * of a table that ended naming the seat as missing what it covers. */
export class Acks {
  /** lied: an acknowledgement was refused; the seat sends nothing more. */
  lied = false;

  constructor(private readonly d: { key: string; run<V>(v: V, req: string): Promise<AckAnswer> }) {}

  /** keep checks and keeps the answer result of fn to data, sent at the
   * table v (gameId, uid), if it acknowledges anything. */
  async keep<V>(v: V, gameId: string, uid: string, fn: string, data: Record<string, unknown>, result: unknown): Promise<void> {
    if (!brings(fn, data)) return;
    let a: AckAnswer;
    try {
      a = await this.d.run(v, JSON.stringify({ gameId, uid, key: this.d.key, fn, data, result }));
    } catch (e) {
      a = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    const { text, state } = ackLine(a, acked(fn, data));
    const el = byId("tg-trust-ack");
    el.textContent = text;
    el.dataset.ack = state;
    show(el, true);
    if (state === "refused") this.lied = true;
  }

  /** blame shows b, the wasm's comparison of the table's end with the
   * kept acknowledgement (nothing when it found no drop). */
  blame(b: BlameAnswer): void {
    const el = byId("tg-trust-blame");
    el.textContent = b.ok && b.dropped ? blameLine(b) : "";
    el.dataset.dropped = b.ok && b.dropped ? "1" : "";
    show(el, !!(b.ok && b.dropped));
  }
}
