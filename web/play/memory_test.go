package play_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// On gamectl serve's default (the in-memory store, development sign-in by
// name) the page says it polls, and plays: two players in two browser
// contexts, one on a phone, set a game up and play it through the page; an
// action whose answer is lost is sent again with the same action id and
// applied once; the owner abandons the game, and the page verifies it.
func TestPlayOnMemoryStore(t *testing.T) {
	pageTest(t, false)
	srv := newDevServer(t)
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "Bob", browser.Phone, srv.URL+"/play/")
	alice.signInDev()
	bob.signInDev()
	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}}
	m.lobby("crypto", nil)
	for _, p := range m.players {
		require.Equal(t, "polling", p.String(`document.getElementById("net").dataset.state`))
		require.Contains(t, p.String(`document.getElementById("net").textContent`), "every second")
	}

	// Play a few actions, losing the answer of one.
	var lostAt int
	m.onMove = func(n int, _ *player, _ button) {
		if n == 3 {
			srv.mu.Lock()
			srv.loseNext = 1
			lostAt = len(srv.acts)
			srv.mu.Unlock()
		}
		if n == 12 {
			alice.shot("memory-alice-desktop")
			bob.shot("memory-bob-phone")
		}
	}
	m.stopAfter = 13
	m.play(1000)
	acts := srv.actCalls()
	require.Greater(t, len(acts), lostAt+1)
	require.Equal(t, acts[lostAt], acts[lostAt+1], "the call whose answer was lost is sent again with its action id")
	require.NotEqual(t, acts[lostAt+1], acts[lostAt+2 : lostAt+3][0], "and only once more")

	// The owner abandons the game; both pages show its end, and verify it.
	alice.Click("#abandon")
	alice.Click("#abandon-confirm")
	for _, p := range m.players {
		p.WaitFor(`document.getElementById("game").dataset.phase === "finished"`)
		require.Contains(t, p.String(`document.getElementById("result").textContent`), "abandoned")
	}
	status, msg := bob.verifyInPage()
	require.Equal(t, "ok", status, msg)
	require.True(t, strings.Contains(msg, "crypto"), msg)
	for _, p := range m.players {
		p.CheckConsole(expectedConsole...)
	}
}

// Over plain http from an address that is not this machine's (a phone
// trying a LAN address), the browser withholds crypto.subtle: the page says
// what it needs and how to get it, and does nothing else.
func TestInsecureContextExplained(t *testing.T) {
	pageTest(t, false)
	srv := newDevServer(t)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	b := browser.Start(t, "host-resolver-rules=MAP lan-box.test 127.0.0.1")
	p := newPlayer(t, b, "phone", browser.Phone, "http://lan-box.test:"+port+"/play/")
	p.screen("boot-error")
	require.Equal(t, "This page needs a secure connection", p.String(`document.getElementById("boot-title").textContent`))
	msg := p.String(`document.getElementById("boot-msg").textContent`)
	require.Contains(t, msg, "lan-box.test")
	require.Contains(t, msg, "https")
	require.Contains(t, msg, "Web Locks", "a trustless game's needs are named")
	require.Equal(t, "false", p.String(`window.isSecureContext`))
	require.Equal(t, "undefined", p.String(`typeof navigator.locks`), "the browser withholds Web Locks too")
	require.Empty(t, p.Layout().Bad)
	p.CheckAxe("the secure-context message at 390 px")
	// The browser says it ignores the page's Cross-Origin-Opener-Policy on
	// an untrustworthy origin: the one entry this step expects.
	p.CheckConsole(regexp.MustCompile(`Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy`))
}
