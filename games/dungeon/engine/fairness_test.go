package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

func TestHash32Text(t *testing.T) {
	var h engine.Hash32
	require.True(t, h.IsZero())
	in := strings.Repeat("0A", 31) + "ff"
	require.NoError(t, h.UnmarshalText([]byte(in)))
	require.Equal(t, strings.ToLower(in), h.String(), "read in either case, written lower-case")
	b, err := json.Marshal(struct {
		H engine.Hash32 `json:"h"`
		Z engine.Hash32 `json:"z,omitzero"`
	}{H: h})
	require.NoError(t, err)
	require.Equal(t, `{"h":"`+strings.ToLower(in)+`"}`, string(b))
	for _, bad := range []string{"", "00", strings.Repeat("0", 66), strings.Repeat("zz", 32)} {
		require.Error(t, h.UnmarshalText([]byte(bad)), bad)
	}
}

// An event that carries a malformed commitment does not decode.
func TestEventCommitmentDecode(t *testing.T) {
	var e engine.Event
	err := json.Unmarshal([]byte(`{"seq":5,"type":"DeckShuffled","deckId":"chance","size":3,"tag":"t","commitment":"abc"}`), &e)
	require.ErrorContains(t, err, "commitment")
	// GameCreated writes a commitment only when there is one (fair mode).
	created := engine.Event{Seq: 1, Type: engine.EvGameCreated, UID: "p1"}
	require.NotContains(t, string(created.AppendJSON(nil)), "commitment")
	// A FairnessRevealed event with no content still writes its object.
	empty := engine.Event{Seq: 9, Type: engine.EvFairnessRevealed}
	require.Equal(t, `{"seq":9,"type":"FairnessRevealed","fairness":{}}`, string(empty.AppendJSON(nil)))
}

// Clone copies the fairness records deeply.
func TestCloneFairness(t *testing.T) {
	g := &engine.Game{}
	g.Public.Fairness = &engine.Fairness{ContributionsHex: []string{"aa"}, Salts: []engine.SaltReveal{{K: 0}}}
	g.Secret.Entropy = []string{"aa"}
	g.Secret.Shuffles = []engine.ShuffleRecord{{Order: []string{"x", "y"}}}
	c := g.Clone()
	c.Public.Fairness.ContributionsHex[0] = "bb"
	c.Public.Fairness.Salts[0].K = 7
	c.Secret.Entropy[0] = "bb"
	c.Secret.Shuffles[0].Order[0] = "z"
	require.Equal(t, "aa", g.Public.Fairness.ContributionsHex[0])
	require.Zero(t, g.Public.Fairness.Salts[0].K)
	require.Equal(t, "aa", g.Secret.Entropy[0])
	require.Equal(t, "x", g.Secret.Shuffles[0].Order[0])
}
