// Package htmlpage writes the offline report pages of the simulation tools
// (the dungeon's, package sim, and any game's, gamectl sim --game): one
// self-contained HTML file, its style inline, no script and nothing fetched,
// every value from outside escaped.
package htmlpage

import (
	"html"
	"strings"
)

// CSS is the pages' style sheet, inlined in each page's head.
const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:960px;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.warn{background:#fff3cd;padding:.6em 1em;border-left:4px solid #e0a800}
.note{color:#555;max-width:52em}
.sig{color:#b00;font-weight:600}code{background:#f4f4f4;padding:1px 4px;overflow-wrap:anywhere}
svg{display:block;max-width:none}
svg .bar{fill:#4a7fb5}svg .ci{stroke:#222;stroke-width:1.5;fill:none}svg .axis{stroke:#888}
svg .fair{stroke:#b00;stroke-width:1.5;stroke-dasharray:5 3}svg .fairlbl{fill:#b00}
svg text{font:12px system-ui,sans-serif;fill:#222}svg .tick{fill:#666}
svg .val{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}`

// Head returns a page's beginning up to and including its <body> tag, with
// title (escaped) as its <title>.
func Head(title string) string {
	return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) +
		"</title><style>" + CSS + "</style></head><body>\n"
}

// Tail ends a page.
const Tail = "</body></html>\n"

// Table writes a table to b: a header row of head, then one row per rows
// entry, every cell escaped; the columns whose indexes are in numeric are
// right-aligned (class n). A row shorter than head is padded with empty
// cells; a longer one is written whole.
func Table(b *strings.Builder, head []string, rows [][]string, numeric ...int) {
	isNum := make([]bool, len(head))
	for _, c := range numeric {
		if c >= 0 && c < len(isNum) {
			isNum[c] = true
		}
	}
	b.WriteString("<table><tr>")
	for _, h := range head {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for c := range max(len(r), len(head)) {
			cell := ""
			if c < len(r) {
				cell = r[c]
			}
			if c < len(isNum) && isNum[c] {
				b.WriteString("<td class=n>" + html.EscapeString(cell) + "</td>")
			} else {
				b.WriteString("<td>" + html.EscapeString(cell) + "</td>")
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}
