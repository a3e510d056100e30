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

import { getRecord, putRecord } from "./trust";


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
  return (await getRecord<TableSeatRecord>(tableKey(uid, gameId)))?.secrets ?? null;
}

/** saveSecrets stores the seat's secrets; the promise resolves once the
 * browser reports them on disk (strict durability). */
export function saveSecrets(uid: string, gameId: string, secrets: string): Promise<void> {
  const rec: TableSeatRecord = { key: tableKey(uid, gameId), secrets };
  return putRecord(rec);
}

/** withTableLock runs fn holding the seat's Web Lock (without one, where
 * the browser has no Web Locks, fn runs as it is). */
export function withTableLock<T>(uid: string, gameId: string, fn: () => Promise<T>): Promise<T> {
  if (!navigator.locks) return fn();
  return navigator.locks.request("fairboard-seat/" + tableKey(uid, gameId), fn);
}
