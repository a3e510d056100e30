// A table game's fairness on its page and its end: the fair table's
// commitment in play, its reveal checked at the end against what this
// device saw and sent (tablefair.ts); a seeded table said to be one, and
// its record checked at the end, its seed against the one this device
// typed (tableseed.ts); a crypto or fair table's record checked at the
// end against what the page showed (tablerecord.ts); and the game's
// record offered as a download for the verifier page (/verify/) or
// gamectl verify.

import { byId, h, replace, show } from "./dom";
import { refusal } from "./errors";
import { check, checkLines, ok, sentKey, short, type Sent, type TableFairness } from "./tablefair";
import { keptSent } from "./tableopen";
import { publishedDecks, recordCheck, recordLines, recordOK, type PlainRecord } from "./tablerecord";
import { seedCheck, seedKey, seedLines, seedOK, type SeededRecord } from "./tableseed";
import { judgeRecord } from "./tabletrust";
import type { SeatNames, TableEvent, TableView } from "./tablewords";

/** loadSent returns what this device saw and sent at its join of the
 * game, if it kept it. */
export function loadSent(uid: string, gameId: string): Sent | null {
  try {
    const raw = localStorage.getItem(sentKey(uid, gameId));
    const s = raw ? (JSON.parse(raw) as Sent) : null;
    return s && typeof s.commitmentHex === "string" && typeof s.entropyHex === "string" ? s : null;
  } catch {
    return null;
  }
}

/** saveSent keeps what this device saw and sends at its join, before it
 * sends it. */
export function saveSent(uid: string, gameId: string, s: Sent): void {
  localStorage.setItem(sentKey(uid, gameId), JSON.stringify(s));
}

/** FairView draws a fair table's part of the page: the commitment line
 * from the create on, the join form's note, and at the end the reveal
 * with the checks made here (once per reveal). */
export class FairView {
  private checked = "";

  constructor(
    private readonly uid: string,
    private readonly gameId: string,
  ) {}

  render(v: TableView, name: SeatNames): void {
    const f = v.fairness;
    const line = byId("tg-fair");
    show(line, !!f);
    show(byId("tg-entropy-note"), !!f && !f.openings && v.phase === "lobby" && v.seat < 0);
    show(byId("tg-commit-note"), !!f?.openings && v.phase === "lobby" && v.seat < 0);
    const end = byId("tg-fair-end");
    if (!f) {
      show(end, false);
      return;
    }
    const text = `Fair game${f.openings ? " with openings" : ""}: commitment ${short(f.commitmentHex)}`;
    if (line.textContent !== text) line.textContent = text;
    line.title = f.commitmentHex;
    line.dataset.commitment = f.commitmentHex;
    const revealed = v.phase === "finished" && !!f.serverSeedHex;
    show(end, revealed);
    if (!revealed) return;
    const key = JSON.stringify([f, v.seat]);
    if (key === this.checked) return;
    this.checked = key;
    void this.reveal(v, f, name, key);
  }

  /** reveal shows the reveal and its checks: against what this device
   * kept (localStorage at a fair table's join, IndexedDB at one with
   * openings: tableopen.ts). */
  private async reveal(v: TableView, f: TableFairness, name: SeatNames, key: string): Promise<void> {
    const end = byId("tg-fair-end");
    const checks = byId("tg-fair-checks");
    replace(checks, h("li", {}, "Checking…"));
    try {
      const sent = loadSent(this.uid, this.gameId) ?? (f.openings ? await keptSent(this.uid, this.gameId) : null);
      if (this.checked !== key) return;
      replace(byId("tg-fair-seed"), "The server's seed, revealed: ", h("code", {}, f.serverSeedHex ?? ""));
      replace(
        byId("tg-fair-contributions"),
        ...(f.contributionsHex ?? []).map((c, i) =>
          h(
            "li",
            { class: i === v.seat ? "me" : undefined, "data-seat": i },
            `${name(i)}: `,
            c ? h("code", {}, c) : "none",
            i === v.seat ? (sent ? " (yours)" : " (yours; this device did not keep what it sent)") : "",
          ),
        ),
      );
      const c = await check(f, v.seat, sent, v.gameId);
      if (this.checked !== key) return;
      replace(checks, ...checkLines(c, name).map((l) => h("li", {}, l)));
      end.dataset.ok = ok(c) ? "yes" : "no";
      end.dataset.opens = String(c.opens);
      end.dataset.mine = String(c.mine);
      end.dataset.openings = String(c.openings);
    } catch (e) {
      replace(checks, h("li", {}, "The reveal could not be checked: " + String(e)));
      end.dataset.ok = "no";
    }
  }
}

/** SeededView draws a seeded table's part of the page: the line that
 * says so from the create on (with the seed, on the device that typed
 * it), and at the end the record fetched and checked here (every move and
 * draw replayed from the record's seed, in the page's WebAssembly) with
 * its seed against the one this device kept, once per version. */
export class SeededView {
  private checked = "";

  constructor(
    private readonly uid: string,
    private readonly gameId: string,
    private readonly call: <T>(fn: string, data: object) => Promise<T>,
  ) {}

  /** kept is the seed this device sent at the create, if it is the
   * creator's and kept it. */
  private kept(): string | null {
    try {
      return localStorage.getItem(seedKey(this.uid, this.gameId));
    } catch {
      return null;
    }
  }

  render(v: TableView): void {
    const seeded = v.mode === "seeded";
    const line = byId("tg-seeded");
    show(line, seeded);
    const end = byId("tg-seed-end");
    show(end, seeded && v.phase === "finished");
    if (!seeded) return;
    const kept = this.kept();
    const text =
      "Seeded table, for development: every die and card follows from a seed its creator chose, so the game can be replayed, " +
      "and whoever knows the seed can foresee them all. The record names the seed at the end." +
      (kept !== null ? ` Your seed: “${kept}” (kept in this browser).` : "");
    if (line.textContent !== text) line.textContent = text;
    line.dataset.seed = kept ?? "";
    if (v.phase !== "finished") return;
    const key = v.gameId + "@" + v.version;
    if (key === this.checked) return;
    this.checked = key;
    void this.check(v, kept, key);
  }

  /** check fetches the finished table's record and checks it here. */
  private async check(v: TableView, kept: string | null, key: string): Promise<void> {
    const end = byId("tg-seed-end");
    const list = byId("tg-seed-checks");
    replace(list, h("li", {}, "Checking…"));
    try {
      const rec = await this.call<SeededRecord>("exportGame", { game: v.game, gameId: v.gameId });
      const j = judgeRecord(rec, v.gameId, this.uid);
      if (this.checked !== key) return;
      const c = seedCheck(rec, j.status, kept);
      replace(list, ...seedLines(c, j.message).map((l) => h("li", {}, l)));
      end.dataset.status = j.status;
      end.dataset.ok = seedOK(c) ? "yes" : "no";
      end.dataset.mine = c.mine === null ? "" : String(c.mine);
    } catch (e) {
      replace(list, h("li", {}, "The record could not be fetched: " + refusal(e)));
      end.dataset.status = "unread";
      this.checked = "";
    }
  }
}

/** RecordView checks a finished crypto or fair table's record on the
 * page (tablerecord.ts): fetched with exportGame, replayed in the page's
 * WebAssembly, read against what the page showed (the view, and the
 * whole log the page gathered: a view may carry only the events since
 * the page's last), once per version. A table abandoned by its owner has
 * no game to check. */
export class RecordView {
  private checked = "";

  constructor(
    private readonly uid: string,
    private readonly call: <T>(fn: string, data: object) => Promise<T>,
  ) {}

  render(v: TableView, log: Iterable<TableEvent>): void {
    const on = (v.mode === "crypto" || v.mode === "fair") && v.phase === "finished" && !!v.outcome && !v.outcome.abandoned;
    show(byId("tg-record-end"), on);
    if (!on) return;
    const key = v.gameId + "@" + v.version;
    if (key === this.checked) return;
    this.checked = key;
    const decks = publishedDecks([...log].sort((a, b) => a.seq - b.seq));
    void this.check(v, decks, key);
  }

  private async check(v: TableView, decks: string[], key: string): Promise<void> {
    const end = byId("tg-record-end");
    const list = byId("tg-record-checks");
    replace(list, h("li", {}, "Checking…"));
    end.dataset.status = "";
    end.dataset.ok = "";
    try {
      const rec = await this.call<PlainRecord>("exportGame", { game: v.game, gameId: v.gameId });
      const j = judgeRecord(rec, v.gameId, this.uid);
      if (this.checked !== key) return;
      const c = recordCheck(rec, j.status, {
        game: v.game, mode: v.mode, seats: v.seats.length, rules: v.rules, commitmentHex: v.fairness?.commitmentHex,
        decks,
      });
      replace(list, ...recordLines(c, j.message).map((l) => h("li", {}, l)));
      end.dataset.status = j.status;
      end.dataset.ok = recordOK(c) ? "yes" : "no";
    } catch (e) {
      if (this.checked !== key) return;
      replace(list, h("li", {}, "The record could not be fetched: " + refusal(e)));
      end.dataset.status = "unread";
      this.checked = "";
    }
  }
}

/** downloadRecord fetches the finished game's record (exportGame:
 * fairboard-game/v1) and offers it as a file, named by the game and its
 * id. */
export async function downloadRecord(call: <T>(fn: string, data: object) => Promise<T>, v: TableView): Promise<void> {
  const status = byId("tg-record-status");
  status.textContent = "Fetching the game's record…";
  try {
    const rec = await call<object>("exportGame", { game: v.game, gameId: v.gameId });
    const file = `${v.game}-${v.gameId}.json`;
    const url = URL.createObjectURL(new Blob([JSON.stringify(rec, null, 1) + "\n"], { type: "application/json" }));
    const a = h("a", { href: url, download: file, hidden: true });
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = `Saved as ${file}: drop it on the verifier page to check the game.`;
    status.dataset.file = file;
  } catch (e) {
    status.textContent = "The record could not be fetched: " + refusal(e);
  }
}
