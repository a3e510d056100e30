// gen.mjs writes vectors.json: the numbers of nullspace's hash-chain GameRng
// as an independent JavaScript transcription computes them (Node's crypto
// SHA-256), for rng/hashchain_test.go to check the Go code against, bit for
// bit.
//
// Run from the repository root:  node rng/testdata/hashchain/gen.mjs
//
// Source (see README.md in this folder): GameRng in
// github.com/happybigmtn/nullspace, execution/src/casino/mod.rs (the version
// with next_u32, 24-bit next_f32, next_bounded_u32/usize and the two-path
// shuffle), transcribed method by method below. Rust's u8/u32 wrapping is
// reproduced with explicit masks; 64-bit values use BigInt.
//
// Do not edit vectors.json by hand: it is this script's output.

import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const sha256 = (...parts) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};

class GameRng {
  // new(seed, session_id, move_number): seed is seed.encode() (bytes).
  static create(seedBytes, sessionId, moveNumber) {
    const tail = Buffer.alloc(12);
    tail.writeBigUInt64BE(BigInt(sessionId), 0);
    tail.writeUInt32BE(moveNumber, 8);
    return new GameRng(sha256(seedBytes, tail));
  }
  // from_state(state): index 0.
  constructor(state) { this.state = Buffer.from(state); this.index = 0; }

  next_byte() {
    if (this.index >= 32) {
      this.state = sha256(this.state);
      this.index = 0;
    }
    return this.state[this.index++];
  }
  next_u8() { return this.next_byte(); }
  next_u32() {
    const a = this.next_byte(), b = this.next_byte(), c = this.next_byte(), d = this.next_byte();
    return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  }
  next_f32_bits() {
    const a = this.next_byte(), b = this.next_byte(), c = this.next_byte();
    return (a << 16) | (b << 8) | c; // the float is bits / 2^24, exact
  }
  next_bounded(max) { // max: u8
    if (max === 0) return 0;
    const limit = 255 - (255 % max);
    for (;;) {
      const v = this.next_u8();
      if (v < limit) return v % max;
    }
  }
  next_bounded_u32(max) {
    if (max === 0) return 0;
    const limit = 4294967295 - (4294967295 % max);
    for (;;) {
      const v = this.next_u32();
      if (v < limit) return v % max;
    }
  }
  next_bounded_usize(max) {
    if (max === 0) return 0;
    if (max <= 255) return this.next_bounded(max);
    if (max <= 4294967295) return this.next_bounded_u32(max);
    return this.next_bounded_u32(4294967295);
  }
  draw_card(deck) { // deck: array, modified (swap_remove)
    if (deck.length === 0) return null;
    const idx = deck.length <= 255
      ? this.next_bounded(deck.length)
      : this.next_bounded_usize(deck.length);
    const card = deck[idx];
    deck[idx] = deck[deck.length - 1];
    deck.pop();
    return card;
  }
  shuffle(arr) {
    if (arr.length <= 255) {
      for (let i = arr.length - 1; i >= 1; i--) {
        const j = this.next_bounded((i + 1) & 0xff);
        [arr[i], arr[j]] = [arr[j], arr[i]];
      }
      return arr;
    }
    for (let i = arr.length - 1; i >= 1; i--) {
      const j = this.next_bounded_usize(i + 1);
      [arr[i], arr[j]] = [arr[j], arr[i]];
    }
    return arr;
  }
  roll_die() { return this.next_bounded(6) + 1; }
  spin_roulette() { return this.next_bounded(37); }
  next_u64() { // rand::RngCore::next_u64: hi, lo
    const hi = BigInt(this.next_u32()), lo = BigInt(this.next_u32());
    return ((hi << 32n) | lo).toString();
  }
}

// seed.encode() for the reference's Seed (commonware threshold_simplex
// Seed<MinSig>): LEB128 varint view, then the 48-byte signature.
function encodeSeed(view, sig) {
  const out = [];
  let v = BigInt(view);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.concat([Buffer.from(out), sig]);
}

const range = (n) => [...Array(n).keys()];
const times = (n, f) => Array.from({ length: n }, f);

const cases = [
  { name: "empty seed, session 0, move 0", seed: Buffer.alloc(0), session: 0n, move: 0 },
  {
    name: "encoded seed view 1, signature 48 x 0xab, session 1, move 0",
    seed: encodeSeed(1, Buffer.alloc(48, 0xab)), session: 1n, move: 0,
  },
  {
    name: "encoded seed view 300, signature 0x00..0x2f, session 42, move 7",
    seed: encodeSeed(300, Buffer.from(range(48))), session: 42n, move: 7,
  },
  {
    name: "32 bytes 0xff, session 2^64-1, move 2^32-1 (super-mode domain)",
    seed: Buffer.alloc(32, 0xff), session: 0xffffffffffffffffn, move: 0xffffffff,
  },
];

const boundedMax = [0, 1, 2, 6, 37, 52, 128, 255];
const boundedU32Max = [1, 7, 1000, 2147483648, 4294967295];
const usizeMax = [0, 1, 255, 256, 100000];

const vectors = cases.map(({ name, seed, session, move }) => {
  const fresh = () => GameRng.create(seed, session, move);
  const withAfter = (f) => {
    const g = fresh();
    const values = f(g);
    return { values, next_byte_after: g.next_byte() };
  };
  return {
    name,
    seed_hex: seed.toString("hex"),
    session: session.toString(),
    move,
    state_hex: fresh().state.toString("hex"),
    bytes: times(100, function () { return this.next_byte(); }.bind(fresh())),
    u32: withAfter((g) => times(24, () => g.next_u32())),
    f32_bits: withAfter((g) => times(24, () => g.next_f32_bits())),
    u64: withAfter((g) => times(8, () => g.next_u64())),
    bounded: boundedMax.map((max) => ({ max, ...withAfter((g) => times(64, () => g.next_bounded(max))) })),
    bounded_u32: boundedU32Max.map((max) => ({ max, ...withAfter((g) => times(12, () => g.next_bounded_u32(max))) })),
    bounded_usize: usizeMax.map((max) => ({ max, ...withAfter((g) => times(12, () => g.next_bounded_usize(max))) })),
    shuffle52: withAfter((g) => g.shuffle(range(52))),
    shuffle300: withAfter((g) => g.shuffle(range(300))),
    draw52x10: withAfter((g) => { const d = range(52); return times(10, () => g.draw_card(d)); }),
    draw256x5: withAfter((g) => { const d = range(256); return times(5, () => g.draw_card(d)); }),
    roll_die: withAfter((g) => times(30, () => g.roll_die())),
    spin_roulette: withAfter((g) => times(30, () => g.spin_roulette())),
    state_after_40_bytes_hex: (() => { const g = fresh(); times(40, () => g.next_byte()); return g.state.toString("hex"); })(),
  };
});

const out = {
  about:
    "nullspace GameRng (execution/src/casino/mod.rs) transcribed in JavaScript " +
    "over Node's SHA-256. Each sequence is from a fresh GameRng::new(seed, session, move); " +
    "next_byte_after is the byte that follows it. Written by gen.mjs; do not edit by hand.",
  vectors,
};

const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "vectors.json"), JSON.stringify(out) + "\n");
console.log("wrote vectors.json:", vectors.length, "cases");
