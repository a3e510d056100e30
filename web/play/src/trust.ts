// A trustless game's secrets, kept on this device: the seat's chain
// secret and signing key in IndexedDB (the key a non-extractable WebCrypto
// Ed25519 key where the browser has one), and a Web Lock per seat so that
// two tabs of one player never both sign or reveal. docs/play.md,
// "Trustless games", says what is kept and when.

import { toHex, type Engine, type SeatSecrets } from "./engine";
import type { Action } from "./types";

/** SeatRecord is one seat's record in IndexedDB (store "seats", key
 * "uid/gameId"). */
export interface SeatRecord extends SeatSecrets {
  key: string;
  /** signKey is the private key, non-extractable (WebCrypto Ed25519). */
  signKey?: CryptoKey;
  /** seed is the key's seed, hex, where WebCrypto has no Ed25519 (the
   * engine signs with it then). */
  seed?: string;
  /** reveal is the last reveal made (index `revealed`), signed, with its
   * link: sent again, unchanged, until the server has acknowledged it. */
  reveal?: Record<string, unknown>;
  /** acked: the server answered the reveal (staged, applied, or the
   * round moved on). */
  acked?: boolean;
  /** signedVersion is the last game version this seat signed an action
   * against (a second action against it is refused here: another tab or
   * an earlier click signed one). */
  signedVersion?: number;
  /** signedAction is that action's request, sent again unchanged. */
  signedAction?: { fn: string; data: Record<string, unknown> };
  /** signedBy names the tab that signed it (another tab's action is
   * said as such: "This seat moved in another tab"). */
  signedBy?: string;
}

const DB = "fairboard";
const STORE = "seats";

let dbp: Promise<IDBDatabase> | null = null;

/** open opens the database (the trustless tables keep their seats in the
 * same store: tablekeep.ts). */
export function open(): Promise<IDBDatabase> {
  dbp ??= new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: "key" });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return dbp;
}

export function seatKey(uid: string, gameId: string): string {
  return uid + "/" + gameId;
}

/** getRecord reads the record of key in the seats store, or undefined.
 * The seats of the dungeon's trustless games (this file), the trustless
 * tables' seats (tablekeep.ts) and the openings' contributions
 * (tableopen.ts) share the store, each under its own key prefix. */
export async function getRecord<T>(key: string): Promise<T | undefined> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const r = db.transaction(STORE, "readonly").objectStore(STORE).get(key);
    r.onsuccess = () => resolve(r.result as T | undefined);
    r.onerror = () => reject(r.error);
  });
}

/** putRecord writes rec (its key in rec.key) with strict durability: the
 * promise resolves once the browser reports it on disk, so that nothing
 * that depends on it is sent before it is kept. */
export async function putRecord(rec: { key: string }): Promise<void> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, "readwrite", { durability: "strict" });
    tx.objectStore(STORE).put(rec);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("the IndexedDB write was aborted"));
  });
}

/** load reads a seat's record, or null. */
export async function load(uid: string, gameId: string): Promise<SeatRecord | null> {
  return (await getRecord<SeatRecord>(seatKey(uid, gameId))) ?? null;
}

/** save writes a seat's record (putRecord: a link is never sent before
 * its index and digest are stored). */
export function save(rec: SeatRecord): Promise<void> {
  return putRecord(rec);
}

/** withSeatLock runs fn holding the seat's Web Lock: one tab at a time
 * signs or reveals for a seat, reading its record inside the lock
 * (never a copy from before) and writing it back there. */
export function withSeatLock<T>(uid: string, gameId: string, fn: () => Promise<T>): Promise<T> {
  return navigator.locks.request("fairboard-seat/" + seatKey(uid, gameId), fn);
}

/** newSeat draws a seat's secrets on this device: the chain's secret x_N
 * (crypto.getRandomValues) and an Ed25519 key (WebCrypto, not
 * extractable; a seed the engine signs with where the browser has no
 * Ed25519). Nothing is sent: the caller stores it, then joins. */
export async function newSeat(engine: Engine, gameId: string, uid: string, seat: number, chainLength: number): Promise<SeatRecord> {
  const secret = new Uint8Array(32);
  crypto.getRandomValues(secret);
  const rec: SeatRecord = {
    key: seatKey(uid, gameId),
    gameId,
    uid,
    seat,
    chainLength,
    chainSecret: toHex(secret),
    publicKey: "",
    revealed: 0,
    digest: "0".repeat(64),
  };
  try {
    const kp = (await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"])) as CryptoKeyPair;
    rec.signKey = kp.privateKey;
    rec.publicKey = toHex(new Uint8Array(await crypto.subtle.exportKey("raw", kp.publicKey)));
  } catch {
    const seed = new Uint8Array(32);
    crypto.getRandomValues(seed);
    rec.seed = toHex(seed);
    rec.publicKey = engine.seedSign(rec.seed, new Uint8Array(0)).publicKey;
  }
  return rec;
}

/** keyKind says where the seat's key lives, for the page. */
export function keyKind(rec: SeatRecord): string {
  return rec.signKey ? "a non-extractable WebCrypto Ed25519 key" : "a key the page signs with in WebAssembly (this browser's WebCrypto has no Ed25519)";
}

/** sign signs msg with the seat's key: 128 hex digits. */
export async function sign(engine: Engine, rec: SeatRecord, msg: Uint8Array): Promise<string> {
  if (rec.signKey) return toHex(new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, rec.signKey, msg as BufferSource)));
  if (rec.seed) return engine.seedSign(rec.seed, msg).signature;
  throw new Error("this seat has no key on this device");
}

/** secretsOf is what the engine is given of a record. */
export function secretsOf(rec: SeatRecord): SeatSecrets {
  const { gameId, uid, seat, chainLength, chainSecret, publicKey, revealed, digest } = rec;
  return { gameId, uid, seat, chainLength, chainSecret, publicKey, revealed, digest };
}

/** signAction signs the seat's action a (its actor, version and fields
 * as the engine encodes them) and returns the signature. */
export async function signAction(engine: Engine, rec: SeatRecord, a: Action & { version: number }): Promise<string> {
  return sign(engine, rec, engine.signBytes(a));
}
