package leduc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
)

func restore(public, p0, p1, secret string) (game.State, error) {
	return game.RestoreState(leduc.Def, leduc.Def.DefaultRuleset(), make([]game.Seat, 2), []byte(public), [][]byte{[]byte(p0), []byte(p1)}, []byte(secret))
}

// A hand made again from its parts, written here by hand: seat 0 holds
// Js, seat 1 Kh; round 1 was check, check (the antes alone, 1 each) and
// dealt the public Qs; round 2 begins with seat 0; the deck's remainder
// is Jh, Qh, Ks.
func TestRestoreStateByHand(t *testing.T) {
	pub := `{"round":2,"round1":"cc","round2":"","publicCard":"Qs","in":[1,1],"pot":2,"toMove":0}`
	st, err := restore(pub, `{"card":"Js"}`, `{"card":"Kh"}`, `{"deck":["Jh","Qh","Ks"]}`)
	require.NoError(t, err)
	s := st.(*leduc.State)
	require.Equal(t, js, s.Card(0))
	require.Equal(t, kh, s.Card(1))
	require.Equal(t, qs, s.PublicCard())
	require.Equal(t, "cc", s.Sequence(1))
	require.Equal(t, 0, s.ToMove())
}

// Parts that are no hand are errors naming the problem, never a panic.
func TestRestoreStateRefusals(t *testing.T) {
	pub := `{"round":2,"round1":"cc","round2":"","publicCard":"Qs","in":[1,1],"pot":2,"toMove":0}`
	deck := `{"deck":["Jh","Qh","Ks"]}`
	for _, c := range []struct{ name, pub, p0, p1, secret, msg string }{
		{"another deck", pub, `{"card":"Js"}`, `{"card":"Kh"}`, `{"deck":["Jh","Qh","Kh"]}`, "secret part"},
		{"other chips", `{"round":2,"round1":"cc","round2":"","publicCard":"Qs","in":[1,3],"pot":4,"toMove":0}`, `{"card":"Js"}`, `{"card":"Kh"}`, deck, "public part"},
		{"no card's name", pub, `{"card":"Zz"}`, `{"card":"Kh"}`, deck, "no card's name"},
		{"the public card in a hand", pub, `{"card":"Qs"}`, `{"card":"Kh"}`, deck, "distinct"},
		{"a public card round 1 did not deal", `{"round":1,"round1":"c","round2":"","publicCard":"Qs","in":[1,1],"pot":2,"toMove":1}`, `{"card":"Js"}`, `{"card":"Kh"}`, deck, "does not deal"},
		{"a betting no hand has", `{"round":1,"round1":"x","round2":"","publicCard":null,"in":[1,1],"pot":2,"toMove":1}`, `{"card":"Js"}`, `{"card":"Kh"}`, deck, "not c, r or f"},
		{"no rounds", `{"publicCard":null}`, `{"card":"Js"}`, `{"card":"Kh"}`, deck, "round1 and round2"},
		{"an unknown field", `{"round1":"","round2":"","x":1}`, `{"card":"Js"}`, `{"card":"Kh"}`, deck, "unknown field"},
	} {
		_, err := restore(c.pub, c.p0, c.p1, c.secret)
		require.ErrorContains(t, err, c.msg, c.name)
	}
}
