// How the page reaches the game: who the player is (Firebase Auth, or the
// development sign-in by name), how it calls the functions (the callable
// protocol: httpsCallable), and how it follows a game (Firestore listeners
// on the game document and its log; or, on a server that keeps games in
// memory, getView polled).

import { initializeApp, type FirebaseApp } from "firebase/app";
import {
  initializeAuth,
  indexedDBLocalPersistence,
  browserLocalPersistence,
  connectAuthEmulator,
  onAuthStateChanged,
  signInAnonymously,
  signInWithEmailAndPassword,
  createUserWithEmailAndPassword,
  signOut,
  type Auth,
} from "firebase/auth";
import {
  initializeFirestore,
  connectFirestoreEmulator,
  doc,
  collection,
  query,
  orderBy,
  documentId,
  startAfter,
  startAt,
  endBefore,
  onSnapshot,
  getDocs,
  setLogLevel,
  type Firestore,
} from "firebase/firestore";
import { getFunctions, httpsCallableFromURL, type Functions } from "firebase/functions";

import { CallError } from "./callerror";
import { functionURL, type Config } from "./config";
import { docId, eventsOfDoc, InOrder } from "./log";
import type { GameEvent, Mark, Public, View } from "./types";

/** User is the signed-in player. */
export interface User {
  uid: string;
  /** label says how they signed in ("guest", an email, a dev name). */
  label: string;
}

// CallError lives in callerror.ts (no Firebase there: errors.ts and its
// Node tests use it); the page imports it from here as before.
export { CallError };

/** Watch is what a followed game reports. */
export interface WatchHandlers {
  state(p: Public): void;
  events(evs: GameEvent[]): void;
  /** marks: the open round's reveal markers, all of them, each time they
   * change (a trustless game). */
  marks(ms: Mark[]): void;
  /** names: the players' names copied into the game, by uid, each time
   * they change (games/{id}/names/all; getView's names when polled). */
  names(m: Record<string, string>): void;
  /** status: "live", "cache" (offline, showing what was last read),
   * "polling", or an error text. */
  status(s: string, err?: unknown): void;
}

export interface Backend {
  /** live: the game is followed with listeners (false: polled). */
  readonly live: boolean;
  onUser(fn: (u: User | null) => void): void;
  signInGuest(): Promise<void>;
  signInEmail(email: string, password: string, create: boolean): Promise<void>;
  signInDev(name: string): Promise<void>;
  signOut(): Promise<void>;
  call<T>(name: string, data: object): Promise<T>;
  /** watch follows a game from after the log's seq afterSeq. */
  watch(gameId: string, afterSeq: number, h: WatchHandlers): () => void;
  /** firestore is the database a page listens to (a table game's page:
   * tablewatch.ts), or undefined where games are polled. */
  firestore(): Firestore | undefined;
}

/** newBackend wires the configuration's choices. */
export function newBackend(c: Config): Backend {
  return c.devAuth ? new DevBackend(c) : new FirebaseBackend(c);
}

class FirebaseBackend implements Backend {
  readonly live: boolean;
  private readonly app: FirebaseApp;
  private readonly auth: Auth;
  private readonly fns: Functions;
  private db?: Firestore;

  constructor(private readonly c: Config) {
    this.app = initializeApp({ apiKey: c.apiKey, projectId: c.projectId, ...(c.authDomain ? { authDomain: c.authDomain } : {}) });
    // initializeAuth, not getAuth: no popup or redirect resolver, which
    // would load a script from Google's servers (refused by the policy).
    this.auth = initializeAuth(this.app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
    if (c.authEmulator) connectAuthEmulator(this.auth, c.authEmulator, { disableWarnings: true });
    this.fns = getFunctions(this.app);
    this.live = c.store === "firestore";
    if (this.live) {
      // ?debug in the page's address: the Firestore SDK's own log, on the
      // console, to see what a listener does.
      if (new URLSearchParams(location.search).has("debug")) setLogLevel("debug");
      this.db = initializeFirestore(this.app, {});
      if (c.firestoreEmulator) {
        const i = c.firestoreEmulator.lastIndexOf(":");
        connectFirestoreEmulator(this.db, c.firestoreEmulator.slice(0, i), Number(c.firestoreEmulator.slice(i + 1)));
      }
    }
  }

  onUser(fn: (u: User | null) => void): void {
    onAuthStateChanged(this.auth, (u) => fn(u ? { uid: u.uid, label: u.isAnonymous ? "guest" : u.email ?? u.uid } : null));
  }

  async signInGuest(): Promise<void> {
    await signInAnonymously(this.auth);
  }

  firestore(): Firestore | undefined {
    return this.db;
  }

  async signInEmail(email: string, password: string, create: boolean): Promise<void> {
    if (create) await createUserWithEmailAndPassword(this.auth, email, password);
    else await signInWithEmailAndPassword(this.auth, email, password);
  }

  async signInDev(): Promise<void> {
    throw new Error("this server uses Firebase Auth");
  }

  async signOut(): Promise<void> {
    await signOut(this.auth);
  }

  async call<T>(name: string, data: object): Promise<T> {
    const fn = httpsCallableFromURL<object, T>(this.fns, functionURL(this.c, name), { timeout: 30_000 });
    try {
      return (await fn(data)).data;
    } catch (e) {
      const err = e as { code?: string; message?: string; details?: { code?: string } };
      throw new CallError(err.code ?? "functions/internal", err.message ?? String(e), err.details);
    }
  }

  watch(gameId: string, afterSeq: number, h: WatchHandlers): () => void {
    if (!this.db) return poll(this, gameId, afterSeq, h);
    const db = this.db;
    // A trustless game's open round: its markers (games/{id}/reveals,
    // ids "{index:020}-{seat:03}"), listened to for that round only, and
    // moved when the round does.
    let round = 0;
    let offMarks: (() => void) | null = null;
    const follow = (p: Public) => {
      const r = p.phase !== "finished" && p.trustless?.pending ? p.trustless.pending.index : 0;
      if (r === round) return;
      offMarks?.();
      offMarks = null;
      round = r;
      if (!r) return;
      const pre = String(r).padStart(20, "0");
      offMarks = onSnapshot(
        query(collection(db, "games", gameId, "reveals"), orderBy(documentId()), startAt(pre + "-"), endBefore(pre + ".")),
        (snap) => h.marks(snap.docs.map((d) => d.data() as Mark)),
        (err) => h.status("error", err),
      );
    };
    const offGame = onSnapshot(
      doc(db, "games", gameId),
      { includeMetadataChanges: true },
      (snap) => {
        h.status(snap.metadata.fromCache ? "cache" : "live");
        if (snap.exists() && !snap.metadata.hasPendingWrites) {
          const p = snap.data() as Public;
          h.state(p);
          follow(p);
        }
      },
      (err) => h.status("error", err),
    );
    const offNames = onSnapshot(
      doc(db, "games", gameId, "names", "all"),
      (snap) => h.names(((snap.exists() ? snap.data()["byUid"] : null) ?? {}) as Record<string, string>),
      (err) => h.status("error", err),
    );
    const log = collection(db, "games", gameId, "log");
    const order = new InOrder(afterSeq);
    const hand = (docs: { id: string; data(): Record<string, unknown> }[]) => {
      const evs = order.take(docs.flatMap((d) => eventsOfDoc(d.id, d.data())));
      if (evs.length) h.events(evs);
    };
    // A gap that the next snapshot does not fill (a document the listener
    // missed) is read once, as a query after the last event handed on.
    let filling = false;
    const fill = () => {
      if (filling || !order.waiting) return;
      filling = true;
      getDocs(query(log, orderBy(documentId()), startAfter(docId(order.after))))
        .then((snap) => hand(snap.docs))
        .catch((err) => h.status("error", err))
        .finally(() => {
          filling = false;
        });
    };
    const q = afterSeq > 0 ? query(log, orderBy(documentId()), startAfter(docId(afterSeq))) : query(log, orderBy(documentId()));
    const offLog = onSnapshot(
      q,
      (snap) => {
        // added, or modified: a changed document is handed on too, and
        // the engine names the event that changed.
        hand(snap.docChanges().filter((ch) => ch.type !== "removed").map((ch) => ch.doc));
        fill();
      },
      (err) => h.status("error", err),
    );
    return () => {
      offGame();
      offNames();
      offLog();
      offMarks?.();
    };
  }
}

/** POLL_MS is how often a polled game asks for news. */
export const POLL_MS = 1000;

/** poll follows a game with getView(afterSeq), for a server without
 * Firestore. It stops when the game is over. */
function poll(b: Backend, gameId: string, afterSeq: number, h: WatchHandlers): () => void {
  let stopped = false;
  let timer = 0;
  let after = afterSeq;
  const tick = async () => {
    try {
      const v = await b.call<View>("getView", { gameId, afterSeq: after });
      if (stopped) return;
      h.status("polling");
      if (v.names) h.names(v.names);
      if (v.events.length) {
        h.events(v.events);
        after = v.events[v.events.length - 1]!.seq;
      }
      h.state(v.state);
      if (v.state.trustless) h.marks(v.reveals ?? []);
      if (v.state.phase === "finished" && !v.more) return;
    } catch (e) {
      if (stopped) return;
      h.status("error", e);
    }
    timer = window.setTimeout(tick, document.hidden ? POLL_MS * 5 : POLL_MS);
  };
  timer = window.setTimeout(tick, 0);
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}

/** DevBackend is `gamectl serve --insecure-dev-auth`: the player is a name,
 * sent as "Authorization: Bearer dev:<uid>", with no proof; the calls
 * speak the same callable protocol with fetch; games are polled. */
class DevBackend implements Backend {
  readonly live = false;
  private user: User | null = null;
  private listeners: ((u: User | null) => void)[] = [];

  constructor(private readonly c: Config) {
    const saved = localStorage.getItem("fairboard.devUid");
    if (saved) this.user = { uid: saved, label: saved + " (development sign-in)" };
  }

  firestore(): undefined {
    return undefined;
  }

  onUser(fn: (u: User | null) => void): void {
    this.listeners.push(fn);
    fn(this.user);
  }

  private set(u: User | null): void {
    this.user = u;
    if (u) localStorage.setItem("fairboard.devUid", u.uid);
    else localStorage.removeItem("fairboard.devUid");
    for (const fn of this.listeners) fn(u);
  }

  async signInGuest(): Promise<void> {
    const b = new Uint8Array(6);
    crypto.getRandomValues(b);
    this.set({ uid: "guest-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(""), label: "guest (development sign-in)" });
  }

  async signInEmail(): Promise<void> {
    throw new Error("this development server has no accounts: sign in with a name");
  }

  async signInDev(name: string): Promise<void> {
    const uid = name.trim().toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 32);
    if (!uid) throw new Error("the name needs a letter or a digit");
    this.set({ uid, label: uid + " (development sign-in)" });
  }

  async signOut(): Promise<void> {
    this.set(null);
  }

  async call<T>(name: string, data: object): Promise<T> {
    if (!this.user) throw new CallError("functions/unauthenticated", "not signed in");
    let resp: Response;
    try {
      resp = await fetch(functionURL(this.c, name), {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer dev:" + this.user.uid },
        body: JSON.stringify({ data }),
      });
    } catch (e) {
      throw new CallError("functions/unavailable", "the server did not answer: " + String(e));
    }
    let body: { result?: T; error?: { status: string; message: string; details?: { code?: string } } };
    try {
      body = await resp.json();
    } catch {
      throw new CallError("functions/internal", "the server's answer was cut off (HTTP " + resp.status + ")");
    }
    if (body.error) {
      throw new CallError("functions/" + body.error.status.toLowerCase().replace(/_/g, "-"), body.error.message, body.error.details);
    }
    return body.result as T;
  }

  watch(gameId: string, afterSeq: number, h: WatchHandlers): () => void {
    return poll(this, gameId, afterSeq, h);
  }
}
