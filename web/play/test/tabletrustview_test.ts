// A trustless seat's checkpoint on the page, run by Node
// (TestTableTrustViewInNode; docs/store.md, "The saved table's parts"):
// a poll sends getView's checkedMoves only once the seat has checked a
// move (as client.TrustTable does: 0 asks for every move); the seat's
// count is read from the WebAssembly's tableChecked for the view's own
// seat, and is 0 where the page holds no trustless seat; a view whose
// moves start past the seat's checkpoint (a seat just made again from
// its secrets has checked none) is read again whole, at the same version,
// before the seat is asked anything, and one that starts at or before it
// is used as it is (the control: no read).

import { forSeat, movesBase, seatChecked, viewFields } from "../src/tabletrustview";
import type { TableView } from "../src/tablewords";

function assert(cond: boolean, what: string): void {
  if (!cond) throw new Error("FAIL: " + what);
}
function eq(got: unknown, want: unknown, what: string): void {
  assert(JSON.stringify(got) === JSON.stringify(want), `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

/** view is a trustless table's view at version, seat 1 of two, its
 * moves starting after base. */
function view(version: number, base: number, mode = "trustless", seat = 1): TableView {
  const trustless: Record<string, unknown> = { chainLength: 64, deadlineMs: 60000, seats: null, nextIndex: 3, moves: [] };
  if (base > 0) trustless["movesBase"] = base;
  return { game: "pig", gameId: "g1", mode, seat, version, seats: [{ uid: "alice" }, { uid: "bob" }], trustless } as unknown as TableView;
}

async function main(): Promise<void> {
  // The poll's data.
  eq(viewFields("pig", "g1", 12, 0), { game: "pig", gameId: "g1", afterSeq: 12 }, "no checkpoint: every move");
  eq(viewFields("pig", "g1", 12, 7), { game: "pig", gameId: "g1", afterSeq: 12, checkedMoves: 7 }, "the moves after 7");
  eq(viewFields("pig", "g1", 0, -1), { game: "pig", gameId: "g1", afterSeq: 0 }, "a negative count sends none");
  eq(viewFields("pig", "g1", 0, 2.5), { game: "pig", gameId: "g1", afterSeq: 0 }, "a count that is not a whole number sends none");

  // The seat's count, from the WebAssembly.
  const asked: string[][] = [];
  let answer: { ok: boolean; checked?: number } = { ok: true, checked: 9 };
  (globalThis as unknown as { fairboard: unknown }).fairboard = {
    tableChecked(gameId: string, uid: string) {
      asked.push([gameId, uid]);
      return answer;
    },
  };
  eq(seatChecked(view(4, 0)), 9, "the seat's count");
  eq(asked, [["g1", "bob"]], "asked for the view's own seat");
  eq(seatChecked(view(4, 0, "crypto")), 0, "not a trustless table");
  eq(seatChecked(view(4, 0, "trustless", -1)), 0, "no seat here");
  eq(asked.length, 1, "neither asks the WebAssembly");
  answer = { ok: false };
  eq(seatChecked(view(4, 0)), 0, "a failed answer counts none");
  answer = { ok: true, checked: -3 };
  eq(seatChecked(view(4, 0)), 0, "a negative count counts none");
  answer = { ok: true };
  eq(seatChecked(view(4, 0)), 0, "an answer without a count counts none");

  // The view the seat is given.
  eq(movesBase(view(4, 5)), 5, "movesBase read");
  eq(movesBase(view(4, 0)), 0, "a whole view");
  eq(movesBase({ game: "pig", gameId: "g1", mode: "crypto" } as unknown as TableView), 0, "no protocol");
  let reads = 0;
  const whole = (w: TableView) => async () => {
    reads++;
    return w;
  };
  const tail = view(8, 5);
  eq(await forSeat(tail, 5, whole(view(8, 0))), tail, "at the checkpoint: as it is");
  eq(await forSeat(tail, 6, whole(view(8, 0))), tail, "before the checkpoint: as it is");
  eq(reads, 0, "neither read again (the control)");
  const again = view(8, 0);
  eq(await forSeat(tail, 0, whole(again)), again, "a seat that checked none: read again whole");
  eq(await forSeat(tail, 4, whole(again)), again, "a checkpoint behind the view's start: read again whole");
  eq(reads, 2, "each read again once");
  for (const [what, w, want] of [
    ["moved on", view(9, 0), "moved on from version 8 to 9"],
    ["still a tail", view(8, 2), "from move 3, not from the first"],
  ] as const) {
    let err = "";
    try {
      await forSeat(tail, 0, whole(w));
    } catch (e) {
      err = String(e);
    }
    assert(err.includes(want), `${what}: refused (${err})`);
  }
  console.log("ok");
}

main().catch((e) => {
  console.log(String(e));
});
