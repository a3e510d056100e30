// The page's buttons and forms outside a game's board (docs/play.md):
// sign-in and sign-out (with the warning for a guest who holds a seat),
// the lobby's create and open forms, and the open game's bar: join,
// refresh, leave, copy the link, abandon, verify, rematch, help, the
// fairness records and the notification permission.

import { app, autoJoinKey, call, classLabel, fillSelect, newId } from "./app";
import { byId, show } from "./dom";
import { refusal } from "./errors";
import type { GameView } from "./gameview";
import { renderHelp } from "./help";
import { joinFieldsAtCreate } from "./modes";
import { setupNameForm } from "./name";
import { guestMustConfirm } from "./safety";
import { askRematch, openFields, setupVisibility } from "./spectate";
import { chosenGame, createTable, setupGameChoice, type TableContext } from "./tablecreate";
import type { TableGame } from "./tablegame";

/** Open is what the forms act on: the open dungeon game or table, if
 * any, and what a table's page uses of the app. */
export interface Open {
  game(): GameView | null;
  table(): TableGame | null;
  tableContext(): TableContext;
}

/** setupForms wires the page's forms and buttons, once at boot. */
export function setupForms(o: Open): void {
  const { engine, backend } = app;
  const seats: [string, string][] = [];
  for (let i = 0; i < engine.rules.maxPlayers; i++) seats.push([String(i), "Seat " + (i + 1)]);
  fillSelect(byId<HTMLSelectElement>("create-seat"), seats);
  fillSelect(byId<HTMLSelectElement>("create-class"), engine.rules.classes.map((c) => [c, classLabel(c)]));
  setupGameChoice(engine, engine.rules.maxPlayers, !!app.cfg.allowSeeded);
  setupVisibility();

  const err = byId("signin-error");
  const guard = (fn: () => Promise<void>) => async () => {
    err.textContent = "";
    try {
      await fn();
    } catch (e) {
      err.textContent = "Sign-in failed: " + (e instanceof Error ? e.message : String(e));
    }
  };
  byId("guest").addEventListener("click", guard(() => backend.signInGuest()));
  setupNameForm(call);
  const email = byId<HTMLInputElement>("email");
  const password = byId<HTMLInputElement>("password");
  byId("email-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void guard(() => backend.signInEmail(email.value, password.value, false))();
  });
  byId("email-signup").addEventListener("click", () => {
    if (!byId<HTMLFormElement>("email-form").reportValidity()) return;
    void guard(() => backend.signInEmail(email.value, password.value, true))();
  });
  byId("dev-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void guard(() => backend.signInDev(byId<HTMLInputElement>("dev-name").value))();
  });
  byId("signout").addEventListener("click", () => {
    // A guest who signs out cannot come back as the same player: warn
    // first when the open game holds their seat.
    const g = o.game();
    if (guestMustConfirm(app.user?.label, (!!g?.seated() && g.state?.phase !== "finished") || !!o.table()?.seatedInPlay())) {
      show(byId("signout-warning"), true);
      byId("signout-cancel").focus();
      return;
    }
    void backend.signOut();
  });
  byId("signout-cancel").addEventListener("click", () => show(byId("signout-warning"), false));
  byId("signout-confirm").addEventListener("click", () => {
    show(byId("signout-warning"), false);
    void backend.signOut();
  });
  byId("notify").addEventListener("click", () => {
    void Notification.requestPermission().then(() => o.game()?.screen.renderTitle());
  });
  byId("tg-notify").addEventListener("click", () => {
    void Notification.requestPermission().then(() => o.table()?.renderTitle());
  });

  byId("create-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void createGame(o);
  });
  byId("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const raw = byId<HTMLInputElement>("open-id").value.trim();
    const m = /game=([A-Za-z0-9_-]+)/.exec(raw);
    const id = m ? m[1]! : raw;
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) {
      byId("lobby-error").textContent = "A game id is 1 to 128 letters, digits, - or _.";
      return;
    }
    location.hash = "game=" + id;
  });
  setupGameBar(o);
}

/** setupGameBar wires the open dungeon game's buttons, the help and the
 * log's fairness records. */
function setupGameBar(o: Open): void {
  byId("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    o.game()?.actions.join();
  });
  byId("refresh").addEventListener("click", () => void o.game()?.refresh());
  byId("leave").addEventListener("click", () => {
    location.hash = "";
  });
  byId("copy-link").addEventListener("click", () => {
    const link = byId<HTMLAnchorElement>("share-link").href;
    navigator.clipboard?.writeText(link).then(
      () => (byId("action-status").textContent = "The link is copied."),
      () => (byId("action-status").textContent = "Copy the link by hand: " + link),
    );
  });
  byId("abandon").addEventListener("click", () => {
    show(byId("abandon-confirm"), true);
    byId("abandon-confirm").focus();
  });
  byId("abandon-confirm").addEventListener("click", () => {
    show(byId("abandon-confirm"), false);
    o.game()?.actions.send({ kind: "abandon", actor: app.user!.uid });
  });
  byId("verify").addEventListener("click", () => void o.game()?.screen.verify());
  byId("rematch").addEventListener("click", () => {
    const g = o.game();
    if (g) void askRematch(call, g.id, "dungeon", byId("rematch-status"));
  });
  byId("tg-rematch").addEventListener("click", () => {
    const t = o.table();
    if (t) void askRematch(call, t.id, t.game, byId("tg-rematch-status"));
  });
  byId("help-open").addEventListener("click", () => {
    // How to play: the game's own words and numbers (its definition's
    // help, from the engine's WebAssembly), built once per game: the
    // dungeon's, or the open table game's.
    const body = byId("help-body");
    const game = o.table()?.game ?? "dungeon";
    if (body.dataset.game !== game) renderHelp(body, app.engine.help(game));
    body.dataset.game = game;
    byId<HTMLDialogElement>("help").showModal();
    byId("help-title").focus(); // at its top; Tab reaches Close, Escape closes
  });
  byId("log-protocol").addEventListener("click", () => {
    // The fairness protocol's records (signed actions, reveal rounds,
    // sealed shuffles) stay in the log, collapsed until asked for.
    const box = byId("log-box");
    const shown = box.dataset.protocol !== "shown";
    box.dataset.protocol = shown ? "shown" : "";
    const b = byId("log-protocol");
    b.setAttribute("aria-pressed", String(shown));
    b.textContent = shown ? "Hide the fairness records" : "Show the fairness records";
  });
}

/** createGame creates the game the lobby's form describes and opens it:
 * a table through createTable; the dungeon seated at once, except in
 * trustless mode, whose seat's chain and key the game's page draws. */
async function createGame(o: Open): Promise<void> {
  const errEl = byId("lobby-error");
  errEl.textContent = "";
  const mode = (document.querySelector('input[name="mode"]:checked') as HTMLInputElement).value;
  const seat = Number(byId<HTMLSelectElement>("create-seat").value);
  const cls = byId<HTMLSelectElement>("create-class").value;
  const gameId = newId("g");
  const button = byId<HTMLButtonElement>("create");
  button.disabled = true;
  try {
    const game = chosenGame();
    if (game !== "dungeon") return await createTable(o.tableContext(), game, mode);
    await call("createGame", { gameId, actionId: newId("c"), mode, ...openFields() });
    if (mode === "trustless") {
      // The seat's chain and key are drawn by the game's page, once it has
      // read the game (its chain length, its version): it joins then.
      sessionStorage.setItem(autoJoinKey(gameId), JSON.stringify({ seat, cls }));
      location.hash = "game=" + gameId;
      return;
    }
    // A fair game's contribution is drawn now, after the server has
    // committed to its seed (createGame's answer), and sent with the join.
    const join: Record<string, unknown> = { gameId, actionId: newId("j"), seat, class: cls, ...joinFieldsAtCreate(mode) };
    await call("joinGame", join);
    location.hash = "game=" + gameId;
  } catch (e) {
    errEl.textContent = "The game could not be created: " + refusal(e);
  } finally {
    button.disabled = false;
  }
}
