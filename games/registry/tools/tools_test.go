package tools_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/games/registry/tools"
)

// The dungeon brings its simulation tools and its play, and no other
// game brings any.
func TestLookup(t *testing.T) {
	for _, path := range []string{"play", "sim", "sim merge", "sim sweep", "sim sensitivity", "sim tune"} {
		tool := tools.Lookup(registry.Dungeon, path)
		require.NotNil(t, tool, path)
		var out, errs bytes.Buffer
		require.Error(t, tool([]string{"-h"}, &out, &errs), "%s -h is flag.ErrHelp", path)
		require.Contains(t, errs.String(), "usage: gamectl "+path, "%s prints its own usage", path)
	}
	for _, path := range []string{"", "replay", "play merge", "sim step", "sim tune step"} {
		require.Nil(t, tools.Lookup(registry.Dungeon, path), path)
	}
	for _, name := range registry.Names() {
		if name != registry.Dungeon {
			require.Nil(t, tools.Lookup(name, "sim"), name)
			require.Nil(t, tools.Lookup(name, "play"), name)
		}
	}
	require.Nil(t, tools.Lookup("nosuch", "sim"))
}
