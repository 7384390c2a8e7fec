// Package progress draws a one-line progress bar on a terminal for the
// examples' long runs (DESIGN: "a progress bar on a terminal for long
// runs"). A Bar stays quiet for the first second, so short runs print
// nothing, and redraws at most ten times a second. Stages have weights so
// that the bar moves at a roughly even pace over a run of several parts.
//
//	bar := progress.New(os.Stderr, progress.IsTerminal(os.Stderr), 2)
//	defer bar.Done()
//	bar.Stage("read", 1)
//	...
//	bar.Stage("simulate", 1)
//	for k := range n { ...; bar.Set(float64(k+1) / float64(n)) }
//
// A Bar is not safe for concurrent use.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Bar is a one-line progress bar. The zero value is not usable; call New.
type Bar struct {
	w       io.Writer // nil: disabled
	start   time.Time
	last    time.Time
	total   float64 // sum of the weights
	done    float64 // weight of the finished stages
	weight  float64 // weight of the current stage
	stage   string
	staged  bool // Stage was called: before it, Set's fraction is of the whole run
	visible bool
	quiet   time.Duration // how long the bar stays silent
}

// quietEnv names a duration (time.ParseDuration) that replaces the first
// silent second: the commands' tests set it to 0 to see a short run's bar.
const quietEnv = "BATCHQ_PROGRESS_QUIET"

// New returns a bar on w when on is true (a disabled bar otherwise), over
// stages whose weights sum to total.
func New(w io.Writer, on bool, total float64) *Bar {
	p := &Bar{start: time.Now(), total: total, quiet: time.Second}
	if d, err := time.ParseDuration(os.Getenv(quietEnv)); err == nil {
		p.quiet = d
	}
	if on {
		p.w = w
	}
	return p
}

// IsTerminal reports whether w is a character device (a terminal), so
// that redirected and test output never gets carriage returns.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Stage starts a stage of the given weight, finishing the previous one.
func (p *Bar) Stage(name string, weight float64) {
	p.done += p.weight
	p.stage, p.weight, p.staged = name, weight, true
	p.Set(0)
}

// Set reports the fraction done of the current stage, or of the whole run
// when no Stage was started (a run of one part need not name one).
func (p *Bar) Set(frac float64) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < p.quiet || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.visible = now, true
	w := p.weight
	if !p.staged {
		w = p.total
	}
	f := min(max((p.done+w*frac)/p.total, 0), 1)
	const width = 30
	n := int(f * width)
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%% %-24s", strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*f, p.stage)
}

// Done erases the bar if it was drawn. It may be called more than once.
func (p *Bar) Done() {
	if p.w != nil && p.visible {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 62))
		p.visible = false
	}
}
