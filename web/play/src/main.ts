// The player's web app: sign-in, lobby, the live board, actions, the end
// and its verification. docs/play.md describes each screen. This file
// boots the page and routes the address to a screen: the lobby, the
// dungeon's page (gameview.ts) or a table game's (tablegame.ts); what is
// shared is app.ts's, the forms are forms.ts's.

import { newBackend } from "./backend";
import { app, bootError, call, newId, onNet, screen, updateNet } from "./app";
import { loadConfig } from "./config";
import { byId, h, replace, show } from "./dom";
import { loadEngine } from "./engine";
import { setupForms } from "./forms";
import { GameView } from "./gameview";
import { forgetName, loadName } from "./name";
import { joinRematchTable, OpenGamesList } from "./spectate";
import { TableGame } from "./tablegame";
import type { TableContext } from "./tablecreate";
import { gameLabel, type TableView } from "./tablewords";

let current: GameView | null = null;
/** table is the open table game (any game but the dungeon), if any. */
let table: TableGame | null = null;
/** openGames is the lobby's live list of open games. */
let openGames: OpenGamesList;

async function boot(): Promise<void> {
  // crypto.subtle, Web Locks and IndexedDB's guarantees exist only in a
  // secure context: https, or http to this machine (localhost, 127.0.0.1).
  if (!window.isSecureContext || !crypto.subtle || !navigator.locks || !window.indexedDB) {
    bootError(
      "This page needs a secure connection",
      `It was opened over plain http from ${location.host}, which the browser does not treat as secure, so it withholds ` +
        "what the game needs to keep your secrets (crypto.subtle to sign, Web Locks so that two tabs never both reveal, " +
        "IndexedDB to keep a trustless seat's keys). Open it over https, or on this machine as " +
        "http://localhost or http://127.0.0.1 (docs/play.md says how to serve it over https for a phone).",
    );
    return;
  }
  try {
    app.cfg = await loadConfig();
  } catch (e) {
    bootError("The server's configuration could not be read", String(e));
    return;
  }
  try {
    app.engine = await loadEngine("play.wasm");
  } catch (e) {
    bootError("The game engine could not load", String(e));
    return;
  }
  app.backend = newBackend(app.cfg);
  // Start-up: from the navigation's start to the engine and config loaded.
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  setupForms({ game: () => current, table: () => table, tableContext });
  openGames = new OpenGamesList(call, listLabel);
  onNet(() => current?.actions.render());
  updateNet();
  window.addEventListener("online", updateNet);
  window.addEventListener("offline", updateNet);
  window.addEventListener("hashchange", route);
  app.backend.onUser((u) => {
    app.user = u;
    byId("who").textContent = u ? "Signed in as " + u.label : "";
    if (u) void loadName(call, u.uid, u.label);
    else forgetName();
    show(byId("signout"), !!u);
    route();
  });
}

function route(): void {
  const user = app.user;
  openGames.stop(); // read again below if the lobby shows
  if (!user) {
    current?.close();
    current = null;
    closeTable();
    screen("signin");
    show(byId("firebase-signin"), !app.cfg.devAuth);
    show(byId("dev-form"), !!app.cfg.devAuth);
    return;
  }
  const id = new URLSearchParams(location.hash.slice(1)).get("game");
  if (id) {
    if (current?.id !== id) {
      current?.close();
      closeTable();
      current = new GameView(id, openTable);
      void current.open();
    }
    screen(table ? "table" : "game");
    return;
  }
  current?.close();
  current = null;
  closeTable();
  const last = localStorage.getItem("fairboard.lastGame." + user.uid);
  const resume = byId("resume");
  if (last) {
    replace(resume, "Your last game: ", h("a", { href: "#game=" + last, id: "resume-link" }, last));
  }
  show(resume, !!last);
  screen("lobby");
  openGames.start();
}

function closeTable(): void {
  table?.close();
  table = null;
}

/** listLabel names a game in the list of open games. */
const listLabel = (game: string) => gameLabel({ name: game });

/** tableContext is what a table game's page uses of the app. */
function tableContext(): TableContext {
  return {
    uid: app.user!.uid,
    call,
    newId,
    info: (name) => app.engine.games().find((g) => g.name === name),
    db: app.backend.firestore(),
    ackKey: app.cfg.ackKey,
  };
}

/** openTable shows a table game, whose first view getView answered. */
function openTable(id: string, v: TableView): void {
  closeTable();
  localStorage.setItem("fairboard.lastGame." + app.user!.uid, id);
  table = new TableGame(tableContext(), id, v);
  screen("table");
  joinRematchTable(call, newId, app.user!.uid, table, v);
}

void boot();
