// A Firebase web client, as a player's app would be: two users signed in
// on the Auth emulator play a few actions through gamectl serve with the
// JavaScript SDK's httpsCallableFromURL. Run by TestJSClient with
//   SERVE_URL=http://127.0.0.1:PORT AUTH_HOST=127.0.0.1:PORT PROJECT=demo-...
// It prints one JSON object: what it did and what it saw.
import { initializeApp } from 'firebase/app';
import { getAuth, connectAuthEmulator, signInAnonymously } from 'firebase/auth';
import { getFunctions, httpsCallableFromURL } from 'firebase/functions';

const { SERVE_URL, AUTH_HOST, PROJECT, GAME_ID } = process.env;

async function player(name) {
  const app = initializeApp({ apiKey: 'fake-api-key', projectId: PROJECT, appId: '1:1:web:' + name }, name);
  const auth = getAuth(app);
  connectAuthEmulator(auth, 'http://' + AUTH_HOST, { disableWarnings: true });
  const cred = await signInAnonymously(auth);
  const fns = getFunctions(app);
  const call = (fn, data) => httpsCallableFromURL(fns, SERVE_URL + '/' + fn)(data).then((r) => r.data);
  return { uid: cred.user.uid, call };
}

function choose(state, uid) {
  const me = state.players.find((p) => p.uid === uid);
  switch (state.step) {
    case 'manage': return { kind: 'endManage' };
    case 'preDuel': return { kind: 'skipDuel' };
    case 'moveOrSleep': return { kind: 'move' };
    case 'combat': return { kind: 'resolveCombatRound' };
    case 'duel':
    case 'bracket':
      return state.duel && state.duel.rolled ? { kind: 'declineReroll' } : { kind: 'resolveDuelRound' };
    case 'capacity': return { kind: 'discard', cardId: me.items[0] };
    default: throw new Error('unexpected step ' + state.step);
  }
}

const out = { errors: {} };
const alice = await player('alice');
const bob = await player('bob');
out.uids = [alice.uid, bob.uid];
await alice.call('createGame', { gameId: GAME_ID, actionId: 'create', mode: 'seeded', seed: 'js-client' });
await alice.call('joinGame', { gameId: GAME_ID, actionId: 'join-a', seat: 0, class: 'warrior' });
await bob.call('joinGame', { gameId: GAME_ID, actionId: 'join-b', seat: 1, class: 'monk' });
try {
  await bob.call('startGame', { gameId: GAME_ID, actionId: 'start-b' });
} catch (e) {
  out.errors.nonOwnerStart = e.code;
}
try {
  await alice.call('act', { gameId: GAME_ID, actionId: 'bad', kind: 'teleport' });
} catch (e) {
  out.errors.unknownKind = e.code;
}
await alice.call('startGame', { gameId: GAME_ID, actionId: 'start' });
const byUid = { [alice.uid]: alice, [bob.uid]: bob };
out.actions = [];
let last;
for (let i = 0; i < 12; i++) {
  const view = await alice.call('getView', { gameId: GAME_ID });
  if (view.state.phase !== 'playing') break;
  const who = view.state.awaiting;
  const a = choose(view.state, who);
  const res = await byUid[who].call('act', { gameId: GAME_ID, actionId: 'js-' + i, version: view.state.version, ...a });
  const again = await byUid[who].call('act', { gameId: GAME_ID, actionId: 'js-' + i, version: view.state.version, ...a });
  if (!again.replayed || again.version !== res.version) throw new Error('retry of js-' + i + ' was not replayed');
  out.actions.push({ actor: who, kind: a.kind, version: res.version, events: res.events.length });
  last = res.version;
}
const view = await bob.call('getView', { gameId: GAME_ID });
out.finalVersion = view.state.version;
out.logLength = view.events.length;
out.lastActed = last;
console.log(JSON.stringify(out));
process.exit(0);
