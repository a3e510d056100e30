package deploy

import (
	"strings"
	"testing"
)

// TestAckKey: the seed of RFC 8032's first test vector gives its public
// key; no value, no key; a value that is not 32 bytes of hex is refused
// without echoing it (it is a secret).
func TestAckKey(t *testing.T) {
	const seed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
	k, err := AckKey(seed)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := AckPublicKey(k), "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"; got != want {
		t.Fatalf("public key %s, want RFC 8032's %s", got, want)
	}
	if k, err := AckKey(""); k != nil || err != nil {
		t.Fatalf("no value: %v, %v", k, err)
	}
	for _, bad := range []string{"zz", seed[:62], seed + "00"} {
		_, err := AckKey(bad)
		if err == nil || strings.Contains(err.Error(), bad) {
			t.Fatalf("AckKey(%q): %v", bad, err)
		}
	}
}
