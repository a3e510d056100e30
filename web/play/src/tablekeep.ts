// A trustless table's seat kept on this device (docs/play.md, "Trustless
// tables"): the secrets the WebAssembly's seat gives (trustseat's Export:
// its chain's secret, its key's seed, the seed of its deal keys, the last
// index it revealed), stored as an opaque string in the same IndexedDB
// store as the dungeon's seats (database "fairboard", store "seats"), key
// "table/uid/gameId", with strict durability before the action they
// signed is sent; and the same kind of Web Lock per seat
// ("fairboard-seat/table/uid/gameId"), so that two tabs of one player
// never prepare an action or a reveal from secrets the other has moved
// past. The page never reads the secrets and never sends them.

import { open } from "./trust";

const STORE = "seats";

/** TableSeatRecord is a table seat's record in the store. */
interface TableSeatRecord {
  key: string;
  /** secrets is the WebAssembly's blob, opaque here. */
  secrets: string;
}

function tableKey(uid: string, gameId: string): string {
  return "table/" + uid + "/" + gameId;
}

/** loadSecrets reads the seat's secrets kept on this device, or null. */
export async function loadSecrets(uid: string, gameId: string): Promise<string | null> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const r = db.transaction(STORE, "readonly").objectStore(STORE).get(tableKey(uid, gameId));
    r.onsuccess = () => resolve(((r.result as TableSeatRecord | undefined) ?? null)?.secrets ?? null);
    r.onerror = () => reject(r.error);
  });
}

/** saveSecrets stores the seat's secrets; the promise resolves once the
 * browser reports them on disk (strict durability). */
export async function saveSecrets(uid: string, gameId: string, secrets: string): Promise<void> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, "readwrite", { durability: "strict" });
    const rec: TableSeatRecord = { key: tableKey(uid, gameId), secrets };
    tx.objectStore(STORE).put(rec);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("the IndexedDB write was aborted"));
  });
}

/** withTableLock runs fn holding the seat's Web Lock (without one, where
 * the browser has no Web Locks, fn runs as it is). */
export function withTableLock<T>(uid: string, gameId: string, fn: () => Promise<T>): Promise<T> {
  if (!navigator.locks) return fn();
  return navigator.locks.request("fairboard-seat/" + tableKey(uid, gameId), fn);
}
