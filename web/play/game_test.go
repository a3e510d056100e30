package play_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// match is a game played by page players through their pages.
type match struct {
	t       *testing.T
	base    string
	players []*player
	// latency: for each action, from the click (or key) to the board
	// showing the new version on every other player's page.
	latency []time.Duration
	// onMove runs after each action (a check, a screenshot).
	onMove func(n int, who *player, b button)
	// stopAfter, if not 0, ends play after that many actions (the game
	// goes on).
	stopAfter int
	// settled, if not "", is a condition every page must meet after an
	// action before it counts as shown (a trustless game: its reveal
	// round closed).
	settled string
	// stopWhen, if not nil, ends play before an action when it returns
	// true (the game goes on).
	stopWhen func() bool
	// atTurns: the other pages are waited for (to show the action's
	// version, or a later one) only when the turn passes to another
	// player or the game ends, not after each action of a player's turn;
	// latency is then measured at those actions only. For a polled page
	// (the memory store: a read a second), which may skip a version
	// anyway, this saves a poll per action; the awaited player's page is
	// still waited for before each of its actions.
	atTurns bool
}

func (m *match) byUID(uid string) *player {
	for _, p := range m.players {
		if p.uid == uid {
			return p
		}
	}
	return nil
}

// lobby has the first player create a game in mode, the others join by
// the shared link, and the owner start it; it returns the game id.
func (m *match) lobby(mode string, lobbyShot func()) string {
	m.t.Helper()
	classes := []string{"warrior", "monk", "duelist", "scout"}
	owner := m.players[0]
	id := owner.create(mode, classes[0])
	owner.uid = owner.String(`document.querySelector("#players li.me").dataset.uid`)
	if lobbyShot != nil {
		lobbyShot()
	}
	for i, p := range m.players[1:] {
		p.open(m.base, id)
		p.join(i+1, classes[(i+1)%len(classes)])
		p.uid = p.String(`document.querySelector("#players li.me").dataset.uid`)
	}
	owner.WaitFor(fmt.Sprintf(`document.querySelectorAll("#players li").length === %d && document.querySelector('#action-buttons button[data-kind="start"]')`, len(m.players)))
	owner.act()
	for _, p := range m.players {
		p.WaitFor(`document.getElementById("game").dataset.phase === "playing"`)
	}
	return id
}

// play plays the game to its end: the awaited player's bot picks one of
// the buttons its page offers; the test waits on the pages' state, never
// on time. It returns the number of actions played.
func (m *match) play(maxMoves int) int {
	m.t.Helper()
	owner := m.players[0]
	for n := 0; ; n++ {
		require.Less(m.t, n, maxMoves, "the game did not end in %d actions", maxMoves)
		if m.stopAfter > 0 && n == m.stopAfter {
			return n
		}
		if m.stopWhen != nil && m.stopWhen() {
			return n
		}
		st := owner.state()
		if st.Phase == "finished" {
			return n
		}
		awaiting := owner.String(`document.getElementById("game").dataset.awaiting`)
		p := m.byUID(awaiting)
		require.NotNil(m.t, p, "the game awaits %q, who is no player here", awaiting)
		p.WaitFor(`document.getElementById("game").dataset.mine === "1" || document.getElementById("game").dataset.phase === "finished"`)
		if p.state().Phase == "finished" {
			continue
		}
		before, _ := strconv.Atoi(p.state().Version)
		b, at := p.act()
		// The actor's own board shows the action, and no refusal.
		p.WaitFor(fmt.Sprintf(`+document.getElementById("game").dataset.version > %d && document.getElementById("game").dataset.pending === ""`, before))
		if m.settled != "" {
			p.WaitFor(m.settled)
		}
		s := p.state()
		require.Empty(m.t, s.Problem)
		status := p.String(`document.getElementById("action-status").textContent`)
		require.NotContains(m.t, status, "Refused", "%s's %s", p.name, b.Kind)
		if p.keyboard {
			// Focus lands on the next action offered, or on the turn line.
			var where string
			p.Eval(`(() => { const a = document.activeElement; if (!a) return "none";
  if (a.id === "turn") return "turn"; if (a.closest("#action-buttons")) return "action"; return a.tagName + "#" + a.id; })()`, &where)
			require.Contains(m.t, []string{"turn", "action"}, where, "focus after %s", b.Kind)
			if where == "action" {
				require.Equal(m.t, "1", p.String(`document.getElementById("game").dataset.mine`))
			}
		}
		v, _ := strconv.Atoi(s.Version)
		if m.atTurns && s.Phase != "finished" && p.String(`document.getElementById("game").dataset.awaiting`) == p.uid {
			// The same player's turn goes on: the others' pages are
			// waited for at its end.
			if m.onMove != nil {
				m.onMove(n, p, b)
			}
			continue
		}
		var slowest time.Duration
		for _, o := range m.players {
			if o == p {
				continue
			}
			o.WaitFor(fmt.Sprintf(`+document.getElementById("game").dataset.version >= %d`, v))
			if m.settled != "" {
				o.WaitFor(m.settled)
			}
			os := o.state()
			if m.settled != "" || os.Version == s.Version {
				seen, _ := strconv.ParseInt(os.VersionAt, 10, 64)
				if d := time.Duration(seen-at) * time.Millisecond; d > slowest {
					slowest = d
				}
			}
		}
		m.latency = append(m.latency, slowest)
		if m.onMove != nil {
			m.onMove(n, p, b)
		}
	}
}

// percentiles returns the p50 and p95 of ds.
func percentiles(ds []time.Duration) (p50, p95 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)*50/100], s[min(len(s)-1, len(s)*95/100)]
}
