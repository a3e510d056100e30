// A table game's lobby form (docs/play.md, "Other games: the generic
// board"): the game choice with its modes, player count, seat and seat
// options, and the create that seats its creator (at a fair table with
// its contribution, at a trustless one with the seat drawn in the page's
// WebAssembly: tabletrust.ts; at a seeded one, where the server allows
// them, with the seed typed here, checked first: tableseed.ts).

import { byId, h, replace, show } from "./dom";
import type { Firestore } from "firebase/firestore";
import type { Engine, GameInfo } from "./engine";
import { saveSent } from "./tableend";
import { drawEntropy } from "./tablefair";
import { commitAtJoin } from "./tableopen";
import { joinFields } from "./tabletrust";
import { openFields } from "./spectate";
import { seedKey, seedProblem } from "./tableseed";
import { gameLabel, words, type TableView } from "./tablewords";

/** TableContext is what a table's page needs from the app. */
export interface TableContext {
  uid: string;
  /** call calls a function, sending the same request again while its
   * answer is lost. */
  call<T>(fn: string, data: object): Promise<T>;
  newId(prefix: string): string;
  info(game: string): GameInfo | undefined;
  /** db is the database to listen to, where the page has one. */
  db?: Firestore | undefined;
  /** ackKey is the server's acknowledgement key the page's
   * configuration pins, if any (config.ts). */
  ackKey?: string | undefined;
}

/** TableResult is the answer of createGame, joinGame, startGame and act. */
export interface TableResult {
  version: number;
  replayed: boolean;
}


export function fill(sel: HTMLSelectElement, options: [string, string][], want?: string): void {
  const keep = want ?? sel.value;
  replace(sel, ...options.map(([v, label]) => h("option", { value: v }, label)));
  if (options.some(([v]) => v === keep)) sel.value = keep;
}

function seatOptions(n: number): [string, string][] {
  return Array.from({ length: n }, (_, i) => [String(i), "Seat " + (i + 1)] as [string, string]);
}

/** optionSelects makes a labelled select per seat option of the game. */
export function optionSelects(box: HTMLElement, prefix: string, info: GameInfo): void {
  replace(
    box,
    ...info.seats.options.flatMap((o) => [
      h("label", { for: `${prefix}-${o.name}` }, capitalWords(o.name) + (o.doc ? ` (${o.doc})` : "")),
      (() => {
        const s = h("select", { id: `${prefix}-${o.name}`, "data-option": o.name });
        fill(s, o.values.map((x) => [x, x]));
        return s;
      })(),
    ]),
  );
  show(box, info.seats.options.length > 0);
}

function capitalWords(s: string): string {
  const w = words(s);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

export function chosenOptions(box: HTMLElement): Record<string, string> | undefined {
  const sels = Array.from(box.querySelectorAll<HTMLSelectElement>("select[data-option]"));
  if (sels.length === 0) return undefined;
  return Object.fromEntries(sels.map((s) => [s.dataset.option!, s.value]));
}

/** chosenGame is the game the lobby's create form names. */
export function chosenGame(): string {
  return byId<HTMLSelectElement>("create-game").value || "dungeon";
}

/** setupGameChoice fills the lobby's "Game" choice from the registry (the
 * dungeon first, the default) and shows, for the game chosen, its fields:
 * the dungeon's modes and classes, or a table game's player count, seat
 * and seat options, and its seeded mode where the server allows it
 * (allowSeeded: the page's configuration). */
export function setupGameChoice(engine: Engine, dungeonSeats: number, allowSeeded: boolean): void {
  const games = engine.games();
  const sel = byId<HTMLSelectElement>("create-game");
  fill(sel, games.map((g) => [g.name, gameLabel(g)]), "dungeon");
  const seats = byId<HTMLSelectElement>("create-seats");
  const seat = byId<HTMLSelectElement>("create-seat");
  const update = () => {
    const info = games.find((g) => g.name === sel.value);
    const dungeon = !info || info.name === "dungeon";
    for (const id of ["create-class-label", "create-class"]) show(byId(id), dungeon);
    // A table plays crypto or fair, trustless if its game allows it
    // (info.trustless), and seeded where the server allows it (the
    // dungeon's seeded games stay the CLI's and the API's).
    show(byId("create-mode-trustless"), dungeon || !!info?.trustless);
    show(byId("create-mode-seeded"), !dungeon && allowSeeded);
    const radio = (m: string) => document.querySelector<HTMLInputElement>(`input[name="mode"][value="${m}"]`);
    if (!dungeon && !info.trustless && radio("trustless")?.checked) radio("crypto")!.checked = true;
    if ((dungeon || !allowSeeded) && radio("seeded")?.checked) radio("crypto")!.checked = true;
    showModeFields();
    for (const id of ["create-seats-label", "create-seats"]) show(byId(id), !dungeon);
    if (dungeon) {
      fill(seat, seatOptions(dungeonSeats));
      show(byId("create-options"), false);
      return;
    }
    const counts: [string, string][] = [];
    for (let n = info.seats.min; n <= info.seats.max; n++) counts.push([String(n), `${n} players`]);
    fill(seats, counts, seats.dataset.game === info.name ? undefined : String(info.seats.default));
    seats.dataset.game = info.name;
    fill(seat, seatOptions(Number(seats.value)));
    optionSelects(byId("create-options"), "create-option", info);
  };
  sel.addEventListener("change", update);
  seats.addEventListener("change", update);
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name="mode"]')) r.addEventListener("change", showModeFields);
  update();
}

/** showModeFields offers the Openings choice for a fair table game (the
 * dungeon's page joins its fair games without), and the seed's field for
 * a seeded one. */
function showModeFields(): void {
  const checked = (m: string) => document.querySelector<HTMLInputElement>(`input[name="mode"][value="${m}"]`)?.checked ?? false;
  const table = chosenGame() !== "dungeon";
  show(byId("create-openings-label"), table && checked("fair"));
  for (const id of ["create-seed-label", "create-seed"]) show(byId(id), table && checked("seeded"));
}

/** createTable creates a table of the game chosen in the lobby, in the
 * mode chosen (crypto: the server's generator; fair: the server commits
 * to its seed; trustless: the seats' chains), seats its creator and opens
 * it. At a fair table the
 * creator's contribution is drawn after the page has read the
 * commitment, and kept with it (tableend.ts, saveSent); with openings
 * (the form's choice) the join sends only the commitment to it, the
 * contribution kept on this device (tableopen.ts). A seeded table's seed
 * is checked before anything is sent (an empty or over-long one throws,
 * in words) and kept on this device for the end's check (tableend.ts). */
export async function createTable(ctx: TableContext, game: string, mode: string): Promise<void> {
  const gameId = ctx.newId("g");
  const seats = Number(byId<HTMLSelectElement>("create-seats").value);
  const seat = Number(byId<HTMLSelectElement>("create-seat").value);
  const openings = mode === "fair" && byId<HTMLInputElement>("create-openings").checked;
  const seeded: Record<string, string> = {};
  if (mode === "seeded") {
    const field = byId<HTMLInputElement>("create-seed");
    const seed = field.value;
    const problem = seedProblem(seed);
    field.setAttribute("aria-invalid", String(!!problem));
    if (problem) {
      field.focus(); // the words are the lobby's error line (role alert)
      throw new Error(problem);
    }
    localStorage.setItem(seedKey(ctx.uid, gameId), seed);
    seeded["seed"] = seed;
  }
  const created = await ctx.call<TableResult>("createGame", { game, gameId, actionId: ctx.newId("c"), mode, seats, ...(openings ? { openings } : {}), ...seeded, ...openFields() });
  const options = chosenOptions(byId("create-options"));
  const join: Record<string, unknown> = { game, gameId, actionId: ctx.newId("j"), version: created.version, seat, ...(options ? { options } : {}) };
  if (openings) join["entropyCommitment"] = await commitAtJoin(ctx.uid, gameId, seat, await serverCommitment(ctx, game, gameId));
  else if (mode === "fair") join["entropy"] = await fairEntropy(ctx, game, gameId);
  if (mode === "trustless") {
    const t = await joinFields(ctx.call, game, gameId, ctx.uid, seat);
    Object.assign(join, t.fields, { version: t.version });
  }
  await ctx.call<TableResult>("joinGame", join);
  location.hash = "game=" + gameId;
}

/** serverCommitment reads a fair table's commitment to its server seed. */
async function serverCommitment(ctx: TableContext, game: string, gameId: string): Promise<string> {
  const v = await ctx.call<TableView>("getView", { game, gameId });
  const commitmentHex = v.fairness?.commitmentHex;
  if (!commitmentHex) throw new Error("the fair table shows no commitment: not joining it");
  return commitmentHex;
}

/** fairEntropy reads a fair table's commitment, draws this player's
 * contribution and keeps both (before the join sends it). */
async function fairEntropy(ctx: TableContext, game: string, gameId: string): Promise<string> {
  const commitmentHex = await serverCommitment(ctx, game, gameId);
  const entropyHex = drawEntropy();
  saveSent(ctx.uid, gameId, { commitmentHex, entropyHex });
  return entropyHex;
}

