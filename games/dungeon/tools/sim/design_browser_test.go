package sim

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/browser"
)

// The sweep's report (a line per value, a heat map per grid) and the
// sensitivity report open offline in a real browser with every chart
// drawn, every text inside its chart and clear of the others, and the page
// within a 1000-pixel window: measured with the browser's real fonts, on
// a ruleset whose names are long.
func TestDesignReportsFitInChromium(t *testing.T) {
	b := browser.Start(t)
	long := strings.ReplaceAll(string(engine.DefaultRulesJSON()), `"t1-potion"`, `"t1-potion-of-remarkably-long-lasting-restoration"`)
	base := testConfig(60, 2)
	reports := map[string]struct {
		write     func(dir string) error
		minCharts int
	}{
		"sweep": {func(dir string) error {
			sc := &SweepConfig{Base: *base, RulesJSON: []byte(long), Param: "decks[treasure.t1].cards[t1-potion-of-remarkably-long-lasting-restoration].heal",
				Values: []float64{1, 2, 3, 10, 40}}
			s, err := RunSweep(context.Background(), sc, nil)
			if err != nil {
				return err
			}
			return s.Write(dir)
		}, 3},
		"grid": {func(dir string) error {
			sc := &SweepConfig{Base: *base, RulesJSON: []byte(long), Param: "classes.scoutMove", Values: []float64{0, 1, 2},
				Param2: "dice.move", Values2: []float64{3, 4, 5, 6}}
			s, err := RunSweep(context.Background(), sc, nil)
			if err != nil {
				return err
			}
			return s.Write(dir)
		}, 3},
		"sensitivity": {func(dir string) error {
			cfg := *testConfig(30, 2)
			s, err := RunSensitivity(context.Background(), &SensitivityConfig{Base: cfg, RulesJSON: []byte(long), Step: 1}, nil)
			if err != nil {
				return err
			}
			return s.Write(dir)
		}, 3},
	}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, r.write(dir))
			page, err := os.ReadFile(filepath.Join(dir, "report.html"))
			require.NoError(t, err)
			for _, banned := range []string{"https://", "<script", "<link", "@import", "url("} {
				require.NotContains(t, string(page), banned, "the report must fetch nothing")
			}
			f := measureFit(t, b, filepath.Join(dir, "report.html"))
			require.GreaterOrEqual(t, f.Charts, r.minCharts)
			require.Greater(t, f.Texts, 20)
			require.Emptyf(t, f.Bad, "texts that do not fit:\n%s", strings.Join(f.Bad, "\n"))
			if name == "grid" {
				require.GreaterOrEqual(t, strings.Count(string(page), `class="chart heat"`), 2, "the grid's heat maps")
			}
		})
	}
}
