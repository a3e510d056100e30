// The generic board: any table game drawn from its view alone (its seats,
// its public state as key/value rows, its legal moves, its log), for a
// game that brings no board of its own. Everything is put in as text.

import { h, replace } from "./dom";
import type { GameInfo, KindInfo } from "./engine";
import { describeTableEvent, moveDoc, moveLabel, stateRows, type SeatNames, type TableEvent, type TableMove, type TableView } from "./tablewords";

/** renderPlayers lists the seats: number, uid (or free), options, whose
 * turn it is, the owner and the winners. */
export function renderPlayers(ul: HTMLElement, v: TableView, info: GameInfo | undefined, name: SeatNames): void {
  const opts = info?.seats.options ?? [];
  const winners = new Set(v.outcome && !v.outcome.abandoned ? v.outcome.winners : []);
  replace(
    ul,
    ...v.seats.map((s, i) => {
      const marks = [
        v.toMove === i ? "to move" : "",
        s.uid && s.uid === v.owner ? "owner" : "",
        winners.has(i) ? "winner" : "",
      ].filter(Boolean);
      const options = (s.options ?? []).map((o, j) => `${opts[j]?.name ?? "option"}: ${o}`);
      return h(
        "li",
        { class: "player" + (i === v.seat ? " me" : ""), "data-seat": i, "data-uid": s.uid, "data-to-move": v.toMove === i ? "1" : undefined },
        h("strong", {}, s.uid ? name(i) : `Seat ${i + 1}: free`),
        s.uid && !name(i).startsWith("Seat ") ? ` · Seat ${i + 1}` : "",
        marks.length ? ` (${marks.join(", ")})` : "",
        options.length ? h("span", { class: "stats" }, options.join(" · ")) : null,
      );
    }),
  );
}

/** renderState draws the public state as a list of key/value pairs; a
 * per-seat value names its seat. At a trustless table the seat's private
 * part is left out: the server's state holds its cards closed, and the
 * card opened on this device is shown with the table's protocol. */
export function renderState(dl: HTMLElement, v: TableView, name: SeatNames): void {
  const rows = stateRows(v.state, v.game, v.seats.length, name).filter(
    (r) => (!r.toMove || v.phase === "playing") && !(v.mode === "trustless" && r.key.startsWith("private.")),
  );
  if (rows.length === 0) {
    replace(dl, h("dt", {}, "State"), h("dd", {}, v.phase === "lobby" ? "The game has not started." : "—"));
    return;
  }
  replace(
    dl,
    ...rows.flatMap((r) => [
      h("dt", {}, r.seat >= 0 ? `${r.label}, ${name(r.seat)}` : r.label),
      h("dd", { "data-key": r.key, class: r.seat >= 0 && r.seat === v.seat ? "me" : undefined }, r.value),
    ]),
  );
}

/** appendLog adds the events after the last one shown, in words. */
export function appendLog(ol: HTMLElement, v: TableView, after: number, name: SeatNames, who: (uid: unknown) => string, rules: unknown = null): number {
  let last = after;
  for (const e of v.log) {
    if (e.seq <= last) continue;
    last = e.seq;
    ol.querySelector("li.newest")?.classList.remove("newest");
    ol.appendChild(h("li", { "data-seq": e.seq, "data-type": e.type, class: "newest" }, describeTableEvent(e, v.game, name, who, v.seats.length, rules)));
  }
  return last;
}

/** redescribeLog says every line of the log again (the names changed:
 * a line said before a player's name was known names it now). */
export function redescribeLog(ol: HTMLElement, events: Map<number, TableEvent>, game: string, seats: number, name: SeatNames, who: (uid: unknown) => string, rules: unknown = null): void {
  for (const li of Array.from(ol.querySelectorAll<HTMLElement>("li[data-seq]"))) {
    const e = events.get(Number(li.dataset.seq));
    if (e) li.textContent = describeTableEvent(e, game, name, who, seats, rules);
  }
}

/** orderedMoves returns the legal moves with the game's forfeits (a
 * fold: KindInfo.forfeit) last, each part in the game's order, so that
 * the first button, which takes the focus, never gives up the hand. */
export function orderedMoves(legal: TableMove[], kinds: KindInfo[]): TableMove[] {
  const forfeit = new Set(kinds.filter((k) => k.forfeit).map((k) => k.name));
  return [...legal.filter((m) => !forfeit.has(m.kind)), ...legal.filter((m) => forfeit.has(m.kind))];
}

/** moveButtons makes a button per legal move, forfeits last: its label
 * (label: the game's board's words, else the kind with its arguments)
 * and the kind's doc from the game's definition. */
export function moveButtons(legal: TableMove[], info: GameInfo | undefined, send: (m: TableMove) => void, label: (m: TableMove) => string = moveLabel): HTMLButtonElement[] {
  return orderedMoves(legal, info?.kinds ?? []).map((m) => {
    const doc = moveDoc(m, info?.kinds ?? []);
    const b = h(
      "button",
      { type: "button", class: "action move", "data-kind": m.kind, "data-move": JSON.stringify(m), title: doc || undefined },
      label(m),
      doc ? h("span", { class: "move-doc" }, doc) : null,
    );
    b.addEventListener("click", () => send(m));
    return b;
  });
}

/** turnLine says where the game is, for the reader. */
export function turnLine(v: TableView, name: SeatNames, uid: string): string {
  const n = v.seats.filter((s) => s.uid).length;
  switch (v.phase) {
    case "lobby":
      if (n < v.seats.length) {
        if (v.seat < 0 && v.owner !== uid) return `Waiting for players: ${n} of ${v.seats.length} seated. Take a free seat to play.`;
        return `Waiting for players: ${n} of ${v.seats.length} seated.`;
      }
      if (v.seat < 0 && v.owner !== uid) return "Every seat of this game is taken: you cannot join it.";
      return v.owner === uid ? `All ${n} seats are taken: start the game.` : `All ${n} seats are taken: waiting for the owner to start the game.`;
    case "finished":
      return "The game is over.";
  }
  if (v.toMove === v.seat) return "Your move.";
  return v.toMove >= 0 ? `Waiting for ${name(v.toMove)}.` : "Waiting.";
}
