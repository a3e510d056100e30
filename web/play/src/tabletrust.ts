// A trustless table on the page (docs/play.md, "Trustless tables";
// docs/fairness.md, "Trustless tables"): the seat's hash chain and
// Ed25519 key are drawn in the page's WebAssembly by the Go seat client
// (table/trustseat, web/play/wasm/tableseat.go); the page asks it for the
// signed join, each signed move (with the seat's own reveal when the move
// draws), and the seat's reveal of a round the table awaits, which the
// seat gives only after it has checked every signature, link and round of
// the table's protocol as getView shows it. Its secrets reach this code
// only as an opaque blob, kept on the device (tablekeep.ts) before the
// action it signed is sent and handed back after a reload. The page
// shows the round's deadline, offers the abort once it has passed, and at
// the end judges the record as the verifier page does.

import { byId, h, replace, show } from "./dom";
import { CallError } from "./backend";
import { refusal } from "./errors";
import { kuhnCard, leducCard, type SeatNames, type TableMove, type TableView } from "./tablewords";
import { loadSecrets, saveSecrets, withTableLock } from "./tablekeep";
import { Acks, type AckAnswer, type BlameAnswer } from "./tableack";
import { Marks, type MarksAnswer } from "./tablemarks";
import { forSeat, seatChecked, trustOf, wholeView, type Call } from "./tabletrustview";

interface Answer {
  ok: boolean;
  error?: string;
  none?: boolean;
  [k: string]: unknown;
}

interface Judged {
  status: string;
  code: number;
  message: string;
  mine: string;
}

/** TableSeatAPI is the wasm's table seat (web/play/wasm/tableseat.go). */
interface TableSeatAPI {
  tableJoin(json: string): Answer;
  tableSeat(view: string, secrets: string): Answer;
  tableMove(view: string, move: string): Answer;
  tableReveal(view: string): Answer;
  tableDeal(view: string): Answer;
  tableCards(gameId: string, uid: string): Answer;
  tableVerify(record: string, gameId: string, uid: string): Judged;
  tableAck(json: string): AckAnswer & Answer;
  tableBlame(view: string, key: string): BlameAnswer;
  tableMarks(view: string): MarksAnswer;
}

function api(): TableSeatAPI {
  return (globalThis as unknown as { fairboard: TableSeatAPI }).fairboard;
}

/** judgeRecord checks a table's record (fairboard-game/v1) in the page's
 * WebAssembly, as the verifier page does (web/verify/judge): its status
 * ("ok", "diverged" or "invalid") and its message. */
export function judgeRecord(rec: object, gameId: string, uid: string): { status: string; message: string } {
  const j = api().tableVerify(JSON.stringify(rec), gameId, uid);
  return { status: j.status, message: j.message };
}

function must(a: Answer): Answer {
  if (!a.ok) throw new Error(a.error ?? "refused");
  return a;
}

/** keep stores the secrets an answer carries, if new, before the action
 * they signed leaves. */
async function keep(uid: string, gameId: string, kept: string | null, a: Answer): Promise<Answer> {
  const s = a["secrets"];
  if (typeof s === "string" && s !== kept) await saveSecrets(uid, gameId, s);
  return a;
}

/** withSeat runs fn (a call to the wasm's seat) holding the seat's lock,
 * the seat first given the secrets kept on this device (after a reload,
 * or newer ones another tab stored), and stores the secrets fn's answer
 * carries before the lock is released. fn is given v, or, with whole,
 * the table read again whole when v's moves start past the seat's
 * checkpoint (tabletrustview.ts: a seat just made again has checked none). */
async function withSeat(v: TableView, fn: (v: TableView) => Answer, whole?: () => Promise<TableView>): Promise<Answer> {
  const uid = v.seats[v.seat]?.uid ?? "";
  return withTableLock(uid, v.gameId, async () => {
    const kept = await loadSecrets(uid, v.gameId);
    if (kept !== null) must(api().tableSeat(JSON.stringify(v), kept));
    return keep(uid, v.gameId, kept, fn(whole ? await forSeat(v, seatChecked(v), whole) : v));
  });
}

/** join draws the seat (in the wasm; or makes again the one kept on this
 * device for that seat) and answers its join's fields against v's
 * version, its secrets stored first. */
async function join(game: string, gameId: string, uid: string, seat: number, chainLength: number, version: number): Promise<Record<string, unknown>> {
  const a = await withTableLock(uid, gameId, async () => {
    const kept = await loadSecrets(uid, gameId);
    return keep(uid, gameId, kept, must(api().tableJoin(JSON.stringify({ game, gameId, uid, seat, chainLength, version, secrets: kept ?? "" }))));
  });
  return { chainHead: a["chainHead"], publicKey: a["publicKey"], signature: a["signature"] };
}

/** joinFields draws the seat (in the wasm) and answers its join's chain
 * head, key and signature against the table's version, read now. */
export async function joinFields(call: Call, game: string, gameId: string, uid: string, seat: number): Promise<{ version: number; fields: Record<string, unknown> }> {
  const v = await call<TableView>("getView", { game, gameId });
  const t = trustOf(v);
  if (!t) throw new Error("the table shows no trustless protocol: not joining it");
  return { version: v.version, fields: await join(game, gameId, uid, seat, t.chainLength, v.version) };
}

/** joinAt answers the join's fields against the view v shown (the seat
 * is drawn once per game and uid; a later join signs again). */
export function joinAt(v: TableView, uid: string, seat: number): Promise<Record<string, unknown>> {
  return join(v.game, v.gameId, uid, seat, trustOf(v)!.chainLength, v.version);
}

/** signedMove answers the act's fields for move m against the view v
 * (read again whole through call if the seat cannot check it): the move,
 * its signature, and the seat's reveal when it draws. */
export async function signedMove(v: TableView, m: TableMove, call: Call): Promise<Record<string, unknown>> {
  const a = await withSeat(v, (w) => must(api().tableMove(JSON.stringify(w), JSON.stringify(m))), wholeView(call, v));
  const out: Record<string, unknown> = { move: JSON.parse(a["move"] as string), signature: a["signature"] };
  if (a["reveal"]) out["reveal"] = a["reveal"];
  return out;
}

/** ended says how a finished trustless table ended, if before its end. */
function ended(v: TableView, name: SeatNames): string {
  const o = v.outcome as { reason?: string; missing?: number[] } | null;
  switch (o?.reason) {
    case "deadline":
      return "The game ended at the round's deadline: no reveal came from " + (o.missing ?? []).map((i) => name(i)).join(", ") + "; nothing was re-rolled.";
    case "chainExhausted":
      return "The game ended: a move needed more rounds than the seats' chains hold.";
    case "abandoned":
      return "The owner abandoned the game before its end.";
    case "idle":
      return "The server closed the table: nobody acted at it for too long.";
    default:
      return "";
  }
}

/** codes of a reveal's refusal that say the round moved on. */
const movedOn = ["wrong_index", "deadline_passed", "game_over", "already_revealed"];

/** TrustPage is a trustless table's part of the page. */
export class TrustPage {
  /** sent is the reveal request of the index this page revealed last
   * (sent again unchanged while its answer is lost). */
  private sent: { index: number; req: Record<string, unknown>; acked: boolean } | null = null;
  private busy = false;
  private judgedKey = "";
  private dealBusy = false;
  private dealtAt = -1;
  revealsSent = 0;
  private readonly acks: Acks;
  private readonly marks: Marks;

  constructor(
    /** opened, if given, takes the seat's cards each time they are read
     * from this device (the game's board draws the seat's card); ackKey
     * is the server's key the page's configuration pins ("" or absent:
     * none). */
    private readonly d: { uid: string; gameId: string; call: Call; refresh(): Promise<void>; say(text: string): void; opened?(cards: number[]): void; ackKey?: string },
  ) {
    this.acks = new Acks({ key: d.ackKey ?? "", run: (v, req) => withSeat(v as TableView, () => api().tableAck(req)) });
    this.marks = new Marks((view) => api().tableMarks(view));
  }

  /** lied: this page refused an acknowledgement of the server's, or a
   * view's reveal markers lied (tablemarks.ts); it sends nothing more at
   * this table. */
  get lied(): boolean {
    return this.acks.lied || this.marks.lied;
  }

  /** acked checks and keeps the server's acknowledgement in result, the
   * success answer of fn to data sent at the table v (a move that brought
   * its reveal or deal keys; the page's reveals and deal messages are
   * kept here by themselves). */
  acked(v: TableView, fn: string, data: Record<string, unknown>, result: unknown): Promise<void> {
    return this.acks.keep(v, v.gameId, this.d.uid, fn, data, result);
  }

  /** due says whether the table awaits this seat's reveal. */
  due(v: TableView): boolean {
    const p = trustOf(v)?.pendingRound;
    return !!p && v.phase === "playing" && v.seat >= 0 && !(p.reveals ?? []).some((r) => r.seat === v.seat);
  }

  /** dealing says whether the table's deal is between passes, keys or
   * openings: the page offers no move then (a move would meet the deal's
   * next version). */
  dealing(v: TableView): boolean {
    const d = trustOf(v)?.deal;
    return !!d && d.Phase !== "play";
  }

  /** render draws the protocol's part of the page for v and reveals when
   * a round awaits this seat. */
  render(v: TableView, name: SeatNames): void {
    const t = trustOf(v);
    const box = byId("tg-trust");
    show(box, !!t);
    show(byId("tg-trust-end"), !!t && v.phase === "finished");
    if (!t) return;
    this.marks.check(v); // every view read, seated or watching
    byId("tg-trust-key").textContent =
      v.seat >= 0 && v.phase !== "finished"
        ? "Your seat's hash chain and signing key" + (t.deal ? ", and your keys of the deck," : "") +
          " were drawn in this page's WebAssembly and never leave it: this page signs your moves and reveals your links" + (t.deal ? " and keys" : "") +
          ", after checking every signature and round the table shows. They are kept in this browser (IndexedDB), never sent: a reload, or the table's link opened again here, resumes your seat; another browser or device cannot sign for it."
        : t.deal
          ? "Every card is dealt by mental poker between the players' pages: each page adds its own encryption, and a card opens only with every page's key."
          : "Every die comes from the seats' hash chains, revealed by each player's page.";
    const p = t.pendingRound;
    const due = this.due(v);
    box.dataset.revealDue = due ? "1" : "";
    box.dataset.dealing = v.phase === "playing" && this.dealing(v) ? "1" : "";
    const round = byId("tg-trust-round");
    const abort = byId("tg-trust-abort");
    if (!p || v.phase !== "playing") {
      round.textContent = v.phase !== "playing" ? ended(v, name) : t.deal ? "" : `No round open; the next uses index ${t.nextIndex} of the chains.`;
      delete round.dataset.deadline;
      show(abort, false);
    } else {
      const seen = new Set((p.reveals ?? []).map((r) => r.seat));
      const missing = v.seats.map((_, i) => i).filter((i) => !seen.has(i));
      const left = Math.max(0, Math.ceil((p.deadline - Date.now()) / 1000));
      const waits = missing.length ? "waiting for " + missing.map((i) => name(i)).join(", ") : "every seat revealed";
      round.textContent = `Round ${p.index}: ${waits}. Deadline ${new Date(p.deadline).toLocaleTimeString()}` + (left > 0 ? ` (in ${left} s).` : " (passed).");
      round.dataset.deadline = String(p.deadline);
      show(abort, left === 0 && missing.length > 0);
    }
    if (due) void this.reveal(v);
    if (t.deal && v.seat >= 0) {
      // Every view is given to the deal client: it takes in the keys
      // published (its own card opens once the others' keys are in) and
      // answers the action the deal awaits from this seat, if any.
      if (v.phase === "playing") void this.deal(v);
      else void this.ready(v).then(() => this.cards(v));
    }
    if (v.phase === "finished") void this.judge(v);
  }

  /** turn says, while a round is open or the deal between passes, keys
   * or openings, what the game waits for (the move is made; its die
   * waits for the seats' links, or its cards for their keys), or null. */
  turn(v: TableView, name: SeatNames): string | null {
    if (v.phase === "playing" && this.dealing(v)) return "The cards wait for the players' pages, which send their keys by themselves…";
    const p = trustOf(v)?.pendingRound;
    if (!p || v.phase !== "playing") return null;
    if (this.due(v)) return "Your page reveals your link for the die…";
    return `The die of ${name(v.toMove)}'s move waits for the players' reveals.`;
  }

  /** abort asks the server to end the game whose round passed its
   * deadline (any caller may; the server aborts in its own name). */
  abort(v: TableView): void {
    show(byId("tg-trust-abort"), false);
    void this.d
      .call("act", { game: v.game, gameId: v.gameId, actionId: "abort-" + (trustOf(v)?.pendingRound?.index ?? 0), kind: "abort", version: 0 })
      .then(
        () => this.d.refresh(),
        (e) => this.d.say("Refused: " + refusal(e)),
      );
  }

  /** reveal sends this seat's reveal of v's pending round, once per
   * index (the same request again while its answer is lost). */
  private async reveal(v: TableView): Promise<void> {
    const p = trustOf(v)!.pendingRound!;
    if (this.busy || this.lied || this.marks.check(v) || (this.sent?.index === p.index && this.sent.acked)) return;
    this.busy = true;
    try {
      if (this.sent?.index !== p.index) {
        const a = await withSeat(v, (w) => must(api().tableReveal(JSON.stringify(w))), wholeView(this.d.call, v));
        if (a.none) return;
        const r = { seat: a["seat"], index: a["index"], link: a["link"], digest: a["digest"], transcript: a["transcript"], signature: a["signature"] };
        this.sent = { index: p.index, acked: false, req: { game: v.game, gameId: v.gameId, actionId: "reveal-" + p.index, ...r } };
      }
      this.revealsSent++;
      document.body.dataset.revealsSent = String(this.revealsSent);
      try {
        await this.acked(v, "reveal", this.sent.req, await this.d.call("reveal", this.sent.req));
      } catch (e) {
        if (!(e instanceof CallError && movedOn.includes(e.details?.code ?? ""))) throw e;
      }
      this.sent.acked = true;
      byId("tg-trust").dataset.revealed = String(p.index);
      await this.d.refresh();
    } catch (e) {
      this.d.say("Your reveal failed: " + refusal(e));
    } finally {
      this.busy = false;
    }
  }

  /** deal gives the view to the seat's deal client and sends the
   * mental-poker action the deal awaits from this seat (its pass, its
   * keys of the others' cards, its keys at an opening or the hand's end),
   * made in the wasm after its checks; once per version. */
  private async deal(v: TableView): Promise<void> {
    if (this.dealBusy || this.lied || this.dealtAt === v.version) return;
    this.dealBusy = true;
    try {
      const a = await withSeat(v, (w) => must(api().tableDeal(JSON.stringify(w))), wholeView(this.d.call, v));
      this.cards(v);
      if (a.none) return;
      this.dealtAt = v.version;
      const req = { game: v.game, gameId: v.gameId, actionId: "deal-" + v.version, kind: "deal", version: 0, deal: JSON.parse(a["deal"] as string) };
      await this.acked(v, "act", req, await this.d.call("act", req));
      await this.d.refresh();
    } catch (e) {
      this.dealtAt = -1;
      this.d.say("Your part of the deal failed: " + refusal(e));
    } finally {
      this.dealBusy = false;
    }
  }

  /** ready gives the wasm the seat kept on this device, if any (a
   * reload at a finished table: for its cards and the record's check). */
  private async ready(v: TableView): Promise<void> {
    if (v.seat < 0) return;
    try {
      await withSeat(v, () => ({ ok: true }));
    } catch (e) {
      this.d.say("This seat's keys on this device could not be read: " + refusal(e));
    }
  }

  /** cards shows the seat's own cards, opened on this device. */
  private cards(v: TableView): void {
    const a = must(api().tableCards(v.gameId, this.d.uid));
    const cards = Object.values(JSON.parse(a["cards"] as string) as Record<string, number>);
    const el = byId("tg-trust-cards");
    const name = (c: number) => (v.game === "kuhn" ? kuhnCard(c) : v.game === "leduc" ? leducCard(c, v.seats.length) : String(c));
    const text = cards.length ? "Your card, opened on this device (nobody else knows it): " + cards.map(name).join(", ") : "The cards are being dealt: each page adds its own encryption.";
    if (el.textContent !== text) el.textContent = text;
    el.dataset.cards = cards.join(",");
    show(el, true);
    this.d.opened?.(cards);
  }

  /** judge fetches the finished table's record and judges it here, once. */
  private async judge(v: TableView): Promise<void> {
    const key = v.gameId + "@" + v.version;
    if (this.judgedKey === key) return;
    this.judgedKey = key;
    const end = byId("tg-trust-end");
    const list = byId("tg-trust-checks");
    replace(list, h("li", {}, "Checking…"));
    try {
      await this.ready(v);
      if (v.seat >= 0) this.acks.blame(api().tableBlame(JSON.stringify(v), this.d.ackKey ?? ""));
      const rec = await this.d.call<object>("exportGame", { game: v.game, gameId: v.gameId });
      const j = api().tableVerify(JSON.stringify(rec), v.gameId, this.d.uid);
      const lines = [
        j.status === "ok" ? "The record verifies: " + j.message : `The record does NOT verify (${j.status}): ${j.message}`,
      ];
      if (j.mine === "yes") lines.push("It holds the chain head and the key this page drew for your seat.");
      if (j.mine === "no") lines.push("It does NOT hold the chain head and the key this page drew for your seat.");
      replace(list, ...lines.map((l) => h("li", {}, l)));
      end.dataset.status = j.status;
      end.dataset.mine = j.mine;
    } catch (e) {
      replace(list, h("li", {}, "The record could not be fetched: " + refusal(e)));
      end.dataset.status = "unread";
      this.judgedKey = "";
    }
  }
}
