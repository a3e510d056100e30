package commitreveal

import (
	"errors"
	"strings"
	"testing"
)

// FuzzVerify feeds arbitrary commitments, seeds and decks (cards separated
// by "|") to every verify function: none may panic, every error must wrap
// one of the package's sentinels, and a commitment or claim made from the
// same inputs must verify.
func FuzzVerify(f *testing.F) {
	f.Add(strings.Repeat("00", 32), make([]byte, 32), []byte("c"), "AS|2S", "2S|AS")
	f.Add("zz", []byte{1}, []byte{}, "", "")
	f.Add(strings.Repeat("ab", 32), make([]byte, 33), make([]byte, 300), "|||", "x")
	f.Fuzz(func(t *testing.T, commitHex string, server, client []byte, deckText, claimText string) {
		deck, claim := strings.Split(deckText, "|"), strings.Split(claimText, "|")
		known := func(err error) {
			if err != nil && !errors.Is(err, ErrInput) && !errors.Is(err, ErrCommitMismatch) && !errors.Is(err, ErrShuffleMismatch) {
				t.Fatalf("unexpected error %v", err)
			}
		}
		c, err := ParseCommitment(commitHex)
		known(err)
		known(VerifyReveal(c, server, deck))
		_, err = VerifyShuffle(server, client, claim)
		known(err)
		_, err = VerifyShuffleOf(server, client, deck, claim)
		known(err)
		known(Verify(c, server, client, deck, claim))

		if own, err := Commit(server, deck); err == nil {
			if err := VerifyReveal(own, server, deck); err != nil {
				t.Fatalf("own commitment does not verify: %v", err)
			}
			if fs, err := FinalSeed(server, client); err == nil {
				dealt, _ := ShuffleOf(fs, deck)
				if err := Verify(own, server, client, deck, dealt); err != nil {
					t.Fatalf("own round does not verify: %v", err)
				}
			}
		}
	})
}
