// gen.mjs writes vectors.json: the seeded stream's numbers as the spec's
// JavaScript computes them, for rng/vectors_test.go to check the Go code
// against, bit for bit.
//
// Run from the repository root:  node rng/testdata/sfc32/gen.mjs
//
// Sources (see README.md in this folder):
//   - cyrb128 and sfc32: bryc, "PRNGs" README in github.com/bryc/code
//     (public domain), current form with the final mix
//     h1 ^= (h2^h3^h4), h2 ^= h1, h3 ^= h1, h4 ^= h1. sfc32 here returns the
//     raw word t >>> 0; the published version returns (t >>> 0) / 4294967296,
//     which is float01 below.
//   - uniformInt, shuffleInPlace, weightedPick: the pseudocode of
//     docs/spec/RNG_AND_SHUFFLING.md ("Pseudocode examples"), with the
//     tag/ctx arguments dropped (they do not affect the numbers).
//   - float01 = u32 / 2^32 and chooseOne = arr[uniformInt(0, n-1)]: the
//     spec's interface comments ("[0,1)", "uniform").
//
// Do not edit vectors.json by hand: it is this script's output.

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

// ---- bryc's published code ------------------------------------------------

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
    let t = (a + b | 0) + d | 0;
    d = d + 1 | 0;
    a = b ^ b >>> 9;
    b = c + (c << 3) | 0;
    c = (c << 21 | c >>> 11);
    c = c + t | 0;
    return t >>> 0;
  };
}

// ---- the spec's pseudocode --------------------------------------------------

function createSeeded(seed) {
  const next = sfc32(...cyrb128(seed));
  let words = 0; // how many words were drawn, to pin consumption
  return {
    nextUint32() { words++; return next(); },
    get words() { return words; },
  };
}

function uniformInt(rng, min, max) {
  const n = max - min + 1;
  if (n <= 0) throw new Error("bad range");
  const maxU32 = 0x100000000; // 2^32
  const limit = Math.floor(maxU32 / n) * n;
  let u;
  do { u = rng.nextUint32(); } while (u >= limit);
  return min + (u % n);
}

function float01(rng) {
  return rng.nextUint32() / 4294967296;
}

function shuffleInPlace(rng, arr) {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [arr[i], arr[j]] = [arr[j], arr[i]];
  }
}

function weightedPick(rng, items) {
  const sum = items.reduce((a, b) => a + b.weight, 0);
  let r = uniformInt(rng, 0, sum - 1);
  let acc = 0;
  for (let i = 0; i < items.length; i++) {
    acc += items[i].weight;
    if (r < acc) return { index: i, item: items[i].item, r };
  }
  return { index: items.length - 1, item: items[items.length - 1].item, r: sum - 1 };
}

function chooseOne(rng, arr) {
  return arr[uniformInt(rng, 0, arr.length - 1)];
}

// ---- the vectors ------------------------------------------------------------

const seeds = [
  "",
  "a",
  "hello world",
  "seed-start-01",
  "comp-01",
  "eq-01",
  "fixed-seed",
  "The quick brown fox jumps over the lazy dog. ".repeat(23), // long: 1035 units
  "Crème brûlée à la façon d'Élodie, Ångström, Øresund, Łódź",
  "麻雀の牌山を積む",
  "🎲🐉👑", // astral: each is a surrogate pair
  "a\u0000b\u007f\u0080\u07ff\u0800\ud7ff\ue000\uffff\u{10000}\u{10ffff}é漢😀z", // UTF-8/16 boundaries, no lone surrogates
];

const U32_COUNT = 64;
const DRAWS = 32;
const ranges = [
  [1, 6], [1, 4], [0, 0], [-5, 5],
  [0, 4294967295], // 2^32 values: every word accepted
  [0, 2147483648], // 2^31+1 values: about half the words rejected
  [0, 2147483649], // 2^31+2 values: about half the words rejected
  [0, 3221225471], // 3*2^30 values: a quarter of the words rejected
  [-2147483648, 2147483647],
  [1000000, 1000099],
];
const shuffleSizes = [0, 1, 2, 4, 13, 52, 300];
const weightSets = [
  [70, 30], [70, 20, 10], [50, 50], [70, 15, 15], [80, 20],
  [4294967295, 1],        // sum 2^32: no rejection, r is the word
  [2147483649, 2, 7],     // sum 2^31+10: about half the words rejected
];
const chooseSizes = [1, 2, 3, 7, 52];

function vectorsFor(seed) {
  const out = { seed, cyrb128: cyrb128(seed) };

  let rng = createSeeded(seed);
  out.u32 = Array.from({ length: U32_COUNT }, () => rng.nextUint32());

  out.uniformInt = ranges.map(([min, max]) => {
    const r = createSeeded(seed);
    const values = Array.from({ length: DRAWS }, () => uniformInt(r, min, max));
    return { min, max, values, words: r.words };
  });

  rng = createSeeded(seed);
  out.float01 = { values: Array.from({ length: DRAWS }, () => float01(rng)), words: rng.words };

  out.shuffle = shuffleSizes.map((n) => {
    const r = createSeeded(seed);
    const arr = Array.from({ length: n }, (_, i) => i);
    shuffleInPlace(r, arr);
    return { n, result: arr, words: r.words };
  });

  out.weightedPick = weightSets.map((weights) => {
    const r = createSeeded(seed);
    const items = weights.map((weight, i) => ({ item: i, weight }));
    const rs = [], index = [];
    for (let k = 0; k < DRAWS; k++) {
      const p = weightedPick(r, items);
      rs.push(p.r);
      index.push(p.index);
    }
    return { weights, r: rs, index, words: r.words };
  });

  out.chooseOne = chooseSizes.map((n) => {
    const r = createSeeded(seed);
    const arr = Array.from({ length: n }, (_, i) => i);
    const indices = Array.from({ length: DRAWS }, () => chooseOne(r, arr));
    return { n, indices, words: r.words };
  });

  return out;
}

const doc = {
  comment: "Generated by rng/testdata/sfc32/gen.mjs from bryc's published cyrb128/sfc32 and the spec's pseudocode. Do not edit by hand; rerun `node rng/testdata/sfc32/gen.mjs`.",
  seeds: seeds.map(vectorsFor),
};

const here = dirname(fileURLToPath(import.meta.url));
// One object per line-ish: arrays of numbers are kept on one line.
const text = JSON.stringify(doc, null, 1)
  .replace(/\[\s*([-0-9.e+,\s]*?)\s*\]/g, (_, body) => "[" + body.split(/,\s*/).join(",") + "]");
writeFileSync(join(here, "vectors.json"), text + "\n");
