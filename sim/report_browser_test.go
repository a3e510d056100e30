package sim

import (
	"context"
	"encoding/json"
	"html"
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

// fitScript measures, in the browser, every text of every chart against
// its chart's box and against the other texts of the chart, and the page
// against the window; it writes what it found into <pre id="fit">.
const fitScript = `<script>
(function () {
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
  var out = document.createElement("pre");
  out.id = "fit";
  out.textContent = JSON.stringify({charts: charts.length, texts: texts, bad: bad});
  document.body.appendChild(out);
})();
</script>`

// fitReport is what fitScript found.
type fitReport struct {
	Charts, Texts int
	Bad           []string
}

// measureFit opens a copy of the report with fitScript in headless
// Chromium and returns the measurements.
func measureFit(t *testing.T, bin, reportPath string) fitReport {
	t.Helper()
	page, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	probe := filepath.Join(t.TempDir(), "probe.html")
	require.NoError(t, os.WriteFile(probe, []byte(strings.Replace(string(page), "</body>", fitScript+"</body>", 1)), 0o644))
	dom := string(runChromium(t, bin, "--window-size=1000,1000", "--virtual-time-budget=2000", "--dump-dom", "file://"+probe))
	i := strings.Index(dom, `<pre id="fit">`)
	require.GreaterOrEqual(t, i, 0, "the probe script did not run")
	body := dom[i+len(`<pre id="fit">`):]
	body = body[:strings.Index(body, "</pre>")]
	var f fitReport
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(body)), &f))
	return f
}

// Every text of every chart fits its chart and touches no other text, and
// the page fits a 1000-pixel window, measured by a real browser with its
// real fonts: on a comparison with long names (a designer's potion and loot
// outcome), and on a 6-player run with fixed classes and three policies.
func TestReportTextFitsInChromium(t *testing.T) {
	bin := chromium(t)
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
			f := measureFit(t, bin, filepath.Join(dir, "report.html"))
			require.GreaterOrEqual(t, f.Charts, 12)
			require.Greater(t, f.Texts, 100)
			require.Emptyf(t, f.Bad, "texts that do not fit:\n%s", strings.Join(f.Bad, "\n"))
		})
	}
}

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
