package sim

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// The tuner's and the by-skill run's reports open offline in a real
// browser with every chart drawn, every text inside its chart and clear of
// the others, and the page within a 1000-pixel window.
func TestSearchToolReportsFitInChromium(t *testing.T) {
	br := browser.Start(t)
	for name, write := range map[string]func(dir string) error{
		"tune": func(dir string) error {
			spec := tuneSpec(t, unbalanced(t), 3200, "fair±5",
				TuneParamSpec{Path: "classes.scoutMove", Lo: 0, Hi: 3, Ranged: true},
				TuneParamSpec{Path: "composition[2].options[2xT1].weight", Lo: 1, Hi: 300, Ranged: true})
			st, err := PrepareTune(spec)
			if err != nil {
				return err
			}
			if err := st.Save(dir); err != nil {
				return err
			}
			return RunTune(context.Background(), dir, st, 2, -1, nil, time.Now)
		},
		"by-skill": func(dir string) error {
			s, err := RunSkill(context.Background(), &SkillConfig{Base: *testConfig(8, 2), Levels: []int{2}, Margin: DefaultMargin}, nil)
			if err != nil {
				return err
			}
			return s.Write(dir)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, write(dir))
			page, err := os.ReadFile(filepath.Join(dir, "report.html"))
			require.NoError(t, err)
			for _, banned := range []string{"https://", "<script", "<link", "@import", "url("} {
				require.NotContains(t, string(page), banned, "the report must fetch nothing")
			}
			f := measureFit(t, br, filepath.Join(dir, "report.html"))
			require.GreaterOrEqual(t, f.Charts, 1)
			require.Greater(t, f.Texts, 10)
			require.Emptyf(t, f.Bad, "texts that do not fit:\n%s", strings.Join(f.Bad, "\n"))
		})
	}
}
