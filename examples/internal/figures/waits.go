package figures

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WaitSeries is one queue's jobs in submission order with the wait bounds
// predictors made for them at submission (Nurmi's thesis Figure 4.1).
type WaitSeries struct {
	Title string
	// Origin is the time shown as day 0 (seconds, e.g. the first submit or
	// the trace start).
	Origin int64
	Submit []int64 // seconds, ascending
	Wait   []int64 // seconds
	Bounds []Bounds
}

// Bounds is one predictor's bound for each job of a WaitSeries.
type Bounds struct {
	Name  string  // the method, shown in the legend (e.g. "QBETS, trimming")
	Bound []int64 // seconds; negative: no bound (history too short)
}

// Validate reports mismatched lengths, unsorted submits or a nameless bound.
func (s *WaitSeries) Validate() error {
	if len(s.Submit) == 0 {
		return fmt.Errorf("figures: WaitSeries %q: %w (no jobs)", s.Title, errEmpty)
	}
	if len(s.Wait) != len(s.Submit) {
		return fmt.Errorf("figures: WaitSeries %q: %d waits for %d submits", s.Title, len(s.Wait), len(s.Submit))
	}
	for i := 1; i < len(s.Submit); i++ {
		if s.Submit[i] < s.Submit[i-1] {
			return fmt.Errorf("figures: WaitSeries %q: Submit[%d] = %d before Submit[%d] = %d", s.Title, i, s.Submit[i], i-1, s.Submit[i-1])
		}
	}
	for k, b := range s.Bounds {
		if b.Name == "" {
			return fmt.Errorf("figures: WaitSeries %q: Bounds[%d] has no name", s.Title, k)
		}
		if len(b.Bound) != len(s.Submit) {
			return fmt.Errorf("figures: WaitSeries %q: Bounds[%d] (%s) has %d values for %d jobs", s.Title, k, b.Name, len(b.Bound), len(s.Submit))
		}
	}
	return nil
}

// Waits draws every job's wait as a dot at its submission time and each
// predictor's bound as a step line, on a log scale of seconds (waits and
// bounds under 1 s are drawn at 1 s), and writes dir/name.png and .svg.
func Waits(dir, name string, s WaitSeries) ([]string, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	day := func(t int64) float64 { return float64(t-s.Origin) / 86400 }
	p := newPlot(s.Title, "submission time (days)", "wait (log scale)")
	p.Y.Scale = plot.LogScale{}
	p.X.Tick.Marker = dayTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.YOffs = -vg.Millimeter

	dots, every := dedupe(s.Submit, s.Wait, day)
	sc, err := plotter.NewScatter(dots)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: black, Radius: vg.Points(0.9), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	if every > 1 {
		p.Legend.Add(fmt.Sprintf("job wait (every %d%s of %d jobs)", every, ordinal(every), len(s.Submit)), sc)
	} else {
		p.Legend.Add("job wait", sc)
	}

	// Headroom above the data for the legend: a quarter more decades,
	// with ticks only up to the data.
	top := 1.0
	for i := range s.Wait {
		top = max(top, float64(s.Wait[i]))
		for _, b := range s.Bounds {
			top = max(top, float64(b.Bound[i]))
		}
	}
	p.Y.Min, p.Y.Max = 1, math.Pow(top, 1.3)*2
	p.Y.Tick.Marker = durationTicks{max: top}

	for k, b := range s.Bounds {
		style := draw.LineStyle{Color: colorOf(k), Width: vg.Points(1.4)}
		for i, seg := range steps(s.Submit, b.Bound, day) {
			l, err := plotter.NewLine(seg)
			if err != nil {
				return nil, err
			}
			l.StepStyle = plotter.PostStep
			l.LineStyle = style
			p.Add(l)
			if i == 0 {
				p.Legend.Add(b.Name, l)
			}
		}
	}
	return render(dir, name, 9*vg.Inch, 4.5*vg.Inch, func(dc draw.Canvas) { p.Draw(dc) })
}

// stepTol is the change of a bound, in decades, below which steps does not
// start a new step: a fifth of a pixel of the figure's log axis.
const stepTol = 0.003

// steps cuts a bound series into runs where a bound exists and keeps only
// the points where the bound changes by more than stepTol from the last
// kept value (and each run's last point), so that a long trace draws as a
// few hundred segments instead of one per job, each within stepTol of the
// true bound.
func steps(submit, bound []int64, x func(int64) float64) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	flush := func(last int) {
		if len(cur) > 0 {
			cur = append(cur, plotter.XY{X: x(submit[last]), Y: float64(max(bound[last], 1))})
			out = append(out, cur)
			cur = nil
		}
	}
	for i, b := range bound {
		if b < 0 {
			flush(i - 1)
			continue
		}
		y := float64(max(b, 1))
		if len(cur) == 0 || math.Abs(math.Log10(y/cur[len(cur)-1].Y)) > stepTol {
			cur = append(cur, plotter.XY{X: x(submit[i]), Y: y})
		}
	}
	flush(len(bound) - 1)
	x0, span := x(submit[0]), max(x(submit[len(submit)-1])-x(submit[0]), 1e-9)
	for k := range out {
		out[k] = decimate(out[k], x0, span)
	}
	return out
}

// stepCells is the horizontal resolution of decimate: about a pixel of
// the PNG (9 in at 110 dpi), finer than the SVG's 648 points.
const stepCells = 1000

// decimate keeps, of the points of a step line that fall in one of
// stepCells columns of the x range, only the first, the lowest, the highest
// and the last (in order): a bound that changes at every job of a long
// trace (full QBETS's per-cluster bounds, say) draws the same vertical
// smear per column with four points instead of hundreds.
func decimate(line plotter.XYs, x0, span float64) plotter.XYs {
	cell := func(p plotter.XY) int { return int((p.X - x0) / span * stepCells) }
	var out plotter.XYs
	for lo := 0; lo < len(line); {
		hi := lo + 1
		for hi < len(line) && cell(line[hi]) == cell(line[lo]) {
			hi++
		}
		if hi-lo <= 4 {
			out = append(out, line[lo:hi]...)
		} else {
			lowest, highest := lo, lo
			for i := lo; i < hi; i++ {
				if line[i].Y < line[lowest].Y {
					lowest = i
				}
				if line[i].Y > line[highest].Y {
					highest = i
				}
			}
			keep := []int{lo, min(lowest, highest), max(lowest, highest), hi - 1}
			for j, i := range keep {
				if j == 0 || i != keep[j-1] {
					out = append(out, line[i])
				}
			}
		}
		lo = hi
	}
	return out
}

// maxDots caps the wait dots of one figure: an SVG circle costs about a
// hundred bytes, so a whole multi-year queue (tens of thousands of jobs)
// would otherwise make a multi-megabyte SVG.
const maxDots = 2500

// dedupe returns the wait dots, leaving out a dot that would land on an
// already drawn one (same 1/2000 of the time range, same 1/100 of a decade
// of wait): the many zero waits otherwise make the SVG large for no visible
// difference. When more than maxDots remain, only every every-th job is
// drawn (every a power of two): a systematic sample keeps the waits'
// spread over time, where a coarser grid would draw a lattice.
func dedupe(submit, wait []int64, x func(int64) float64) (dots plotter.XYs, every int) {
	span := max(x(submit[len(submit)-1])-x(submit[0]), 1e-9)
	for every = 1; ; every *= 2 {
		type cell struct{ x, y int }
		seen := map[cell]bool{}
		dots = dots[:0]
		for i := 0; i < len(submit); i += every {
			xv, yv := x(submit[i]), float64(max(wait[i], 1))
			c := cell{int((xv - x(submit[0])) / span * 2000), int(math.Log10(yv) * 100)}
			if !seen[c] {
				seen[c] = true
				dots = append(dots, plotter.XY{X: xv, Y: yv})
			}
		}
		if len(dots) <= maxDots {
			return dots, every
		}
	}
}

// ordinal is the English suffix of n ("st", "nd", "rd", "th").
func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return "th"
	case n%10 == 1:
		return "st"
	case n%10 == 2:
		return "nd"
	case n%10 == 3:
		return "rd"
	}
	return "th"
}

// TrimGain scores one job for choosing which stretch of a queue to draw as
// Figure 4.1: +1 when the trimmed bound held and the full-history bound did
// not, −1 for the reverse, 0 otherwise. A negative bound is none (it did
// not hold).
func TrimGain(wait, full, trimmed int64) int {
	f := full >= 0 && wait <= full
	t := trimmed >= 0 && wait <= trimmed
	switch {
	case t && !f:
		return 1
	case f && !t:
		return -1
	}
	return 0
}
