// A player's listener on a game's log, as a web client follows a game:
// signed in on the Auth emulator with a custom token, it listens with the
// Firebase JavaScript SDK to games/{GAME_ID}/log ordered by document id
// (the security rules applied to its uid), reads each document in either
// layout (an action's {events: [...]}, or one event), and prints the seqs
// and types of the events it heard, in the order it heard them, once one
// is FairnessRevealed (the end of every game), or after TIMEOUT_MS. Run by
// TestOldGamePlaysOn with
//   AUTH_HOST FIRESTORE_HOST PROJECT GAME_ID CUSTOM_TOKEN
// It writes "ready" on stderr once its first snapshot arrived.
import { initializeApp } from 'firebase/app';
import { getAuth, connectAuthEmulator, signInWithCustomToken } from 'firebase/auth';
import { getFirestore, connectFirestoreEmulator, collection, query, orderBy, documentId, onSnapshot } from 'firebase/firestore';

const { AUTH_HOST, FIRESTORE_HOST, PROJECT, GAME_ID, CUSTOM_TOKEN } = process.env;
const app = initializeApp({ apiKey: 'fake-api-key', projectId: PROJECT, appId: '1:1:web:listen' });
const auth = getAuth(app);
connectAuthEmulator(auth, 'http://' + AUTH_HOST, { disableWarnings: true });
await signInWithCustomToken(auth, CUSTOM_TOKEN);
const db = getFirestore(app);
const [host, port] = FIRESTORE_HOST.split(':');
connectFirestoreEmulator(db, host, Number(port));

const heard = [];
const docs = [];
let first = true;
const done = new Promise((resolve, reject) => {
  const q = query(collection(db, 'games', GAME_ID, 'log'), orderBy(documentId()));
  const stop = onSnapshot(q, (snap) => {
    for (const ch of snap.docChanges()) {
      if (ch.type !== 'added') continue;
      const d = ch.doc.data();
      const events = Array.isArray(d.events) ? d.events : [d];
      docs.push({ id: ch.doc.id, events: events.length });
      for (const e of events) heard.push({ seq: e.seq, type: e.type });
    }
    if (first) {
      first = false;
      process.stderr.write('ready\n');
    }
    if (heard.length && heard[heard.length - 1].type === 'FairnessRevealed') {
      stop();
      resolve();
    }
  }, reject);
  setTimeout(() => { stop(); resolve(); }, Number(process.env.TIMEOUT_MS || 60000));
});
await done;
console.log(JSON.stringify({ heard, docs }));
process.exit(0);
