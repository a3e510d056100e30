package sim

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/browser"
)

// fitScript measures, in the browser, every text of every chart against
// its chart's box and against the other texts of the chart, and the page
// against the window, and returns what it found.
const fitScript = `(function () {
  var bad = [], texts = 0;
  var charts = document.querySelectorAll("svg.chart");
  charts.forEach(function (svg, si) {
    var vb = svg.viewBox.baseVal, name = si + " (" + svg.getAttribute("aria-label") + ")";
    var ts = Array.prototype.slice.call(svg.querySelectorAll("text"));
    var bs = ts.map(function (t) { return t.getBBox(); });
    texts += ts.length;
    bs.forEach(function (b, i) {
      if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5) {
        bad.push("chart " + name + ": '" + ts[i].textContent + "' spans x " + Math.round(b.x) + ".." + Math.round(b.x + b.width) +
          ", y " + Math.round(b.y) + ".." + Math.round(b.y + b.height) + " outside 0.." + vb.width + " x 0.." + vb.height);
      }
      for (var j = i + 1; j < bs.length; j++) {
        var c = bs[j];
        var w = Math.min(b.x + b.width, c.x + c.width) - Math.max(b.x, c.x);
        var h = Math.min(b.y + b.height, c.y + c.height) - Math.max(b.y, c.y);
        if (w > 1 && h > 1) {
          bad.push("chart " + name + ": '" + ts[i].textContent + "' overlaps '" + ts[j].textContent + "'");
        }
      }
    });
  });
  if (document.documentElement.scrollWidth > window.innerWidth) {
    bad.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + window.innerWidth + " px window");
  }
  return {charts: charts.length, texts: texts, bad: bad};
})()`

// fitReport is what fitScript found.
type fitReport struct {
	Charts, Texts int
	Bad           []string
}

// measureFit opens the report in headless Chromium in a 1000-pixel window
// and returns fitScript's measurements.
func measureFit(t *testing.T, b *browser.Browser, reportPath string) fitReport {
	t.Helper()
	p := b.NewPage(t)
	p.SetViewport(browser.Viewport{Width: 1000, Height: 1000})
	p.Navigate("file://" + reportPath)
	p.WaitFor(`document.readyState === "complete"`)
	var f fitReport
	p.Eval(fitScript, &f)
	p.CheckConsole()
	return f
}

// Every text of every chart fits its chart and touches no other text, and
// the page fits a 1000-pixel window, measured by a real browser with its
// real fonts: on a comparison with long names (a designer's potion and loot
// outcome), and on a 6-player run with fixed classes and three policies.
func TestReportTextFitsInChromium(t *testing.T) {
	br := browser.Start(t)
	def := string(engine.DefaultRulesJSON())
	long := strings.ReplaceAll(def, `"t1-potion"`, `"t1-potion-of-remarkably-long-lasting-restoration"`)
	long = strings.ReplaceAll(long, `"outcome": "none"`, `"outcome": "nothing-at-all-this-time"`)
	require.NotEqual(t, def, long)
	b, err := engine.LoadRules([]byte(long))
	require.NoError(t, err)

	cmp := testConfig(300, 2)
	cmp.B = &Ruleset{Rules: b, Source: "/a/designer's/rather/long/path/to/rulesets/long-names-variant.json"}
	six := testConfig(300, 2)
	six.Players = 6
	six.Classes = []engine.Class{"scout", "warrior", "monk", "duelist", "scout", "monk"}
	six.Bots = []string{"cautious", "aggressive", "aggressive"}
	six.A = Ruleset{Rules: b, Source: "long.json"}
	for name, cfg := range map[string]*Config{"comparison": cmp, "six players": six} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, run(t, cfg).Write(dir))
			f := measureFit(t, br, filepath.Join(dir, "report.html"))
			require.GreaterOrEqual(t, f.Charts, 12)
			require.Greater(t, f.Texts, 100)
			require.Emptyf(t, f.Bad, "texts that do not fit:\n%s", strings.Join(f.Bad, "\n"))
		})
	}
}

// The report must open offline in a real browser with its charts drawn.
func TestReportRendersInChromium(t *testing.T) {
	b := browser.Start(t)
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

	p := b.NewPage(t)
	p.SetViewport(browser.Viewport{Width: 1000, Height: 1600})
	p.Navigate(page)
	p.WaitFor(`document.readyState === "complete"`)
	dom := p.String("document.documentElement.outerHTML")
	require.Contains(t, dom, "<h1>Balance simulation</h1>")
	charts := strings.Count(dom, `<svg class="chart"`)
	require.GreaterOrEqual(t, charts, 12, "one chart per group of measures and per comparison")
	require.Contains(t, dom, `aria-label="Games by length in rounds"`)
	require.Greater(t, strings.Count(dom, `class="bar"`), 50)

	shot := p.Screenshot(filepath.Join(t.TempDir(), "report.png"))
	p.CheckConsole()
	img, err := png.Decode(bytes.NewReader(shot))
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
