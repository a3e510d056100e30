// gen.mjs writes vectors.json: ADR-005's "fisher-yates-v1" numbers computed
// with an independent ChaCha20 (OpenSSL's, through Node's crypto), for
// rng/chacha20_test.go to check the Go code against, bit for bit.
//
// Run from the repository root:  node rng/testdata/chacha20/gen.mjs
//
// Sources (see README.md in this folder):
//   - ChaCha20: RFC 8439, as implemented by OpenSSL. OpenSSL's "chacha20"
//     cipher takes a 16-byte IV = 4-byte little-endian block counter
//     followed by the 12-byte nonce. Before anything else this script checks
//     OpenSSL against RFC 8439 section 2.4.2's published example and aborts
//     if it differs.
//   - The RNG: ADR-005 (docs/spec/ADR-005-deterministic-rng.md),
//     "Seeded RNG Implementation": key = SHA-256(seed), zero 12-byte nonce,
//     counter 0; Intn(n) = (next 8 keystream bytes as big-endian uint64) % n;
//     Shuffle = "for i = len-1 down to 1: j = Intn(i+1); swap".
//   - uint32 = next 4 keystream bytes big-endian (this project's Source
//     adapter, not in the ADR).
//   - The deck names: this project's order (rng/chacha20.go): suits S, H, D,
//     C; ranks A, 2..10, J, Q, K; card i = rank i%13 of suit i/13.
//
// Do not edit vectors.json by hand: it is this script's output.

import { createCipheriv, createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

// ---- OpenSSL ChaCha20, checked against RFC 8439 ---------------------------

function chachaKeystream(key, nonce12, counter, length) {
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter, 0);
  Buffer.from(nonce12).copy(iv, 4);
  const c = createCipheriv("chacha20", Buffer.from(key), iv);
  return Buffer.concat([c.update(Buffer.alloc(length)), c.final()]);
}

// RFC 8439 section 2.4.2: "Example and Test Vector for the ChaCha20 Cipher".
const rfcKey = Buffer.from([...Array(32).keys()]); // 00:01:02:...:1f
const rfcNonce = Buffer.from("000000000000004a00000000", "hex");
const rfcCounter = 1;
const rfcPlain = Buffer.from(
  "Ladies and Gentlemen of the class of '99: If I could offer you only one " +
    "tip for the future, sunscreen would be it.",
  "ascii",
);
const rfcCipherHex =
  "6e2e359a2568f98041ba0728dd0d6981" +
  "e97e7aec1d4360c20a27afccfd9fae0b" +
  "f91b65c5524733ab8f593dabcd62b357" +
  "1639d624e65152ab8f530c359f0861d8" +
  "07ca0dbf500d6a6156a38e088a22b65e" +
  "52bc514d16ccf806818ce91ab7793736" +
  "5af90bbf74a35be6b40b8eedf2785e42" +
  "874d";

{
  const ks = chachaKeystream(rfcKey, rfcNonce, rfcCounter, rfcPlain.length);
  const ct = Buffer.alloc(rfcPlain.length);
  for (let i = 0; i < ct.length; i++) ct[i] = rfcPlain[i] ^ ks[i];
  if (ct.toString("hex") !== rfcCipherHex) {
    console.error("OpenSSL ChaCha20 does not reproduce RFC 8439 2.4.2:");
    console.error(" got  " + ct.toString("hex"));
    console.error(" want " + rfcCipherHex);
    process.exit(1);
  }
}

// ---- ADR-005's SeededRNG ---------------------------------------------------

class SeededRNG {
  constructor(seed) {
    const key = createHash("sha256").update(seed).digest();
    // Enough keystream for every sequence below (at most 51 Intn calls or
    // 32 reads of 8 bytes per fresh stream).
    this.ks = chachaKeystream(key, Buffer.alloc(12), 0, 4096);
    this.pos = 0;
  }
  take(n) {
    const b = this.ks.subarray(this.pos, this.pos + n);
    if (b.length !== n) throw new Error("keystream exhausted");
    this.pos += n;
    return b;
  }
  uint64() { return this.take(8).readBigUInt64BE(0); }
  uint32() { return this.take(4).readUInt32BE(0); }
  intn(n) { return Number(this.uint64() % BigInt(n)); }
  shuffle(arr) {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = this.intn(i + 1);
      [arr[i], arr[j]] = [arr[j], arr[i]];
    }
    return arr;
  }
}

function deck() {
  const out = [];
  for (const s of ["S", "H", "D", "C"]) {
    for (const r of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]) {
      out.push(r + s);
    }
  }
  return out;
}

const seeds = [
  { name: "empty", hex: "" },
  { name: "a", hex: Buffer.from("a").toString("hex") },
  { name: "zero32 (ADR-005 'Zero seed')", hex: "00".repeat(32) },
  { name: "ff32 (ADR-005 'Max seed')", hex: "ff".repeat(32) },
  {
    name: "long (200 bytes 0x00..0xc7)",
    hex: Buffer.from([...Array(200).keys()]).toString("hex"),
  },
];
const intnNs = [1, 2, 6, 37, 52, 1000003, 4294967311, 9007199254740991];

const vectors = seeds.map(({ name, hex }) => {
  const seed = Buffer.from(hex, "hex");
  const fresh = () => new SeededRNG(seed);
  const key = createHash("sha256").update(seed).digest("hex");
  const r = fresh();
  const keystream256 = r.take(256).toString("hex");
  const intn = intnNs.map((n) => {
    const g = fresh();
    return { n, values: Array.from({ length: 32 }, () => g.intn(n)) };
  });
  const u64 = fresh();
  const u32 = fresh();
  return {
    name,
    seed_hex: hex,
    key_hex: key,
    keystream256_hex: keystream256,
    uint64: Array.from({ length: 16 }, () => u64.uint64().toString()),
    uint32: Array.from({ length: 32 }, () => u32.uint32()),
    intn,
    shuffle52: fresh().shuffle([...Array(52).keys()]),
    deck: fresh().shuffle(deck()),
  };
});

const out = {
  about:
    "ADR-005 fisher-yates-v1 over OpenSSL's ChaCha20 (Node crypto), checked " +
    "against RFC 8439 2.4.2 first. Written by gen.mjs; do not edit by hand.",
  algorithm: "fisher-yates-v1",
  rfc8439_2_4_2: {
    key_hex: rfcKey.toString("hex"),
    nonce_hex: rfcNonce.toString("hex"),
    counter: rfcCounter,
    plaintext: rfcPlain.toString("ascii"),
    ciphertext_hex: rfcCipherHex,
  },
  vectors,
};

const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "vectors.json"), JSON.stringify(out, null, 1) + "\n");
console.log("wrote vectors.json:", vectors.length, "seeds");
