package service

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// fingerprint identifies an action's content for idempotency: the
// SHA-256, in hex, of its JSON as the client sent it (with the actor, the
// client's action id; without what the server sets: its time, the server
// seed it draws). A retry with the same action id must have the same
// fingerprint, or it is ErrActionIDReused. This is the one place that
// builds it: a field the server sets must be cleared here, or a retry
// would never match.
func fingerprint(a engine.Action) string {
	a.At, a.ServerSeed = 0, ""
	b, err := json.Marshal(a)
	if err != nil {
		// engine.Action has only strings, numbers and booleans.
		panic("service: fingerprint: " + err.Error())
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// fingerprintPair is the fingerprint of an action sent with its actor's
// reveal (Service.DoRevealing): of both.
func fingerprintPair(a, rv engine.Action) string {
	h := sha256.Sum256([]byte(fingerprint(a) + "+" + fingerprint(rv)))
	return hex.EncodeToString(h[:])
}

// EngineActionID is the id the engine sees for actor's action actionID
// ("" for none): "actor:actionID". The engine refuses an action whose id
// equals the last applied one (duplicate_action); with the actor in it,
// one player's action id can never make another's look like a duplicate,
// as the store's records are per actor too (store.RecordKey). An action id
// has no ':', so the pair is recovered from the right. It is what
// Public.LastActionID holds after an action through the service.
func EngineActionID(actor, actionID string) string {
	if actionID == "" {
		return ""
	}
	return actor + ":" + actionID
}

// request is the store request of action a (with the client's id) on
// gameID.
func request(gameID string, a engine.Action) store.Request {
	return store.Request{GameID: gameID, ActionID: a.ID, Actor: a.Actor, Kind: a.Kind, Fingerprint: fingerprint(a)}
}
