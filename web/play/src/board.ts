// Drawing the game: the board's tiles with their zones and kinds and the
// players' tokens, the players' panel, and the fight under way.

import { h, replace } from "./dom";
import type { Engine } from "./engine";
import type { Names } from "./log";
import type { Player, Public } from "./types";

const COLS = 6;

/** seatLabel names a player by seat and class ("Seat 2 · Monk"). */
export function seatLabel(p: Player): string {
  return `Seat ${p.seat + 1} · ${p.class.charAt(0).toUpperCase() + p.class.slice(1)}`;
}

const kindWords: Record<string, string> = {
  start: "start",
  final: "final",
  empty: "",
  treasure: "treasure",
  enemy: "enemy",
  chance: "chance",
};

/** renderBoard draws the tiles in rows of six, snaking (row 2 runs right to
 * left) so consecutive tiles touch; the list stays in tile order for
 * screen readers. */
export function renderBoard(el: HTMLElement, engine: Engine, p: Public, n: Names, before: Public | null = null): void {
  const wasAt = new Map((before?.players ?? []).map((x) => [x.uid, x.pos]));
  const byTile = new Map<number, Player[]>();
  for (const pl of p.players ?? []) {
    const list = byTile.get(pl.pos) ?? [];
    list.push(pl);
    byTile.set(pl.pos, list);
  }
  const tiles = engine.rules.tiles.map((t) => {
    const row = Math.floor(t.index / COLS);
    const col = row % 2 === 0 ? t.index % COLS : COLS - 1 - (t.index % COLS);
    const here = byTile.get(t.index) ?? [];
    const label = `Tile ${t.index}` + (kindWords[t.kind] ? `, ${kindWords[t.kind]}` : "") + (t.tier ? `, zone ${t.tier}` : "") +
      (here.length ? `: ${here.map((x) => n.who(x.uid)).join(", ")}` : "");
    const li = h(
      "li",
      { class: `tile ${t.kind} z${t.tier} r${row + 1} c${col + 1}`, "data-tile": t.index, "aria-label": label },
      h("span", { class: "tile-index" }, String(t.index)),
      h("span", { class: "tile-kind" }, kindWords[t.kind] ?? t.kind),
      h(
        "span",
        { class: "tokens" },
        ...here.map((x) =>
          h(
            "span",
            {
              class: "token s" + (x.seat + 1) + (x.uid === p.awaiting ? " awaited" : "") + (wasAt.has(x.uid) && wasAt.get(x.uid) !== x.pos ? " moved" : ""),
              "data-uid": x.uid,
            },
            "P" + (x.seat + 1),
          ),
        ),
      ),
    );
    return li;
  });
  replace(el, ...tiles);
}

/** delta says what changed for a player since before, the state the last
 * move started from: HP, tile, items gained and lost ("" if nothing). */
export function delta(engine: Engine, pl: Player, before: Public | null): string {
  const was = before?.players?.find((x) => x.uid === pl.uid);
  if (!was) return "";
  const out: string[] = [];
  if (was.hp !== pl.hp) out.push(`HP ${pl.hp > was.hp ? "+" : "−"}${Math.abs(pl.hp - was.hp)}`);
  if (was.pos !== pl.pos) out.push(`tile ${was.pos} → ${pl.pos}`);
  const had = [...(was.items ?? [])];
  const gained: string[] = [];
  for (const c of pl.items ?? []) {
    const i = had.indexOf(c);
    if (i >= 0) had.splice(i, 1);
    else gained.push(c);
  }
  for (const c of gained) out.push("+" + engine.cardName(c));
  for (const c of had) out.push("−" + engine.cardName(c));
  return out.join(", ");
}

/** renderPlayers lists the seated players: class, HP, tile, items, and
 * what the last move changed for each. */
export function renderPlayers(el: HTMLElement, engine: Engine, p: Public, n: Names, me: string, before: Public | null = null): void {
  const max = engine.rules.maxHp;
  replace(
    el,
    ...(p.players ?? []).map((pl) => {
      const items = (pl.items ?? []).map((c) => engine.cardName(c));
      const marks = [
        pl.uid === p.current ? "to play" : "",
        pl.uid === p.awaiting && pl.uid !== p.current ? "deciding" : "",
        pl.uid === p.owner ? "owner" : "",
        pl.uid === p.winner ? "winner" : "",
      ].filter(Boolean);
      const changed = delta(engine, pl, before);
      return h(
        "li",
        { class: "player s" + (pl.seat + 1) + (pl.uid === me ? " me" : "") + (changed ? " changed" : ""), "data-uid": pl.uid, "data-changed": changed || undefined },
        h("span", { class: "token s" + (pl.seat + 1) }, "P" + (pl.seat + 1)),
        " ",
        h("strong", {}, n.who(pl.uid)),
        n.who(pl.uid).startsWith(seatLabel(pl)) ? null : h("span", { class: "seat-label" }, " · " + seatLabel(pl)),
        marks.length ? " (" + marks.join(", ") + ")" : "",
        h(
          "span",
          { class: "stats" },
          h("meter", { min: 0, max, value: pl.hp, "aria-label": `HP of ${n.who(pl.uid)}` }),
          ` HP ${pl.hp}/${max} · tile ${pl.pos} · attack +${pl.atkBonus} · defense +${pl.defBonus}`,
        ),
        h("span", { class: "items" }, items.length ? "Items: " + items.join(", ") : "No items"),
        changed ? h("span", { class: "delta" }, "Last move: " + changed) : null,
      );
    }),
  );
}

/** renderFight shows the combat or duel under way. */
export function renderFight(el: HTMLElement, engine: Engine, p: Public, n: Names): void {
  if (p.combat) {
    const c = p.combat;
    replace(
      el,
      h("h3", {}, `Fight: ${n.who(c.uid)} against tier ${c.tier} enemies, round ${c.round + 1}`),
      h(
        "ul",
        {},
        ...c.enemies.map((e) =>
          h("li", { class: e.hp > 0 ? "enemy" : "enemy dead" }, `${engine.cardName(e.cardId)}: HP ${e.hp}, attack ${e.atk}, defense ${e.def}` + (e.hp > 0 ? "" : " (defeated)")),
        ),
      ),
    );
    return;
  }
  if (p.duel) {
    const d = p.duel;
    replace(el, h("h3", {}, `${d.bracket ? "Final bracket duel" : "Duel"}: ${n.who(d.challenger)} against ${n.who(d.target)}, round ${d.round + 1}`));
    return;
  }
  replace(el);
}
