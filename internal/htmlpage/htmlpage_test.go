package htmlpage

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// A page of Head, Table and Tail parses as HTML to the title and cells
// given, every one of them text (a cell that looks like markup stays
// text), with no script and nothing fetched.
func TestPageEscapesAndParses(t *testing.T) {
	hostile := `</td><script>alert("x")</script>&amp;`
	var b strings.Builder
	b.WriteString(Head("run " + hostile))
	Table(&b, []string{"name", "<n>"}, [][]string{{hostile, "1.5"}, {"short"}}, 1)
	b.WriteString(Tail)
	page := b.String()
	require.NotContains(t, page, "<script")
	require.NotContains(t, page, "</td><script")

	doc, err := html.Parse(strings.NewReader(page))
	require.NoError(t, err)
	var title string
	var cells [][]string
	var rightAligned []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "link", "img", "iframe":
				t.Fatalf("a page has no <%s>", n.Data)
			case "title":
				title = text(n)
			case "tr":
				cells = append(cells, nil)
			case "td", "th":
				cells[len(cells)-1] = append(cells[len(cells)-1], text(n))
				for _, a := range n.Attr {
					if a.Key == "class" && a.Val == "n" {
						rightAligned = append(rightAligned, text(n))
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	require.Equal(t, "run "+hostile, title)
	require.Equal(t, [][]string{{"name", "<n>"}, {hostile, "1.5"}, {"short", ""}}, cells, "a short row padded")
	require.Equal(t, []string{"1.5", ""}, rightAligned, "the numeric column, not the header")
	require.True(t, strings.HasPrefix(page, "<!doctype html>\n"))
	require.Contains(t, page, "<style>"+CSS+"</style>")
	require.True(t, strings.HasSuffix(page, Tail))
}

// text is a node's text content.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
