// A fair table with openings on its page (docs/fairness.md, "Openings at
// tables"; docs/play.md, "Fair tables"): a join sends only the commitment
// to this player's contribution (tablefair.ts, contributionCommitmentOf),
// the contribution itself, drawn in the browser, is kept on this device
// in IndexedDB (the seats store of trust.ts, key "open/uid/gameId", with
// strict durability before the join is sent: a reload finds it), and the
// page opens it by itself (act {kind: "open"}) once every seat is taken.
// The page says what it does, which seats have opened and the public
// deadline, and offers the abort once the deadline has passed.

import { byId, h, replace, show } from "./dom";
import { CallError } from "./backend";
import { refusal } from "./errors";
import { getRecord, putRecord } from "./trust";
import { contributionCommitmentOf, drawEntropy, type Sent } from "./tablefair";
import type { SeatNames, TableView } from "./tablewords";


/** Kept is a seat's contribution kept on this device: the seat it was
 * committed for, the contribution (64 hex digits), the commitment the
 * join sent, and the server's commitment the page saw before the join. */
export interface Kept {
  seat: number;
  entropyHex: string;
  entropyCommitmentHex: string;
  commitmentHex: string;
}

interface KeptRecord extends Kept {
  key: string;
}

function keptKey(uid: string, gameId: string): string {
  return "open/" + uid + "/" + gameId;
}

/** loadKept reads the contribution kept for the game, or null. */
export async function loadKept(uid: string, gameId: string): Promise<Kept | null> {
  const k = await getRecord<KeptRecord>(keptKey(uid, gameId));
  return k && typeof k.entropyHex === "string" && typeof k.seat === "number" ? k : null;
}

/** keep stores k; the promise resolves once the browser reports it on
 * disk (strict durability). */
function keep(uid: string, gameId: string, k: Kept): Promise<void> {
  const rec: KeptRecord = { key: keptKey(uid, gameId), ...k };
  return putRecord(rec);
}

/** commitAtJoin gives the entropyCommitment of this player's join at
 * seat (from 0): a contribution drawn now (crypto.getRandomValues), kept
 * before the commitment is returned, or the one kept already for the
 * same seat and server commitment (a join sent again). */
export async function commitAtJoin(uid: string, gameId: string, seat: number, commitmentHex: string): Promise<string> {
  const old = await loadKept(uid, gameId);
  if (old && old.seat === seat && old.commitmentHex === commitmentHex) return old.entropyCommitmentHex;
  const entropyHex = drawEntropy();
  const entropyCommitmentHex = await contributionCommitmentOf(gameId, seat, entropyHex);
  await keep(uid, gameId, { seat, entropyHex, entropyCommitmentHex, commitmentHex });
  return entropyCommitmentHex;
}

/** keptSent is what the end's checks compare (tablefair.ts): the kept
 * contribution and the server commitment seen, or null. */
export async function keptSent(uid: string, gameId: string): Promise<Sent | null> {
  const k = await loadKept(uid, gameId);
  return k ? { commitmentHex: k.commitmentHex, entropyHex: k.entropyHex } : null;
}

/** OpenDeps is what the openings' part of the page needs from it. */
export interface OpenDeps {
  uid: string;
  gameId: string;
  call<T>(fn: string, data: object): Promise<T>;
  newId(prefix: string): string;
  refresh(): Promise<void>;
}

/** OpenPage draws a fair table's openings and opens this seat's
 * contribution once every seat is taken. */
export class OpenPage {
  private busy = false;
  /** state is what the page did about its own opening: "" (nothing
   * yet), "opening", "opened", "refused" (with words and code) or
   * "missing" (no contribution kept here). */
  private state = "";
  private words = "";
  private code = "";
  /** refusedFor is the commitment an open was refused for: not sent
   * again by itself. */
  private refusedFor = "";
  private last: { v: TableView; name: SeatNames } | null = null;
  private timer = 0;

  constructor(private readonly d: OpenDeps) {
    byId("tg-open-abort").onclick = () => this.abort();
  }

  close(): void {
    window.clearTimeout(this.timer);
  }

  render(v: TableView, name: SeatNames): void {
    this.last = { v, name };
    const op = v.fairness?.openings;
    const box = byId("tg-open");
    show(box, !!op && v.phase === "lobby");
    if (!op || v.phase !== "lobby") {
      show(byId("tg-open-abort"), false);
      return;
    }
    const full = v.seats.every((s) => s.uid !== "");
    replace(
      byId("tg-open-seats"),
      ...v.seats.map((s, i) =>
        h(
          "li",
          { "data-seat": i, "data-opened": op.opened[i] ? "1" : "", class: i === v.seat ? "me" : undefined },
          `${s.uid ? name(i) : "Seat " + (i + 1) + " (free)"}: ` +
            (op.opened[i] ? "opened" : op.commitmentsHex[i] ? "committed, not opened yet" : "no commitment yet"),
        ),
      ),
    );
    const waiting = v.seats.map((_, i) => i).filter((i) => !op.opened[i]);
    const deadline = byId("tg-open-deadline");
    const passed = op.deadline > 0 && Date.now() > op.deadline;
    if (op.deadline > 0) {
      const left = Math.max(0, Math.ceil((op.deadline - Date.now()) / 1000));
      deadline.textContent =
        `Every seat must open by ${new Date(op.deadline).toLocaleTimeString()}` + (passed ? " (passed): the table can be ended, naming " + waiting.map(name).join(", ") + "." : ` (in ${left} s), the public deadline set by the first opening (${op.deadlineMs / 1000} s).`);
      deadline.dataset.deadline = String(op.deadline);
      window.clearTimeout(this.timer);
      if (!passed) this.timer = window.setTimeout(() => this.last && this.render(this.last.v, this.last.name), op.deadline - Date.now() + 100);
    } else {
      deadline.textContent = waiting.length ? `Once the first seat opens, every seat has ${op.deadlineMs / 1000} s to open.` : "";
      delete deadline.dataset.deadline;
    }
    show(byId("tg-open-abort"), passed && waiting.length > 0 && v.seat >= 0);
    const mine = v.seat >= 0 && op.opened[v.seat] === true;
    if (mine) this.state = "opened";
    if (!mine && v.seat >= 0 && full && !this.busy && this.refusedFor !== op.commitmentsHex[v.seat] && this.state !== "missing") void this.open(v);
    box.dataset.state = this.state;
    box.dataset.code = this.code;
    const others = waiting.filter((i) => i !== v.seat);
    const status = byId("tg-open-status");
    status.textContent =
      v.seat < 0
        ? full
          ? `Waiting for ${waiting.map(name).join(", ") || "nobody"} to open.`
          : "The seats' contributions are opened once every seat is taken."
        : !full
          ? "Your contribution is committed and kept in this browser. Once every seat is taken, your page opens it by itself."
          : this.state === "opening"
            ? "Every seat is taken: your page is opening your contribution…"
            : this.state === "refused"
              ? "Your contribution could not be opened: " + this.words
              : this.state === "missing"
                ? "This browser does not hold your contribution (it was drawn in another browser or device): your seat cannot open it here. Past the deadline the table ends, naming your seat."
                : mine
                  ? others.length
                    ? `Your contribution is opened. Waiting for ${others.map(name).join(", ")} to open theirs.`
                    : "Every seat has opened its contribution: the owner can start the game."
                  : "Every seat is taken: your page opens your contribution…";
  }

  /** open sends this seat's contribution, kept on this device, at the
   * version shown (again at the new version while another seat's opening
   * got in first, at most five times). */
  private async open(v: TableView): Promise<void> {
    this.busy = true;
    const commitment = v.fairness?.openings?.commitmentsHex[v.seat] ?? "";
    try {
      const k = await loadKept(this.d.uid, this.d.gameId);
      if (!k) {
        this.state = "missing";
        return;
      }
      this.state = "opening";
      this.rerender();
      let version = v.version;
      for (let tries = 0; ; tries++) {
        try {
          await this.d.call("act", { game: v.game, gameId: this.d.gameId, actionId: this.d.newId("o"), version, kind: "open", entropy: k.entropyHex });
          break;
        } catch (e) {
          const code = e instanceof CallError ? e.details?.code : "";
          if (code === "already_opened") break;
          if (code !== "stale_version" || tries >= 4) throw e;
          await this.d.refresh();
          const now = this.last?.v;
          if (!now || now.phase !== "lobby" || now.fairness?.openings?.opened[now.seat]) break;
          version = now.version;
        }
      }
      this.state = "opened";
    } catch (e) {
      this.state = "refused";
      this.words = refusal(e);
      this.code = e instanceof CallError ? e.details?.code ?? e.code : "";
      this.refusedFor = commitment;
    } finally {
      this.busy = false;
      this.rerender();
    }
    await this.d.refresh();
  }

  /** turn says what the table waits for while its seats open, or null. */
  turn(v: TableView): string | null {
    const op = v.fairness?.openings;
    if (!op || v.phase !== "lobby" || v.seats.some((s) => s.uid === "") || op.opened.every(Boolean)) return null;
    return "Every seat is taken: the seats open their contributions, then the owner starts the game.";
  }

  private rerender(): void {
    if (this.last) this.render(this.last.v, this.last.name);
  }

  /** abort asks the server to end the table whose openings are past
   * their deadline (any player may; the server aborts in its own name). */
  private abort(): void {
    show(byId("tg-open-abort"), false);
    void this.d.call("act", { game: this.last?.v.game, gameId: this.d.gameId, actionId: this.d.newId("x"), kind: "abort", version: 0 }).then(
      () => this.d.refresh(),
      (e) => (byId("tg-open-status").textContent = "The table could not be ended: " + refusal(e)),
    );
  }
}
