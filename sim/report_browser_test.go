package sim

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/engine"
)

// chromium returns the headless browser, or skips the test when there is
// none, except under CI (CI=true), where a missing browser fails the run.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH; scripts/test.sh installs Debian's chromium package")
	}
	t.Skip("no chromium on PATH (install Debian's chromium package to run this test)")
	return ""
}

// runChromium runs headless Chromium with the flags this closed network
// needs (no background networking, a fresh profile) and the extra args.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	out, err := exec.CommandContext(ctx, bin, append(base, args...)...).Output()
	require.NoError(t, err, "chromium %v", args)
	return out
}

// The report must open offline in a real browser with its charts drawn.
func TestReportRendersInChromium(t *testing.T) {
	bin := chromium(t)
	cfg := testConfig(300, 2)
	cfg.B = &Ruleset{Rules: engine.DefaultRules(), Source: "copy"}
	dir := t.TempDir()
	require.NoError(t, run(t, cfg).Write(dir))
	page := "file://" + filepath.Join(dir, "report.html")

	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	for _, banned := range []string{"http://", "https://", "<script", "<link", "@import", "url("} {
		if banned == "http://" {
			// the SVG namespace is an identifier, not a fetch
			require.NotContains(t, strings.ReplaceAll(string(html), `xmlns="http://www.w3.org/2000/svg"`, ""), banned)
			continue
		}
		require.NotContains(t, string(html), banned, "the report must fetch nothing")
	}

	dom := string(runChromium(t, bin, "--dump-dom", page))
	require.Contains(t, dom, "<h1>Balance simulation</h1>")
	charts := strings.Count(dom, `<svg class="chart"`)
	require.GreaterOrEqual(t, charts, 12, "one chart per group of measures and per comparison")
	require.Contains(t, dom, `aria-label="Games by length in rounds"`)
	require.Greater(t, strings.Count(dom, `class="bar"`), 50)

	shot := filepath.Join(t.TempDir(), "report.png")
	runChromium(t, bin, "--window-size=1000,1600", "--screenshot="+shot, page)
	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Greater(t, barPixels(img), 2000, "the bars (fill #4a7fb5) are drawn")
}

// barPixels counts pixels of the bars' colour.
func barPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near8(r, 0x4a) && near8(g, 0x7f) && near8(bl, 0xb5) {
				n++
			}
		}
	}
	return n
}

func near8(v uint32, want int) bool {
	d := int(v>>8) - want
	return d >= -6 && d <= 6
}
