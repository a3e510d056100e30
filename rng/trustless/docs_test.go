package trustless_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the vector blocks of docs/fairness.md from testdata/vectors.json")

const docsPath = "../../docs/fairness.md"

// docBlocks renders the vector blocks of docs/fairness.md from
// vectors.json (Node's numbers): the text between each marker line and
// the end of the fenced block after it.
func docBlocks(t *testing.T) map[string]string {
	v := Load(t)
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for _, f := range v.Fields {
		name := `""`
		switch f.Hex {
		case "":
		case "66616972626f6172642f636861696e2f7631":
			name = `"fairboard/chain/v1"`
		default:
			name = "bytes " + f.Hex
		}
		p("field(%s)", name)
		p("  = %s", f.FieldHex)
	}
	for _, c := range v.Chains {
		p("chain: gameId %q, seat %d, N %d, x_N = %s", c.GameID, c.Seat, c.N, c.SecretHex)
		for i := int(c.N) - 1; i >= 0; i-- {
			p("  x_%d = %s", i, c.LinksHex[i])
		}
	}
	for _, c := range v.FairCommitments {
		p("fair commitment: gameId %q, seat %d, c = %s", c.GameID, c.Seat, c.ContributionHex)
		p("  = %s", c.CommitmentHex)
	}
	deriv := b.String()

	b.Reset()
	e := v.Example
	p("gameId %q, rulesHash %s, N %d, deadlineMs 60000", e.GameID, e.RulesHash, e.ChainLength)
	p("T_0 = %s", e.Transcript0Hex)
	for _, s := range e.Seats {
		p("seat %d (%s, %s): x_N = %s", s.Seat, s.UID, s.Class, s.SecretHex)
		p("  Ed25519 seed %s", s.KeySeedHex)
		p("  public key   %s", s.PublicKeyHex)
		p("  head x_0     %s", s.HeadHex)
		p("  x_1          %s", s.Link1Hex)
		p("  x_2          %s", s.Link2Hex)
	}
	for _, r := range e.Records {
		p("record %s by %s, version %d:", r.Kind, r.Actor, r.Version)
		if r.Kind == "start" {
			p("  canonical  %s", r.CanonicalHex)
		}
		p("  digest     %s", r.DigestHex)
		if r.SignatureHex != "" {
			p("  signature  %s", r.SignatureHex)
		} else {
			p("  signature  (none: the creator has no seat yet)")
		}
		p("  transcript %s", r.TranscriptHex)
	}
	p("pending: index %d, digest %s, transcript %s", e.Pending.Index, e.Pending.DigestHex, e.Pending.TranscriptHex)
	for _, r := range e.Reveals {
		p("reveal seat %d: link %s", r.Seat, r.LinkHex)
		p("  signature %s", r.SignatureHex)
	}
	p("R_1 = %s", e.R1Hex)
	words := make([]string, len(e.R1Words))
	for i, w := range e.R1Words {
		words[i] = fmt.Sprint(w)
	}
	p("words of R_1's stream: %s", strings.Join(words, ", "))
	p("turn-order d6: %v, tie-break d6: %s %d, %s %d, order %s", e.TurnOrderDice, e.TieBreakDice[0].UID, e.TieBreakDice[0].Value,
		e.TieBreakDice[1].UID, e.TieBreakDice[1].Value, strings.Join(e.TurnOrder, ", "))
	p("transcript after round 1 = %s", e.TranscriptAfterRoundHex)
	p("treasure.t1 drawn to its end on R_1's stream (%d words):", e.Draws.Words)
	for _, d := range e.Draws.Draws {
		p("  %2d left: j = %2d -> %s", d.Remaining, d.J, d.CardID)
	}
	return map[string]string{"<!-- vectors:derivations -->": deriv, "<!-- vectors:example -->": b.String()}
}

// TestDocsVectors: the vector blocks of docs/fairness.md are exactly the
// vectors Node computed (testdata/vectors.json, checked against gen.mjs by
// TestVectorsAreNodes), so a number in the docs cannot drift from the
// code or the independent implementation. go test -run Docs
// -update-docs rewrites them.
func TestDocsVectors(t *testing.T) {
	doc, err := os.ReadFile(docsPath)
	require.NoError(t, err)
	text := string(doc)
	for marker, want := range docBlocks(t) {
		i := strings.Index(text, marker)
		require.GreaterOrEqual(t, i, 0, "docs/fairness.md has no %s block", marker)
		open := strings.Index(text[i:], "```text\n")
		require.GreaterOrEqual(t, open, 0, marker)
		start := i + open + len("```text\n")
		end := strings.Index(text[start:], "```")
		require.GreaterOrEqual(t, end, 0, marker)
		got := text[start : start+end]
		if *updateDocs {
			text = text[:start] + want + text[start+end:]
			continue
		}
		require.Equal(t, want, got, "the %s block of docs/fairness.md is not Node's vectors: go test ./rng/trustless -run Docs -update-docs", marker)
	}
	if *updateDocs {
		require.NoError(t, os.WriteFile(docsPath, []byte(text), 0o644))
	}
}
