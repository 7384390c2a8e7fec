package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress draws a one-line bar on a terminal: nothing for the first
// second (short runs stay quiet), then at most ten redraws a second.
// Stages have weights so that the bar moves at a roughly even pace.
type progress struct {
	w       io.Writer // nil: disabled
	start   time.Time
	last    time.Time
	total   float64 // sum of the weights
	done    float64 // weight of the finished stages
	weight  float64 // weight of the current stage
	stage   string
	visible bool
}

// newProgress returns a bar on w when on is true, over stages whose
// weights sum to total.
func newProgress(w io.Writer, on bool, total float64) *progress {
	p := &progress{start: time.Now(), total: total}
	if on {
		p.w = w
	}
	return p
}

// isTerminal reports whether w is a character device (a terminal), so
// that redirected and test output never gets carriage returns.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Stage starts a stage of the given weight, finishing the previous one.
func (p *progress) Stage(name string, weight float64) {
	p.done += p.weight
	p.stage, p.weight = name, weight
	p.Set(0)
}

// Set reports the fraction done of the current stage.
func (p *progress) Set(frac float64) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.visible = now, true
	f := min(max((p.done+p.weight*frac)/p.total, 0), 1)
	const width = 30
	n := int(f * width)
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%% %-24s", strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*f, p.stage)
}

// Done erases the bar.
func (p *progress) Done() {
	if p.w != nil && p.visible {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 62))
	}
}
