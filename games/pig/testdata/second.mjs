// second.mjs: a second implementation of Pig, written from the rules
// (issue 27, section 4; docs/games.md, "Pig") and the spec's seeded
// stream, never from the Go code, checked against the golden game the Go
// code pinned (golden.json, or the file named as the first argument).
//
// Run from games/pig:  node testdata/second.mjs [FILE]
// It prints "ok" and exits 0 when every move is legal and the log and the
// rng audit entries it makes are the golden's, one for one; otherwise it
// prints the first difference and exits 1.
//
// Sources:
//   - cyrb128 and sfc32: bryc, "PRNGs" README in github.com/bryc/code
//     (public domain), as rng/testdata/sfc32/gen.mjs has them;
//   - uniformInt and a die as uniformInt(1, sides): the pseudocode of
//     RNG_AND_SHUFFLING.md ("Pseudocode examples"; "dice: uniformInt(1,
//     sides)"), the audit entry of a die {sides, value} ("rngAudit ...
//     For dice");
//   - the rules: two to six seats, seat 0 first then seat order; roll: a
//     1 ends the turn and loses the turn total, any other face adds to
//     it; hold: bank the turn total and end the turn, legal only when it
//     is above 0; a seat wins the moment its banked score plus its turn
//     total reaches the goal.
//   - the log's and audit's field names: the golden's own (what they mean
//     is the rules'): GameStarted {seats, goal, dieSides}, Rolled {seat,
//     value, turnTotal}, Busted {seat, lost}, Held {seat, banked}, Won
//     {seat, score}; a roll's audit tag "pig.roll" with ctx {turn}, the
//     turn counted from 1 across seats.

import { readFileSync } from "node:fs";

function cyrb128(str) {
  let h1 = 1779033703, h2 = 3144134277,
      h3 = 1013904242, h4 = 2773480762;
  for (let i = 0, k; i < str.length; i++) {
    k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= (h2 ^ h3 ^ h4), h2 ^= h1, h3 ^= h1, h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function sfc32(a, b, c, d) {
  return function () {
    a |= 0; b |= 0; c |= 0; d |= 0;
    const t = (a + b | 0) + d | 0;
    d = d + 1 | 0;
    a = b ^ b >>> 9;
    b = c + (c << 3) | 0;
    c = (c << 21 | c >>> 11);
    c = c + t | 0;
    return t >>> 0;
  };
}

function uniformInt(next, min, max) {
  const n = max - min + 1;
  const limit = Math.floor(0x100000000 / n) * n;
  let u;
  do { u = next(); } while (u >= limit);
  return min + (u % n);
}

// play replays g's moves under the rules and returns the log and audit it
// makes, or throws at the first illegal move.
function play(g) {
  const { goal, dieSides } = g.rules;
  const n = g.seats;
  if (!(n >= 2 && n <= 6) || !(goal >= 1) || !(dieSides >= 2)) throw new Error(`bad setup: ${n} seats, goal ${goal}, ${dieSides} sides`);
  const next = sfc32(...cyrb128(g.seed));
  const log = [{ type: "GameStarted", seats: n, goal, dieSides }];
  const audit = [];
  const banked = new Array(n).fill(0);
  let turn = 0, turnTotal = 0, turns = 1, over = false;
  const pass = () => { turn = (turn + 1) % n; turnTotal = 0; turns++; };
  g.moves.forEach((text, i) => {
    const m = JSON.parse(text);
    const keys = Object.keys(m).join(",");
    if (over) throw new Error(`move ${i + 1}: the game is over`);
    if (keys !== "seat,kind") throw new Error(`move ${i + 1}: fields ${keys}`);
    if (m.seat !== turn) throw new Error(`move ${i + 1}: seat ${m.seat} moves, seat ${turn} is to move`);
    if (m.kind === "roll") {
      const value = uniformInt(next, 1, dieSides);
      audit.push({ tag: "pig.roll", ctx: { turn: turns }, kind: "dice", data: { sides: dieSides, value } });
      if (value === 1) {
        log.push({ type: "Rolled", seat: turn, value, turnTotal: 0 });
        log.push({ type: "Busted", seat: turn, lost: turnTotal });
        pass();
        return;
      }
      turnTotal += value;
      log.push({ type: "Rolled", seat: turn, value, turnTotal });
      if (banked[turn] + turnTotal >= goal) {
        log.push({ type: "Won", seat: turn, score: banked[turn] + turnTotal });
        over = true;
      }
    } else if (m.kind === "hold") {
      if (turnTotal <= 0) throw new Error(`move ${i + 1}: hold with a turn total of 0`);
      banked[turn] += turnTotal;
      log.push({ type: "Held", seat: turn, banked: banked[turn] });
      pass();
    } else {
      throw new Error(`move ${i + 1}: unknown kind ${m.kind}`);
    }
  });
  if (!over) throw new Error("the moves end before the game does");
  return { log, audit };
}

// same compares want (the golden's entries, with their seq) with got
// (numbered from 1 here), field by field.
function same(what, want, got) {
  if (want.length !== got.length) return `${what}: ${want.length} entries in the golden, ${got.length} here`;
  for (let i = 0; i < want.length; i++) {
    const w = JSON.stringify(sorted(want[i])), h = JSON.stringify(sorted({ seq: i + 1, ...got[i] }));
    if (w !== h) return `${what} ${i + 1}: the golden has ${w}, the rules make ${h}`;
  }
  return "";
}

function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])]));
  return v;
}

const file = process.argv[2] ?? new URL("golden.json", import.meta.url);
const g = JSON.parse(readFileSync(file, "utf8"));
try {
  const { log, audit } = play(g);
  const diff = same("log", g.log, log) || same("audit", g.audit, audit);
  if (diff) {
    console.log(diff);
    process.exit(1);
  }
  console.log("ok");
} catch (e) {
  console.log(e.message);
  process.exit(1);
}
