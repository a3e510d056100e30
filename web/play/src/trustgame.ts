// One player's seat in a trustless game, in this page: it follows the
// steps of the dungeon's Go client (package dungeonclient): the seat's secrets are drawn
// and stored before the join is sent; every action is signed; after each
// thing the server shows, checked by the engine (play.wasm: the CLI's
// player.Follower, CheckShown and CheckMarks), the page reveals the link
// the checked game waits for, storing the index and digest before the
// link leaves. docs/play.md, "Trustless games".

import { CallError } from "./backend";
import { fromHex, type Engine } from "./engine";
import { anotherTabsProgress, decide, sameAction, StaleSeat } from "./seatact";
import { load, newSeat, save, secretsOf, sign, signAction, withSeatLock, keyKind, type SeatRecord } from "./trust";
import type { Action, Mark, Public, Result } from "./types";

/** SEAT_GUARD is defined true by the build (web/play/bundle.Args): a
 * reveal the round's markers show, or the seat's record holds as
 * acknowledged, is not sent again. Only the broken variant a test builds
 * to show that its check catches a second reveal of an index (the
 * positive control) goes without. */
declare const SEAT_GUARD: boolean;

/** Where this seat's secrets are. */
export type KeyPlace = "loading" | "here" | "elsewhere" | "none";

/** refusals of a reveal that say the round moved on: the next state shows
 * where the game is (as client.sendReveal). */
const revealMovedOn = ["wrong_index", "deadline_passed", "game_over", "already_revealed"];

export interface TrustDeps {
  engine: Engine;
  uid: string;
  gameId: string;
  /** call sends a request, again with the same data while its answer is
   * lost. */
  call<T>(fn: string, data: Record<string, unknown>): Promise<T>;
  /** lie reports what the server showed that the log does not make. */
  lie(what: string): void;
  /** changed asks the page to draw again. */
  changed(): void;
  /** status says what the seat is doing, or a refusal. */
  status(text: string): void;
  /** refresh asks the page to read the game again (a reveal the server
   * answered as moved on: another tab revealed, or the round is over). */
  refresh(): void;
}

/** ActHooks is what act needs of the page for one click. */
export interface ActHooks {
  /** signed is told of the request about to leave (kept for a reload). */
  signed(req: Record<string, unknown>): void;
  /** send sends it, again with the same data while its answer is lost. */
  send(fn: string, req: Record<string, unknown>): Promise<Result>;
  /** refresh reads the game again (getView): the fresh board. */
  refresh(): Promise<void>;
  /** board is the game as the page now shows it. */
  board(): Public | null;
  /** legal says whether a is among the actions offered on the board. */
  legal(a: Action): boolean;
}

/** ActOutcome: the answer of the action this tab sent, or none when
 * another tab of the seat had moved first (otherTab: the board shows the
 * game as it is). */
export interface ActOutcome {
  result?: Result;
  otherTab: boolean;
  /** retried counts the new actions sent after another tab's progress. */
  retried: number;
}

export class TrustSeat {
  place: KeyPlace = "loading";
  rec: SeatRecord | null = null;
  marks: Mark[] = [];
  /** revealsSent counts the reveal calls this page sent. */
  revealsSent = 0;
  /** engineAt is the last index and digest the engine's seat holds
   * ("revealed/digest"; "" to make it again from the record). */
  private engineAt = "";
  /** tab names this page among the seat's tabs (the record's signedBy). */
  private readonly tab = crypto.randomUUID();
  private busy = false;
  private again = false;
  private latest: Public | null = null;

  constructor(private readonly d: TrustDeps) {}

  /** init reads the seat's record from IndexedDB and gives the engine its
   * secrets; a seated player without one plays on another device. */
  async init(): Promise<void> {
    const rec = await load(this.d.uid, this.d.gameId);
    if (rec) this.take(rec);
    this.place = rec ? "here" : "none";
    this.d.changed();
  }

  /** seen is told of each state: a seated player whose secrets are not
   * here is marked as playing elsewhere. */
  seen(p: Public): void {
    this.latest = p;
    if (this.place === "none" && p.trustless?.seats?.some((s) => s.uid === this.d.uid)) {
      this.place = "elsewhere";
      this.d.changed();
    }
    void this.revealIfDue();
  }

  setMarks(ms: Mark[]): void {
    this.marks = ms;
    void this.revealIfDue();
  }

  /** take gives the engine's seat the record rec as read inside the
   * lock, unless it holds that index and digest already: another tab may
   * have revealed since this one last looked, and a copy from before
   * would check the next index against a stale one. */
  private take(rec: SeatRecord): void {
    this.rec = rec;
    const at = rec.revealed + "/" + rec.digest;
    if (at !== this.engineAt) {
      this.engineAt = "";
      this.d.engine.seat(secretsOf(rec));
      this.engineAt = at;
    }
  }

  /** keyNote says where the seat's key is, for the page. */
  keyNote(): string {
    switch (this.place) {
      case "here":
        return "Your seat's secrets are kept in this browser (IndexedDB): the chain's secret and " + keyKind(this.rec!) + ".";
      case "elsewhere":
        return "This seat's key is on another device: this page cannot sign or reveal for it, and never will. Play this seat where you joined the game.";
      default:
        return "";
    }
  }

  /** join draws the seat's chain and key, stores them (strict
   * durability), and only then sends the signed join, against the
   * version read (again against a newer one if another join came first). */
  async join(p: Public, seat: number, cls: string): Promise<void> {
    const t = p.trustless!;
    await withSeatLock(this.d.uid, this.d.gameId, async () => {
      let rec = await load(this.d.uid, this.d.gameId);
      if (!rec || rec.seat !== seat) {
        rec = await newSeat(this.d.engine, this.d.gameId, this.d.uid, seat, t.chainLength);
        await save(rec);
      }
      this.engineAt = "";
      this.take(rec);
      this.place = "here";
      let version = p.version;
      for (let tries = 0; ; tries++) {
        const head = this.d.engine.seat(secretsOf(rec));
        const a = { kind: "join", actor: this.d.uid, version, seat, class: cls, chainHead: head, publicKey: rec.publicKey };
        const signature = await signAction(this.d.engine, rec, a);
        try {
          await this.d.call("joinGame", { gameId: this.d.gameId, actionId: "join-" + version, seat, class: cls, chainHead: head, publicKey: rec.publicKey, version, signature });
          return;
        } catch (e) {
          if (e instanceof CallError && e.details?.code === "stale_version" && tries < 10) {
            const v = await this.d.call<{ state: Public }>("getView", { gameId: this.d.gameId, afterSeq: 0 });
            version = v.state.version;
            continue;
          }
          throw e;
        }
      }
    });
    this.d.changed();
  }

  /** act makes this seat's action a, clicked on the board p, holding
   * the seat's Web Lock from the read of its record to the answer: the
   * record is read inside the lock (never a copy from before: another tab
   * may have signed or revealed since), the action prepared from it,
   * stored, sent and answered before another tab of the seat can act. A
   * refusal that another tab's progress explains (seatact.ts) is followed
   * by a fresh read of the record and of the game: the click is sent
   * again as a new action (its action id names the new version) while it
   * is legal, or the tab just shows the board (otherTab). */
  act(p: Public, a: Action, fn: string, data: Record<string, unknown>, h: ActHooks): Promise<ActOutcome> {
    return withSeatLock(this.d.uid, this.d.gameId, async () => {
      let board = p;
      for (let tries = 0; ; tries++) {
        const rec = await load(this.d.uid, this.d.gameId);
        if (!rec) throw new Error("this seat's key is on another device");
        try {
          const { req, mine } = await this.prepare(rec, board, a, fn, data);
          h.signed(req);
          const result = await h.send(fn, req);
          if (tries > 0) document.body.dataset.tabRetries = String(+(document.body.dataset.tabRetries ?? 0) + 1);
          return { result, otherTab: !mine && result.replayed, retried: tries };
        } catch (e) {
          this.engineAt = ""; // made again from the record at the next action
          if (!anotherTabsProgress(e)) throw e;
          await h.refresh().catch(() => undefined); // unread, the board as it was: the record still guards
          const fresh = await load(this.d.uid, this.d.gameId);
          const d = decide(e, {
            at: board.version,
            signedAt: fresh?.signedVersion ?? 0,
            sameAction: sameAction(fresh?.signedAction, fn, data),
            legalNow: h.legal(a),
            tries,
          });
          if (d === "shown") return { otherTab: true, retried: tries };
          if (d === "refused") throw e;
          board = h.board() ?? board;
        }
      }
    });
  }

  /** prepare signs the seat's action a against the version the board p
   * shows, from the record rec read inside the lock, and returns the
   * request to send (its action id names the version, so a retry of a
   * lost answer is the same action) and whether this tab signed it. One
   * action per version: if the record holds this very action at this
   * version (another tab's, or this tab's before a reload), it is sent
   * again unchanged; another action at or after it is refused here
   * (StaleSeat). An action that draws goes with this seat's reveal for
   * the index it will use (as the Go client sends it: docs/fairness.md,
   * "An action with its reveal"), the index, digest and request stored
   * before anything leaves: the round then waits for the other seats
   * only, and since the link has left with this action, the stored
   * request is the only one this seat sends at this version. */
  private async prepare(rec: SeatRecord, p: Public, a: Action, fn: string, data: Record<string, unknown>): Promise<{ req: Record<string, unknown>; mine: boolean }> {
    const body: Record<string, unknown> = { ...data, actionId: "v" + p.version, version: p.version };
    if ((rec.signedVersion ?? 0) >= p.version) {
      if (rec.signedVersion === p.version && rec.signedAction && sameAction(rec.signedAction, fn, body)) {
        return { req: rec.signedAction.data, mine: rec.signedBy === this.tab };
      }
      throw new StaleSeat(rec.signedVersion ?? 0, p.version);
    }
    this.take(rec);
    const signed: Action & { version: number } = { ...a, actor: this.d.uid, version: p.version };
    const signature = await signAction(this.d.engine, rec, signed);
    const out: Record<string, unknown> = { ...body, signature };
    const r = fn === "act" ? this.d.engine.actReveal({ ...signed, signature }) : null;
    if (r) {
      this.engineAt = ""; // the engine's seat recorded r's index: the record must too
      const rv = r.action;
      const rs = await sign(this.d.engine, rec, fromHex(r.message));
      out["reveal"] = { seat: rv.seat, index: rv.index, link: rv.link, digest: rv.digest, transcript: rv.transcript, signature: rs };
      rec.revealed = r.index;
      rec.digest = r.digest;
      rec.reveal = { gameId: this.d.gameId, actionId: "reveal-" + rv.index, seat: rv.seat, index: rv.index, link: rv.link, digest: rv.digest, transcript: rv.transcript, signature: rs };
      rec.acked = false;
    }
    rec.signedVersion = p.version;
    rec.signedAction = { fn, data: out };
    rec.signedBy = this.tab;
    await save(rec); // the index, digest and link on disk before the link leaves
    this.rec = rec;
    this.engineAt = rec.revealed + "/" + rec.digest; // what the engine's seat holds now
    return { req: out, mine: true };
  }

  /** revealIfDue reveals the link the checked game waits for from this
   * seat, once per index, holding the seat's lock: a reveal stored and
   * not acknowledged is sent again unchanged (same action id: the server
   * answers it as the first time); one acknowledged is not sent again. */
  async revealIfDue(): Promise<void> {
    if (this.place !== "here") return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        await this.revealOnce();
      } while (this.again);
    } catch (e) {
      this.d.status("The reveal failed: " + (e instanceof Error ? e.message : String(e)) + " It is sent again in a few seconds.");
    } finally {
      this.busy = false;
    }
  }

  /** resync looks again at what the seat owes when nothing came for a
   * while (as the Go client's Play does every 5 s): a reveal whose call
   * failed, or a state read before its events, is taken up again. */
  resync(): void {
    const p = this.latest;
    if (p?.trustless?.pending && p.phase !== "finished") void this.revealIfDue();
  }

  private async revealOnce(): Promise<void> {
    const p = this.latest;
    const pd = p?.trustless?.pending;
    if (!p || !pd || p.phase === "finished" || this.d.engine.problem()) return;
    const shown = this.marks.some((m) => m.index === pd.index && m.uid === this.d.uid) || (pd.reveals ?? []).some((r) => r.uid === this.d.uid);
    if (SEAT_GUARD && shown) return; // revealed: by a reveal, or with its action
    let movedOn = false;
    await withSeatLock(this.d.uid, this.d.gameId, async () => {
      // The record as it is inside the lock: another tab may have
      // revealed since this one last looked.
      const rec = await load(this.d.uid, this.d.gameId);
      if (!rec || rec.revealed > pd.index) return; // another tab revealed past this board: the next state shows it
      this.take(rec);
      let req = rec.reveal;
      if (rec.revealed === pd.index) {
        if (rec.digest !== pd.digest) {
          this.d.lie(`index ${pd.index} was revealed for the action of digest ${rec.digest}; the server now shows ${pd.digest} pending there`);
          return;
        }
        if ((SEAT_GUARD && rec.acked) || !req) return;
      } else {
        let r;
        try {
          r = this.d.engine.reveal();
        } catch (e) {
          this.d.lie(e instanceof Error ? e.message : String(e));
          return;
        }
        if (!r) return;
        this.engineAt = ""; // the engine's seat recorded r's index: the record must too
        const signature = await sign(this.d.engine, rec, fromHex(r.message));
        const a = r.action;
        req = { gameId: this.d.gameId, actionId: "reveal-" + a.index, seat: a.seat, index: a.index, link: a.link, digest: a.digest, transcript: a.transcript, signature };
        rec.revealed = r.index;
        rec.digest = r.digest;
        rec.reveal = req;
        rec.acked = false;
        await save(rec); // the index, digest and link on disk before the link leaves
        this.engineAt = rec.revealed + "/" + rec.digest;
      }
      this.revealsSent++;
      document.body.dataset.revealsSent = String(this.revealsSent);
      try {
        await this.d.call("reveal", req);
      } catch (e) {
        if (!(e instanceof CallError && revealMovedOn.includes(e.details?.code ?? ""))) throw e;
        movedOn = true; // another tab revealed it, or the round is over
      }
      rec.acked = true;
      await save(rec);
    });
    if (movedOn) this.d.refresh(); // a fresh read of the game shows where it is
  }

}
