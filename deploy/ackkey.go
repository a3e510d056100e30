package deploy

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
)

// EnvAckKey is the seed (64 hex digits) of the server's Ed25519 key for
// signing acknowledgements of reveals (service.Config.AckKey) and, at
// trustless tables, of reveals and deal messages (functions
// API.WithAckKey); unset: the acknowledgements are not signed. The operator publishes the key's
// public half (AckPublicKey, and the functions log it at start), which
// clients pin (dungeonclient.Config.ServerKey, client.Table.ServerKey): a seat named as missing a round
// whose reveal the server acknowledged can then show a third party the
// server's own signature (docs/fairness.md, the threat model).
const EnvAckKey = "FAIRBOARD_ACK_KEY"

// AckKey reads EnvAckKey's value: "" none (nil), else a 32-byte seed in
// hex.
func AckKey(v string) (ed25519.PrivateKey, error) {
	if v == "" {
		return nil, nil
	}
	seed, err := hex.DecodeString(v)
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("deploy: %s: want %d bytes in hex (an Ed25519 seed)", EnvAckKey, ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// AckPublicKey is the public half of key in hex, as the operator
// publishes it.
func AckPublicKey(key ed25519.PrivateKey) string {
	return hex.EncodeToString(key.Public().(ed25519.PublicKey))
}
