package sim

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Progress draws a one-line progress bar (games done, games per second, time
// left) on a terminal. It is a no-op unless its writer is a terminal, so
// logs and pipes stay clean. Safe for concurrent use.
type Progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	total int64
	done  int64
	start time.Time
	last  time.Time
	now   func() time.Time
}

// NewProgress returns a progress bar for total games on w, drawn only if w
// is a terminal (a character device).
func NewProgress(w io.Writer, total int64) *Progress {
	return &Progress{w: w, on: isTerminal(w), total: total, now: time.Now}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Add records n more finished games and redraws at most ten times a second.
func (p *Progress) Add(n int64) {
	if p == nil || !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.start.IsZero() {
		p.start = now
	}
	p.done += n
	if now.Sub(p.last) < 100*time.Millisecond && p.done < p.total {
		return
	}
	p.last = now
	fmt.Fprint(p.w, "\r"+p.line(now)+"\x1b[K")
}

// line renders the bar's text.
func (p *Progress) line(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el
	}
	left := "?"
	if rate > 0 {
		left = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	const width = 30
	fill := 0
	if p.total > 0 {
		fill = int(int64(width) * p.done / p.total)
	}
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < fill {
			bar[i] = '#'
		}
	}
	return fmt.Sprintf("[%s] %d/%d games  %.0f games/s  %s left", bar, p.done, p.total, rate, left)
}

// Finish ends the bar's line.
func (p *Progress) Finish() {
	if p == nil || !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w)
}
