// gen.mjs writes vectors.json: the derivations of fairboard's trustless
// games and of the fair mode's contribution commitments (issue 18,
// docs/fairness.md "The trustless mode"), computed by an implementation
// independent of the Go code, for rng/trustless, rng/fair and the engine
// (a whole trustless start) to check themselves against.
//
// Run from the repository root (Node 20 or later):
//
//     node rng/trustless/testdata/gen.mjs            # rewrites vectors.json
//     node rng/trustless/testdata/gen.mjs --stdout   # prints it instead
//
// rng/trustless's TestVectorsAreNodes runs the second form and requires the
// committed file to be exactly its output.
//
// Sources, transcribed here from their definitions, not from the Go code:
//   - SHA-256, ChaCha20 and Ed25519: Node's crypto (OpenSSL). OpenSSL's
//     "chacha20" takes a 16-byte IV = 4-byte little-endian block counter
//     followed by the 12-byte nonce; this script first checks it against
//     RFC 8439 section 2.4.2, and Ed25519 against RFC 8032 section 7.1
//     TEST 1, and aborts if either differs.
//   - field(b) = 4-byte big-endian length of b, then b; u32be, u64be: 4 or
//     8 bytes big-endian; u8(bool) one byte 1 or 0. From issue 18 section 2:
//       x_(i-1) = SHA-256(field("fairboard/chain/v1") ‖ field(gameId) ‖ u32be(seat) ‖ u32be(i) ‖ x_i), head x_0
//       R_v     = SHA-256(field("fairboard/trustless/v1") ‖ field(gameId) ‖ u32be(v) ‖ field(digest) ‖ x_v of each seat in seat order)
//       stream  = ChaCha20, key R_v, zero nonce, counter 0, words = 4 keystream bytes big-endian
//       draw    = j = uniformInt(0, remaining-1); swap pile[j] with the last; remove the last
//       fair    = SHA-256(field("fairboard/fair-commit/v1") ‖ field(gameId) ‖ u32be(seat) ‖ field(c))
//     and docs/fairness.md's definitions of the action's canonical
//     encoding, its digest, the signed messages and the transcript.
//   - The spec's uniformInt (RNG_AND_SHUFFLING.md v1.0): n = max-min+1,
//     limit = floor(2^32/n)*n, draw words until u < limit, min + u % n.
//   - The default ruleset's decks: games/dungeon/engine/rules/default.json, each deck's
//     cards in file order, card "<id>-<n>" for n = 1..count.
//
// Do not edit vectors.json by hand: it is this script's output.

import { createCipheriv, createHash, createPrivateKey, createPublicKey, sign } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..", "..");

// ---- primitives, checked against their RFCs ---------------------------------

function chachaKeystream(key, length) {
  const iv = Buffer.alloc(16); // counter 0, nonce 0
  const c = createCipheriv("chacha20", Buffer.from(key), iv);
  return Buffer.concat([c.update(Buffer.alloc(length)), c.final()]);
}

{
  const key = Buffer.from([...Array(32).keys()]);
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(1, 0);
  Buffer.from("000000000000004a00000000", "hex").copy(iv, 4);
  const plain = Buffer.from(
    "Ladies and Gentlemen of the class of '99: If I could offer you only one " +
      "tip for the future, sunscreen would be it.",
    "ascii",
  );
  const c = createCipheriv("chacha20", key, iv);
  const ct = Buffer.concat([c.update(plain), c.final()]);
  if (!ct.toString("hex").startsWith("6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b")) {
    console.error("OpenSSL ChaCha20 does not reproduce RFC 8439 2.4.2");
    process.exit(1);
  }
}

const ed25519Key = (seed) =>
  createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });
const ed25519Public = (priv) => createPublicKey(priv).export({ format: "der", type: "spki" }).subarray(-32);
const ed25519Sign = (priv, msg) => sign(null, msg, priv);

{
  // RFC 8032 7.1 TEST 1: empty message.
  const priv = ed25519Key(Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex"));
  const pub = ed25519Public(priv).toString("hex");
  const sig = ed25519Sign(priv, Buffer.alloc(0)).toString("hex");
  if (
    pub !== "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a" ||
    sig !==
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
  ) {
    console.error("Node's Ed25519 does not reproduce RFC 8032 7.1 TEST 1");
    process.exit(1);
  }
}

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
const u64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n), 0);
  return b;
};
const u8 = (v) => Buffer.from([v ? 1 : 0]);
const field = (b) => Buffer.concat([u32(b.length), Buffer.from(b)]);
const utf8 = (s) => Buffer.from(s, "utf8");
const hex = (b) => Buffer.from(b).toString("hex");
const counting = (n) => Buffer.from([...Array(n).keys()].map((i) => i & 0xff));

// ---- the derivations --------------------------------------------------------

const prev = (gameId, seat, i, x) => sha256(field(utf8("fairboard/chain/v1")), field(utf8(gameId)), u32(seat), u32(i), x);

// chain returns [x_0, x_1, ..., x_n].
function chain(gameId, seat, n, secret) {
  const xs = new Array(n + 1);
  xs[n] = secret;
  for (let i = n; i >= 1; i--) xs[i - 1] = prev(gameId, seat, i, xs[i]);
  return xs;
}

const randomness = (gameId, v, digest, links) =>
  sha256(field(utf8("fairboard/trustless/v1")), field(utf8(gameId)), u32(v), field(digest), ...links);

function words(key) {
  const ks = chachaKeystream(key, 64 * 1024);
  let pos = 0;
  const next = () => {
    const v = ks.readUInt32BE(pos);
    pos += 4;
    return v;
  };
  next.used = () => pos / 4;
  return next;
}

function uniformInt(next, min, max) {
  const n = max - min + 1;
  const limit = Math.floor(4294967296 / n) * n;
  let u;
  do u = next(); while (u >= limit);
  return min + (u % n);
}

const fairCommit = (gameId, seat, c) => sha256(field(utf8("fairboard/fair-commit/v1")), field(utf8(gameId)), u32(seat), field(c));

// canonical(action), docs/fairness.md: every field in a fixed order.
function canonical(a) {
  return Buffer.concat([
    field(utf8(a.kind)),
    field(utf8(a.actor)),
    u64(a.version ?? 0),
    field(utf8(a.mode ?? "")),
    u8(a.audit ?? false),
    u32(a.chainLength ?? 0),
    u64(a.deadlineMs ?? 0),
    u32(a.seat ?? 0),
    field(utf8(a.class ?? "")),
    u8(a.keepSmokeBomb ?? false),
    field(a.chainHead ?? Buffer.alloc(0)),
    field(a.publicKey ?? Buffer.alloc(0)),
    field(utf8(a.target ?? "")),
    field(utf8(a.cardId ?? "")),
  ]);
}
const actionDigest = (gameId, c) => sha256(field(utf8("fairboard/action-digest/v1")), field(utf8(gameId)), field(c));
const actionMessage = (gameId, c) => Buffer.concat([field(utf8("fairboard/sign-action/v1")), field(utf8(gameId)), field(c)]);
const revealMessage = (gameId, v, digest, transcript) =>
  Buffer.concat([field(utf8("fairboard/sign-reveal/v1")), field(utf8(gameId)), u32(v), field(digest), field(transcript)]);
const transcriptStart = (gameId, rulesHash) => sha256(field(utf8("fairboard/transcript/v1")), field(utf8(gameId)), field(utf8(rulesHash)));
const transcriptAction = (prevT, digest, sig) => sha256(field(utf8("fairboard/transcript/v1")), prevT, u8(true), digest, field(sig));
const transcriptRound = (prevT, v, links) =>
  sha256(field(utf8("fairboard/transcript/v1")), prevT, Buffer.from([2]), u32(v), u32(links.length), ...links);

// ---- the cases --------------------------------------------------------------

const fields = [Buffer.alloc(0), utf8("fairboard/chain/v1"), counting(32)].map((b) => ({ hex: hex(b), fieldHex: hex(field(b)) }));

const chains = [
  { gameId: "g", seat: 3, n: 8, secret: counting(32) },
  { gameId: "é🎲", seat: 0, n: 5, secret: Buffer.alloc(32, 0xff) },
  { gameId: "g", seat: 4294967295, n: 1, secret: Buffer.alloc(32) },
].map((c) => ({ gameId: c.gameId, seat: c.seat, n: c.n, secretHex: hex(c.secret), linksHex: chain(c.gameId, c.seat, c.n, c.secret).map(hex) }));

const fairCommitments = [
  { gameId: "g1", seat: 0, c: Buffer.alloc(32) },
  { gameId: "tl-example", seat: 2, c: counting(32) },
  { gameId: "é", seat: 4294967295, c: Buffer.alloc(32, 0xff) },
].map((x) => ({ gameId: x.gameId, seat: x.seat, contributionHex: hex(x.c), commitmentHex: hex(fairCommit(x.gameId, x.seat, x.c)) }));

// The worked example of docs/fairness.md: a three-player trustless game
// under the default ruleset, from create to its start's round.
const rulesHash = "a55090ee5f6709f675c07f257e1f4ec20483f08c57f2c1b1413eec5ceb6c5ecb"; // GameCreated.rulesHash of the default ruleset (an input)
const gameId = "tl-example";
const N = 65536;
const classes = ["warrior", "monk", "duelist"];
const seats = [0, 1, 2].map((s) => {
  const secret = sha256(utf8("fairboard trustless example chain " + s));
  const keySeed = sha256(utf8("fairboard trustless example key " + s));
  const priv = ed25519Key(keySeed);
  const xs = chain(gameId, s, N, secret);
  return { seat: s, uid: "p" + (s + 1), secret, keySeed, priv, pub: ed25519Public(priv), xs };
});
let T = transcriptStart(gameId, rulesHash);
const records = [];
const apply = (a, signer) => {
  const c = canonical(a);
  const digest = actionDigest(gameId, c);
  const sig = signer ? ed25519Sign(signer.priv, actionMessage(gameId, c)) : Buffer.alloc(0);
  T = transcriptAction(T, digest, sig);
  records.push({ kind: a.kind, actor: a.actor, version: a.version, canonicalHex: hex(c), digestHex: hex(digest), signatureHex: hex(sig), transcriptHex: hex(T) });
  return digest;
};
const transcript0 = hex(T);
apply({ kind: "create", actor: "p1", version: 0, mode: "trustless", chainLength: N, deadlineMs: 60000 }, null);
for (const s of seats) {
  apply({ kind: "join", actor: s.uid, version: 1 + s.seat, seat: s.seat, class: classes[s.seat], chainHead: s.xs[0], publicKey: s.pub }, s);
}
const startDigest = apply({ kind: "start", actor: "p1", version: 4 }, seats[0]);
const pendingTranscript = T;
const reveals = seats.map((s) => ({
  seat: s.seat,
  linkHex: hex(s.xs[1]),
  signatureHex: hex(ed25519Sign(s.priv, revealMessage(gameId, 1, startDigest, pendingTranscript))),
}));
const r1 = randomness(gameId, 1, startDigest, seats.map((s) => s.xs[1]));
const afterRound = transcriptRound(pendingTranscript, 1, seats.map((s) => s.xs[1]));
const w = words(r1);
const r1Words = Array.from({ length: 16 }, () => w());
const dw = words(r1);
const turnOrderDice = seats.map(() => uniformInt(dw, 1, 6));
// GAME_RULES.md's tie-break: tied groups re-roll, highest group first, each
// group in seat order, until no two players share a place.
const tieBreakDice = [];
function order(group) {
  // group: [{uid, seat, v}], returns the uids in turn order
  const sorted = [...group].sort((a, b) => b.v - a.v || a.seat - b.seat);
  const out = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && sorted[j].v === sorted[i].v) j++;
    if (j === i + 1) {
      out.push(sorted[i].uid);
    } else {
      const tied = sorted.slice(i, j).sort((a, b) => a.seat - b.seat).map((e) => ({ ...e, v: uniformInt(dw, 1, 6) }));
      for (const e of tied) tieBreakDice.push({ uid: e.uid, value: e.v });
      out.push(...order(tied));
    }
    i = j;
  }
  return out;
}
const turnOrder = order(seats.map((s, i) => ({ uid: s.uid, seat: s.seat, v: turnOrderDice[i] })));

// Draws: the default ruleset's treasure.t1 pile, in its initial order,
// drawn to the end on the fresh stream of R_1.
const rules = JSON.parse(readFileSync(join(root, "games", "dungeon", "engine", "rules", "default.json"), "utf8"));
const t1 = [];
for (const c of rules.decks.find((d) => d.id === "treasure.t1").cards) for (let n = 1; n <= c.count; n++) t1.push(`${c.id}-${n}`);
const pile = [...t1];
const drawNext = words(r1);
const draws = [];
while (pile.length > 0) {
  const j = uniformInt(drawNext, 0, pile.length - 1);
  [pile[j], pile[pile.length - 1]] = [pile[pile.length - 1], pile[j]];
  draws.push({ remaining: pile.length, j, cardId: pile.pop() });
}

const example = {
  gameId,
  rulesHash,
  chainLength: N,
  transcript0Hex: transcript0,
  seats: seats.map((s) => ({
    seat: s.seat,
    uid: s.uid,
    class: classes[s.seat],
    secretHex: hex(s.secret),
    keySeedHex: hex(s.keySeed),
    publicKeyHex: hex(s.pub),
    headHex: hex(s.xs[0]),
    link1Hex: hex(s.xs[1]),
    link2Hex: hex(s.xs[2]),
    link256Hex: hex(s.xs[256]),
    link65535Hex: hex(s.xs[65535]),
  })),
  records,
  pending: { index: 1, digestHex: hex(startDigest), transcriptHex: hex(pendingTranscript) },
  reveals,
  r1Hex: hex(r1),
  r1Words,
  turnOrderDice,
  tieBreakDice,
  turnOrder,
  transcriptAfterRoundHex: hex(afterRound),
  draws: { pile: t1, keyHex: hex(r1), draws, words: drawNext.used() },
};

const out = {
  _generated: "by rng/trustless/testdata/gen.mjs; do not edit",
  fields,
  chains,
  fairCommitments,
  example,
};
const text = JSON.stringify(out, null, 1) + "\n";
if (process.argv.includes("--stdout")) {
  process.stdout.write(text);
} else {
  writeFileSync(join(here, "vectors.json"), text);
  console.log("wrote", join(here, "vectors.json"));
}
