package trustless_test

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng/trustless"
)

// walk is the chain by its definition, every link kept: the reference the
// checkpointed Chain is compared with.
func walk(gameID string, seat, n uint32, secret [32]byte) [][32]byte {
	xs := make([][32]byte, n+1)
	xs[n] = secret
	for i := n; i >= 1; i-- {
		xs[i-1] = trustless.Prev(gameID, seat, i, &xs[i])
	}
	return xs
}

// TestChainEveryLink: for chain lengths around the checkpoint spacing (a
// perfect square, one more, one less, tiny ones), every link from Link
// equals the walk's, asked in order, in reverse and in a scattered order.
func TestChainEveryLink(t *testing.T) {
	for _, n := range []uint32{1, 2, 3, 4, 5, 15, 16, 17, 99, 100, 101, 257} {
		secret := sha256.Sum256(binary.BigEndian.AppendUint32(nil, n))
		xs := walk("g", 7, n, secret)
		orders := map[string]func(i uint32) uint32{
			"in order": func(i uint32) uint32 { return i },
			"reverse":  func(i uint32) uint32 { return n - i },
			"scatter":  func(i uint32) uint32 { return (i * 7919) % (n + 1) },
		}
		for name, at := range orders {
			c, err := trustless.NewChain("g", 7, n, secret)
			require.NoError(t, err)
			require.Equal(t, xs[0], c.Head())
			require.Equal(t, n, c.Len())
			require.Equal(t, secret, c.Secret())
			for i := uint32(0); i <= n; i++ {
				v := at(i)
				got, err := c.Link(v)
				require.NoError(t, err)
				require.Equal(t, xs[v], got, "n %d, %s, link %d", n, name, v)
			}
		}
	}
}

func TestChainRefusals(t *testing.T) {
	_, err := trustless.NewChain("g", 0, 0, [32]byte{})
	require.ErrorIs(t, err, trustless.ErrInput)
	_, err = trustless.NewChain("g", 0, trustless.MaxChainLength+1, [32]byte{})
	require.ErrorIs(t, err, trustless.ErrInput)
	c, err := trustless.NewChain("g", 0, 10, [32]byte{1})
	require.NoError(t, err)
	_, err = c.Link(11)
	require.ErrorIs(t, err, trustless.ErrInput)
	require.ErrorContains(t, err, "past the chain's 10 links")
	x := [32]byte{}
	require.False(t, trustless.CheckLink("g", 0, 0, &x, &x), "index 0 has no predecessor")
}

// TestGenerateChain: two fresh chains differ, and each one's links check
// against its head.
func TestGenerateChain(t *testing.T) {
	a, err := trustless.GenerateChain("g", 0, 64)
	require.NoError(t, err)
	b, err := trustless.GenerateChain("g", 0, 64)
	require.NoError(t, err)
	require.NotEqual(t, a.Secret(), b.Secret())
	prev := a.Head()
	for v := uint32(1); v <= 64; v++ {
		x, err := a.Link(v)
		require.NoError(t, err)
		require.True(t, trustless.CheckLink("g", 0, v, &x, &prev), "link %d", v)
		prev = x
	}
}

// BenchmarkBuildChain: building a default-length chain (N SHA-256).
func BenchmarkBuildChain(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		if _, err := trustless.NewChain("bench", 0, trustless.DefaultChainLength, [32]byte{byte(i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLinkInOrder: revealing links 1, 2, 3, ... as a game does
// (about one SHA-256 a link).
func BenchmarkLinkInOrder(b *testing.B) {
	c, err := trustless.NewChain("bench", 0, trustless.DefaultChainLength, [32]byte{1})
	if err != nil {
		b.Fatal(err)
	}
	v := uint32(0)
	for b.Loop() {
		v = v%trustless.DefaultChainLength + 1
		if _, err := c.Link(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLinkLate: the worst case, a link late in the chain that starts
// a segment (K-1 = 255 SHA-256), asked of a fresh chain each time.
func BenchmarkLinkLate(b *testing.B) {
	c, err := trustless.NewChain("bench", 0, trustless.DefaultChainLength, [32]byte{1})
	if err != nil {
		b.Fatal(err)
	}
	vs := []uint32{60001, 61001}
	i := 0
	for b.Loop() {
		i++
		if _, err := c.Link(vs[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}
