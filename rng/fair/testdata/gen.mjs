// gen.mjs writes vectors.json: the derivations of fairboard's verifiable
// games (docs/fairness.md) computed by an implementation independent of the
// Go code, for rng/fair/vectors_test.go, rng (the fair stream) and
// reducers (a whole fair and seeded start) to check themselves against.
//
// Run from the repository root (Node 20 or later):
//
//     node rng/fair/testdata/gen.mjs
//
// Sources, transcribed here from their definitions, not from the Go code:
//   - SHA-256 and ChaCha20: Node's crypto (OpenSSL). OpenSSL's "chacha20"
//     takes a 16-byte IV = 4-byte little-endian block counter followed by
//     the 12-byte nonce; this script first checks it against RFC 8439
//     section 2.4.2 and aborts if it differs.
//   - field(b) = 4-byte big-endian length of b, then b; u32(n) = n as 4
//     bytes big-endian. The derivations are the contract of issue 9 and
//     docs/fairness.md:
//       commitment = SHA-256(field("fairboard/server-seed/v1") ‖ field(serverSeed))
//       gameSeed   = SHA-256(field("fairboard/game-seed/v1") ‖ field(serverSeed) ‖ u32(n) ‖ field(c_1) ‖ … ‖ field(c_n))
//       saltKey    = SHA-256(field("fairboard/salt-key/v1") ‖ field(serverSeed or UTF-8 seed))
//       salt_k     = SHA-256(field("fairboard/deck-salt/v1") ‖ field(saltKey) ‖ u32(k))
//       deck       = SHA-256(field("fairboard/deck/v1") ‖ field(salt) ‖ field(deckId) ‖ u32(n) ‖ field(card_1) ‖ … ‖ field(card_n))
//   - The fair stream: ADR-005's ChaCha20 (key = SHA-256(gameSeed), zero
//     nonce, counter 0); a word is the next 4 keystream bytes big-endian.
//   - The spec's arithmetic (RNG_AND_SHUFFLING.md v1.0): uniformInt(min,
//     max): n = max-min+1, limit = floor(2^32/n)*n, draw words until
//     u < limit, return min + u % n; shuffle: for i = len-1 down to 1,
//     j = uniformInt(0, i), swap a[i], a[j]; dice(s) = uniformInt(1, s).
//   - Seeded mode: bryc's cyrb128 and sfc32 (github.com/bryc/code, public
//     domain), over the seed string's UTF-16 code units.
//   - The initial decks: games/dungeon/engine/rules/default.json, each deck's cards in
//     file order, card "<id>-<n>" for n = 1..count. The start shuffles the
//     decks treasure.t1, treasure.t2, treasure.t3, chance, enemy.t1,
//     enemy.t2, enemy.t3 in that order (shuffle k = 0..6), then rolls one
//     turn-order die (dice.turnOrder sides) per seat in seat order.
//
// Do not edit vectors.json by hand: it is this script's output.

import { createCipheriv, createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");

// ---- OpenSSL ChaCha20, checked against RFC 8439 ---------------------------

function chachaKeystream(key, nonce12, counter, length) {
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter, 0);
  Buffer.from(nonce12).copy(iv, 4);
  const c = createCipheriv("chacha20", Buffer.from(key), iv);
  return Buffer.concat([c.update(Buffer.alloc(length)), c.final()]);
}

{
  const key = Buffer.from([...Array(32).keys()]);
  const nonce = Buffer.from("000000000000004a00000000", "hex");
  const plain = Buffer.from(
    "Ladies and Gentlemen of the class of '99: If I could offer you only one " +
      "tip for the future, sunscreen would be it.",
    "ascii",
  );
  const want =
    "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b" +
    "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8" +
    "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736" +
    "5af90bbf74a35be6b40b8eedf2785e42874d";
  const ks = chachaKeystream(key, nonce, 1, plain.length);
  const ct = Buffer.alloc(plain.length);
  for (let i = 0; i < ct.length; i++) ct[i] = plain[i] ^ ks[i];
  if (ct.toString("hex") !== want) {
    console.error("OpenSSL ChaCha20 does not reproduce RFC 8439 2.4.2");
    process.exit(1);
  }
}

// ---- the derivations --------------------------------------------------------

const sha256 = (...parts) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};
const field = (b) => Buffer.concat([u32(b.length), Buffer.from(b)]);
const utf8 = (s) => Buffer.from(s, "utf8");

const commitment = (serverSeed) => sha256(field(utf8("fairboard/server-seed/v1")), field(serverSeed));
const gameSeed = (serverSeed, contributions) =>
  sha256(
    field(utf8("fairboard/game-seed/v1")),
    field(serverSeed),
    u32(contributions.length),
    ...contributions.map(field),
  );
const saltKeyFair = (serverSeed) => sha256(field(utf8("fairboard/salt-key/v1")), field(serverSeed));
const saltKeySeeded = (seed) => sha256(field(utf8("fairboard/salt-key/v1")), field(utf8(seed)));
const deckSalt = (saltKey, k) => sha256(field(utf8("fairboard/deck-salt/v1")), field(saltKey), u32(k));
const deckCommitment = (salt, deckId, cards) =>
  sha256(
    field(utf8("fairboard/deck/v1")),
    field(salt),
    field(utf8(deckId)),
    u32(cards.length),
    ...cards.map((c) => field(utf8(c))),
  );

// ---- word sources -----------------------------------------------------------

// The fair stream: keystream made in one piece (enough for every use below),
// read 4 bytes at a time from a byte offset.
function fairStream(seed, offset = 0) {
  const ks = chachaKeystream(sha256(seed), Buffer.alloc(12), 0, offset + 64 * 1024);
  let pos = offset;
  return () => {
    const v = ks.readUInt32BE(pos);
    pos += 4;
    return v;
  };
}

function cyrb128(str) {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
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
  h1 ^= h2 ^ h3 ^ h4, h2 ^= h1, h3 ^= h1, h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function sfc32(a, b, c, d) {
  return () => {
    a |= 0; b |= 0; c |= 0; d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
}

// ---- the spec's arithmetic --------------------------------------------------

function uniformInt(next, min, max) {
  const n = max - min + 1;
  const limit = Math.floor(4294967296 / n) * n;
  let u;
  do u = next(); while (u >= limit);
  return min + (u % n);
}

function shuffle(next, arr) {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = uniformInt(next, 0, i);
    [arr[i], arr[j]] = [arr[j], arr[i]];
  }
  return arr;
}

// ---- the game's start -------------------------------------------------------

const rules = JSON.parse(readFileSync(join(root, "games", "dungeon", "engine", "rules", "default.json"), "utf8"));
const deckOrder = ["treasure.t1", "treasure.t2", "treasure.t3", "chance", "enemy.t1", "enemy.t2", "enemy.t3"];
function initialDeck(id) {
  const d = rules.decks.find((x) => x.id === id);
  const out = [];
  for (const c of d.cards) for (let n = 1; n <= c.count; n++) out.push(`${c.id}-${n}`);
  return out;
}

function start(next, saltKey, players) {
  const shuffles = deckOrder.map((deckId, k) => {
    const order = shuffle(next, initialDeck(deckId));
    const salt = deckSalt(saltKey, k);
    return { k, deckId, order, saltHex: salt.toString("hex"), commitmentHex: deckCommitment(salt, deckId, order).toString("hex") };
  });
  const turnOrderRolls = [];
  for (let i = 0; i < players; i++) turnOrderRolls.push(uniformInt(next, 1, rules.dice.turnOrder));
  return { shuffles, turnOrderRolls };
}

// ---- the cases --------------------------------------------------------------

const hex = (b) => Buffer.from(b).toString("hex");
const counting = (n, from = 0) => Buffer.from([...Array(n).keys()].map((i) => (i + from) & 0xff));
const serverSeeds = {
  zero: Buffer.alloc(32),
  ones: Buffer.alloc(32, 0xff),
  counting: counting(32),
  text: sha256(utf8("fairboard worked example")), // the docs' worked example
};

const commitments = Object.entries(serverSeeds).map(([name, s]) => ({
  name,
  serverSeedHex: hex(s),
  commitmentHex: hex(commitment(s)),
  saltKeyHex: hex(saltKeyFair(s)),
}));

const contributionSets = [
  { name: "no players", serverSeed: "counting", contributions: [] },
  { name: "one player, no entropy", serverSeed: "zero", contributions: [""] },
  { name: "four players", serverSeed: "counting", contributions: ["", "00", "deadbeef", hex(counting(64))] },
  { name: "split ab|cd", serverSeed: "ones", contributions: ["ab", "cd"] },
  { name: "split abcd|", serverSeed: "ones", contributions: ["abcd", ""] },
  { name: "worked example", serverSeed: "text", contributions: ["a1b2c3d4", "", "0123456789abcdef"] },
];
const gameSeeds = contributionSets.map((c) => ({
  name: c.name,
  serverSeedHex: hex(serverSeeds[c.serverSeed]),
  contributionsHex: c.contributions,
  gameSeedHex: hex(gameSeed(serverSeeds[c.serverSeed], c.contributions.map((h) => Buffer.from(h, "hex")))),
}));

const seededSaltKeys = ["", "seed-start-01", "game-05", "é🎲 seed"].map((seed) => ({
  seed,
  saltKeyHex: hex(saltKeySeeded(seed)),
}));

const saltKeyForSalts = saltKeyFair(serverSeeds.counting);
const salts = [0, 1, 6, 7, 4294967295].map((k) => ({
  saltKeyHex: hex(saltKeyForSalts),
  k,
  saltHex: hex(deckSalt(saltKeyForSalts, k)),
}));

const deckCases = [
  { deckId: "treasure.t1", cards: initialDeck("treasure.t1") },
  { deckId: "chance", cards: [] },
  { deckId: "ü", cards: ["10D", "1", "0D", "é🎲"] },
  { deckId: "ü", cards: ["10", "D1", "0D", "é🎲"] },
].map((c, i) => {
  const salt = deckSalt(saltKeyForSalts, i);
  return { saltHex: hex(salt), deckId: c.deckId, cards: c.cards, commitmentHex: hex(deckCommitment(salt, c.deckId, c.cards)) };
});

// The fair stream of "four players": its first 40 words, and words read
// after seeking to byte offsets across block boundaries.
const streamSeed = Buffer.from(gameSeeds[2].gameSeedHex, "hex");
const first = fairStream(streamSeed);
const streamWords = Array.from({ length: 40 }, () => first());
const seeks = [4, 60, 61, 64, 252, 256, 447, 448, 1000, 40000].map((offset) => {
  const next = fairStream(streamSeed, offset);
  return { offset, words: Array.from({ length: 6 }, () => next()) };
});

// A whole shuffle of 0..51 on the fresh fair stream of the zero game seed
// (also what the chacha20-spec-v1 shuffle registry entry gives for seed
// 32 zero bytes), with the words it consumed.
const zeroSeed = Buffer.alloc(32);
let zeroWords = 0;
const zeroNext0 = fairStream(zeroSeed);
const zeroNext = () => (zeroWords++, zeroNext0());
const shuffle52 = { gameSeedHex: hex(zeroSeed), perm: shuffle(zeroNext, [...Array(52).keys()]), words: 0 };
shuffle52.words = zeroWords;

// The start of a fair game: "worked example" seeds with three players.
const we = contributionSets[5];
const weServer = serverSeeds[we.serverSeed];
const weGame = gameSeed(weServer, we.contributions.map((h) => Buffer.from(h, "hex")));
const fairStart = {
  serverSeedHex: hex(weServer),
  contributionsHex: we.contributions,
  commitmentHex: hex(commitment(weServer)),
  gameSeedHex: hex(weGame),
  saltKeyHex: hex(saltKeyFair(weServer)),
  ...start(fairStream(weGame), saltKeyFair(weServer), we.contributions.length),
};

// The start of a seeded game: fixture 01's seed, four players.
const seededStart = {
  seed: "seed-start-01",
  saltKeyHex: hex(saltKeySeeded("seed-start-01")),
  ...start(sfc32(...cyrb128("seed-start-01")), saltKeySeeded("seed-start-01"), 4),
};

const out = {
  _generated: "by rng/fair/testdata/gen.mjs; do not edit",
  commitments,
  gameSeeds,
  seededSaltKeys,
  salts,
  deckCommitments: deckCases,
  stream: { gameSeedHex: hex(streamSeed), words: streamWords, seeks },
  shuffle52,
  fairStart,
  seededStart,
};
writeFileSync(join(here, "vectors.json"), JSON.stringify(out, null, 1) + "\n");
console.log("wrote", join(here, "vectors.json"));
