// gen.mjs writes vectors.json: the commit-reveal hashes of package
// commitreveal (Commit, FinalSeed) and the dealt order of each round,
// computed independently with Node's crypto (OpenSSL's SHA-256 and
// ChaCha20), for vectors_test.go to check the Go code against.
//
// Run from the repository root:  node rng/commitreveal/testdata/gen.mjs
//
// The encoding (see rng/commitreveal/doc.go): u32(x) = x as 4 big-endian
// bytes; field(b) = u32(len(b)) || b.
//   commit     = SHA-256(field("fairboard/commit/v1") || field(server_seed)
//                        || u32(len(deck)) || field(card_0) || ...)
//   final_seed = SHA-256(field("fairboard/final-seed/v1") || field(server_seed)
//                        || field(client_seed))
//   dealt      = ADR-005 fisher-yates-v1 of the deck over ChaCha20 with
//                key = SHA-256(final_seed), zero nonce, counter 0:
//                for i = n-1 down to 1: j = (next 8 bytes, big-endian) % (i+1); swap.
// Card names are UTF-8.
//
// Do not edit vectors.json by hand: it is this script's output.

import { createCipheriv, createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}
function field(b) {
  const buf = Buffer.from(b);
  return Buffer.concat([u32(buf.length), buf]);
}
function sha256(...parts) {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

function commit(serverSeed, deck) {
  return sha256(
    field(Buffer.from("fairboard/commit/v1", "utf8")),
    field(serverSeed),
    u32(deck.length),
    ...deck.map((c) => field(Buffer.from(c, "utf8"))),
  );
}

function finalSeed(serverSeed, clientSeed) {
  return sha256(
    field(Buffer.from("fairboard/final-seed/v1", "utf8")),
    field(serverSeed),
    field(clientSeed),
  );
}

function shuffle(seed, deck) {
  const key = sha256(seed);
  const ks = createCipheriv("chacha20", key, Buffer.alloc(16)).update(Buffer.alloc(8 * deck.length + 8));
  let pos = 0;
  const out = deck.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const v = ks.readBigUInt64BE(pos);
    pos += 8;
    const j = Number(v % BigInt(i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// The standard deck of rng.NewDeck: suits S, H, D, C; ranks A, 2..10, J, Q, K.
const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const std = [];
for (const s of ["S", "H", "D", "C"]) for (const r of ranks) std.push(r + s);

const seq = (n, f) => Buffer.from(Array.from({ length: n }, (_, i) => f(i) & 0xff));

const cases = [
  { about: "zero server seed, client seed 'a', standard deck", server: Buffer.alloc(32), client: Buffer.from("a"), deck: std },
  { about: "server seed 0xff x32, client seed 0x00 x32, standard deck", server: Buffer.alloc(32, 0xff), client: Buffer.alloc(32), deck: std },
  { about: "server seed 0..31, client seed 256 bytes (the maximum), standard deck", server: seq(32, (i) => i), client: seq(256, (i) => 255 - i), deck: std },
  { about: "ambiguity under plain concatenation, part 1: deck [\"1\", \"0D\"]", server: seq(32, (i) => 7 * i + 1), client: Buffer.from("0D"), deck: ["1", "0D"] },
  { about: "ambiguity under plain concatenation, part 2: deck [\"10D\"]", server: seq(32, (i) => 7 * i + 1), client: Buffer.from("0D"), deck: ["10D"] },
  { about: "one card, UTF-8 names", server: seq(32, (i) => 3 * i), client: Buffer.from([0]), deck: ["A♠"] },
  { about: "small custom deck of UTF-8 names", server: seq(32, (i) => 255 - i), client: Buffer.from("client-nonce-42"), deck: ["A♠", "K♥", "Q♦", "J♣", "10♠", "joker"] },
];

const vectors = cases.map((c) => {
  const fs = finalSeed(c.server, c.client);
  return {
    about: c.about,
    server_seed_hex: c.server.toString("hex"),
    client_seed_hex: c.client.toString("hex"),
    deck: c.deck,
    commit_hex: commit(c.server, c.deck).toString("hex"),
    final_seed_hex: fs.toString("hex"),
    dealt: shuffle(fs, c.deck),
  };
});

const out = {
  about: "commitreveal Commit/FinalSeed/dealt order, computed with Node's crypto (OpenSSL). Written by gen.mjs; do not edit by hand.",
  commit_domain: "fairboard/commit/v1",
  final_seed_domain: "fairboard/final-seed/v1",
  algorithm: "fisher-yates-v1",
  vectors,
};

const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "vectors.json"), JSON.stringify(out, null, 1) + "\n");
