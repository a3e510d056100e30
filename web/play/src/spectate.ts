// Open games, spectators and rematches on the page (docs/play.md, "Open
// games, spectators and rematches"): the lobby's live list of public games,
// the create form's visibility, a spectator's polling, and the rematch
// button with the join into the rotated seat that follows it.

import { byId, h, replace, show } from "./dom";
import { CallError } from "./backend";
import { refusal } from "./errors";
import { commitAtJoin } from "./tableopen";
import { joinAt } from "./tabletrust";
import type { TableView } from "./tablewords";

/** Call calls a function (sending it again while its answer is lost). */
type Call = <T>(fn: string, data: object) => Promise<T>;

/** OpenGame is one game of listOpenGames' answer. */
export interface OpenGame {
  gameId: string;
  game: string;
  ownerName: string;
  mode: string;
  seats: number;
  taken: number;
  spectators: boolean;
  createdAt: number;
}

/** RematchResult is rematch's answer: the new game and the caller's seat. */
export interface RematchResult {
  gameId: string;
  game: string;
  mode: string;
  seat: number;
  class?: string;
  keepSmokeBomb?: boolean;
  options?: Record<string, string>;
}

/** openFields are the create form's visibility fields for createGame. */
export function openFields(): { visibility?: string; spectators?: boolean } {
  const v = (document.querySelector('input[name="visibility"]:checked') as HTMLInputElement | null)?.value ?? "link";
  const spectators = byId<HTMLInputElement>("create-spectators").checked;
  return { ...(v === "public" ? { visibility: "public" } : {}), ...(spectators ? { spectators: true } : {}) };
}

/** setupVisibility wires the create form's visibility (a public game is
 * open to spectators: the box says so). */
export function setupVisibility(): void {
  const box = byId<HTMLInputElement>("create-spectators");
  const sync = () => {
    const pub = (document.querySelector('input[name="visibility"]:checked') as HTMLInputElement | null)?.value === "public";
    if (pub) box.checked = true;
    box.disabled = pub;
  };
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name="visibility"]')) r.addEventListener("change", sync);
  sync();
}

/** ago says how long ago a time (unix ms) was, roughly. */
function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return m === 1 ? "1 minute ago" : `${m} minutes ago`;
  const hr = Math.round(m / 60);
  return hr === 1 ? "1 hour ago" : `${hr} hours ago`;
}

/** LOBBY_MS is how often the lobby reads the open games again while it
 * shows (and the page is in the foreground). */
export const LOBBY_MS = 3000;

/** OpenGamesList keeps the lobby's list of open games live: read when
 * the lobby shows, every LOBBY_MS while it shows and the page is in the
 * foreground, at once when the page comes back to the foreground, and
 * on "Refresh the list"; redrawn only when what it says changed, the
 * focus kept on the same game's Join button. */
export class OpenGamesList {
  private timer = 0;
  private busy = false;
  private shownKey = "";
  private readonly onVisible = () => {
    if (!document.hidden) void this.load(false);
  };

  constructor(
    private readonly call: Call,
    private readonly label: (game: string) => string,
  ) {
    byId("open-games-refresh").addEventListener("click", () => void this.load(true));
  }

  /** start reads the list now and keeps it live until stop. */
  start(): void {
    this.stop();
    this.shownKey = "";
    void this.load(true);
    this.timer = window.setInterval(() => {
      if (!document.hidden) void this.load(false);
    }, LOBBY_MS);
    document.addEventListener("visibilitychange", this.onVisible);
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.timer = 0;
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  /** load reads listOpenGames and shows it (asked: the player or the
   * lobby's opening asked, and the status says it is reading). */
  private async load(asked: boolean): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await loadOpenGames(this.call, this.label, asked, this);
    } finally {
      this.busy = false;
    }
  }

  /** changed says whether key differs from what is shown, and keeps it. */
  changed(key: string): boolean {
    if (key === this.shownKey) return false;
    this.shownKey = key;
    return true;
  }
}

/** loadOpenGames reads listOpenGames and shows each game with a Join
 * button (which opens the game: its page offers the free seats). */
async function loadOpenGames(call: Call, label: (game: string) => string, asked: boolean, shown: { changed(key: string): boolean }): Promise<void> {
  const status = byId("open-games-status");
  const list = byId("open-games-list");
  if (asked) status.textContent = "Reading the open games…";
  let games: OpenGame[];
  try {
    games = (await call<{ games: OpenGame[] }>("listOpenGames", {})).games ?? [];
  } catch (e) {
    status.textContent = "The open games could not be read: " + refusal(e);
    shown.changed("");
    return;
  }
  status.textContent = games.length
    ? `${games.length} public ${games.length === 1 ? "game waits" : "games wait"} for players.`
    : "No public game waits for players. Create one, and choose “Public” to list it here.";
  // Redrawn when a game, its seats or its owner's name changed, or its
  // age in words did.
  if (!shown.changed(JSON.stringify(games.map((g) => [g.gameId, g.ownerName, g.taken, g.seats, ago(g.createdAt)])))) return;
  const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>("#open-games-list li")?.dataset.gameId;
  replace(
    list,
    ...games.map((g) => {
      const free = g.seats - g.taken;
      // Names are untrusted text: h() puts them in as text, never HTML.
      return h(
        "li",
        { "data-game-id": g.gameId },
        h(
          "span",
          { class: "what" },
          `${label(g.game)} · ${g.ownerName}'s game`,
          h("span", { class: "more" }, `${g.taken} of ${g.seats} seats taken, ${free} free · ${g.mode} · created ${ago(g.createdAt)}`),
        ),
        join(g, label),
      );
    }),
  );
  if (focused) list.querySelector<HTMLElement>(`li[data-game-id="${CSS.escape(focused)}"] button`)?.focus();
  list.dataset.games = String(games.length);
}

/** join is a listed game's Join button: it opens the game, whose page
 * offers its free seats. */
function join(g: OpenGame, label: (game: string) => string): HTMLButtonElement {
  const b = h("button", { type: "button", class: "primary", "aria-label": `Join ${g.ownerName}'s ${label(g.game)} game` }, "Join");
  b.addEventListener("click", () => (location.hash = "game=" + g.gameId));
  return b;
}

/** rematchKey keeps, for the new game, the seat (and class or options)
 * the rematch gave this player, until its page joins it. */
export function rematchKey(gameId: string): string {
  return "fairboard.rematch." + gameId;
}

/** askRematch asks for the rematch of a finished game, keeps the seat it
 * gives, and opens the new game (whose page joins it). */
export async function askRematch(call: Call, gameId: string, game: string, status: HTMLElement): Promise<void> {
  status.textContent = "Asking for the rematch…";
  try {
    const r = await call<RematchResult>("rematch", { ...(game !== "dungeon" ? { game } : {}), gameId });
    sessionStorage.setItem(rematchKey(r.gameId), JSON.stringify(r));
    status.textContent = "";
    location.hash = "game=" + r.gameId;
  } catch (e) {
    status.textContent = "The rematch could not be made: " + refusal(e);
  }
}

/** takeRematch returns (and forgets) the seat a rematch kept for this
 * player in gameId, if any. */
export function takeRematch(gameId: string): RematchResult | null {
  const raw = sessionStorage.getItem(rematchKey(gameId));
  if (!raw) return null;
  sessionStorage.removeItem(rematchKey(gameId));
  return JSON.parse(raw) as RematchResult;
}

/** showRematch shows the Rematch button to a seated player at the end. */
export function showRematch(id: string, seated: boolean, finished: boolean): void {
  show(byId(id), seated && finished);
}

/** Poller reads a game the page cannot listen to (a spectator's: the
 * rules let only seated players read it) every second, every fifth
 * second while the tab is hidden, until stopped. */
export class Poller {
  private timer = 0;
  private ticks = 0;
  private busy = false;

  constructor(private readonly read: () => Promise<void>) {}

  start(): void {
    if (this.timer) return;
    this.timer = window.setInterval(() => {
      if (this.busy || (document.hidden && ++this.ticks % 5 !== 0)) return;
      this.busy = true;
      void this.read()
        .catch(() => undefined)
        .finally(() => (this.busy = false));
    }, 1000);
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.timer = 0;
  }
}

/** joinRematchTable joins, on a table's page just opened, the seat a
 * rematch this player (uid) asked for keeps for them, then reads the
 * table. At a trustless table the join carries the seat's chain head,
 * key and signature (tabletrust.ts joinAt): a seat drawn in this page's
 * WebAssembly for the new table, never the old table's. A join refused
 * as stale (the other players' rematch joins land at the same time:
 * joins do not depend on each other) is sent again at the version read,
 * signed again there, while the seat is still free, at most five times.
 * At a fair table with openings it carries the commitment to a
 * contribution kept on this device (tableopen.ts, commitAtJoin). */
export function joinRematchTable(call: Call, newId: (prefix: string) => string, uid: string, t: { refresh(): Promise<void> }, v: TableView): void {
  const r = takeRematch(v.gameId);
  if (!r || v.phase !== "lobby" || v.seat >= 0) return;
  const join = async (): Promise<void> => {
    let at = v;
    for (let tries = 0; ; tries++) {
      const trust = at.mode === "trustless" ? await joinAt(at, uid, r.seat) : {};
      // A fair rematch with openings: the commitment to a contribution
      // drawn and kept here for the new table (tableopen.ts).
      const f = at.fairness;
      const opening = f?.openings ? { entropyCommitment: await commitAtJoin(uid, v.gameId, r.seat, f.commitmentHex) } : {};
      const data = { game: v.game, gameId: v.gameId, actionId: newId("j"), version: at.version, seat: r.seat, ...(r.options ? { options: r.options } : {}), ...trust, ...opening };
      try {
        await call("joinGame", data);
        return;
      } catch (e) {
        if (!(e instanceof CallError && e.details?.code === "stale_version") || tries >= 4) throw e;
        const now = await call<TableView>("getView", { game: v.game, gameId: v.gameId });
        if (now.phase !== "lobby" || now.seats[r.seat]?.uid !== "") throw e;
        at = now;
      }
    }
  };
  void join()
    .catch((e) => (byId("tg-status").textContent = "Refused: " + refusal(e)))
    .then(() => t.refresh());
}
