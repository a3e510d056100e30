package play_test

import "github.com/stretchr/testify/require"

// chooseMode clicks the create form's radio button of mode until it is
// the one checked: the click is a mouse click at the button's place, and
// the lobby above the form may move it between DevTools reading that
// place and the click (one click landed on the mode above: a fair game
// where a trustless one was asked for).
func (p *player) chooseMode(mode string) {
	p.t.Helper()
	sel := `input[name="mode"][value="` + mode + `"]`
	for i := 0; ; i++ {
		require.Less(p.t, i, 5, "the %s mode could not be chosen", mode)
		p.Click(sel)
		if isTrue(p, `document.querySelector('`+sel+`').checked`) {
			return
		}
	}
}
