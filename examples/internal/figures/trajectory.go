package figures

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Trajectory is a VARQ probability trajectory (Nurmi's thesis Figure 5.4):
// for each candidate submission time, the predicted probability that the
// padded job is running by the reservation's start.
type Trajectory struct {
	Title string
	Now   int64     // when the plan was made (x = 0), seconds
	Start int64     // the reservation's start time D, seconds
	At    []int64   // candidate submission times, seconds, ascending
	Prob  []float64 // probability for each, in [0, 1]
	// Target is the requested probability (0: none drawn).
	Target float64
	// Chosen is the chosen submission time; negative: no plan (NOT_POSSIBLE).
	Chosen int64
	// Method names how Chosen was picked, for the legend (e.g. "latest
	// submission meeting the target").
	Method string
}

// Validate reports mismatched lengths or probabilities outside [0, 1].
func (t *Trajectory) Validate() error {
	if len(t.At) == 0 {
		return fmt.Errorf("figures: Trajectory %q: %w (no points)", t.Title, errEmpty)
	}
	if len(t.Prob) != len(t.At) {
		return fmt.Errorf("figures: Trajectory %q: %d probabilities for %d times", t.Title, len(t.Prob), len(t.At))
	}
	for i, p := range t.Prob {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("figures: Trajectory %q: Prob[%d] = %v outside [0, 1]", t.Title, i, p)
		}
	}
	if t.Target < 0 || t.Target > 1 || math.IsNaN(t.Target) {
		return fmt.Errorf("figures: Trajectory %q: Target %v outside [0, 1]", t.Title, t.Target)
	}
	return nil
}

// Trajectories draws the trajectory against hours after Now, the target
// probability as a dashed line and the chosen submission time as a vertical
// line, and writes dir/name.png and .svg.
func Trajectories(dir, name string, t Trajectory) ([]string, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	hour := func(s int64) float64 { return float64(s-t.Now) / 3600 }
	p := newPlot(t.Title, "submission time (hours after the request)", "P(job running by the start time)")
	// The axis runs to 1.4 so that the legend sits above the data; the
	// ticks stop at 1.
	p.Y.Min, p.Y.Max = 0, 1.4
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1"}}
	p.X.Min, p.X.Max = 0, max(hour(t.Start), hour(t.At[len(t.At)-1]))
	p.Legend.Top, p.Legend.Left = true, true

	xy := make(plotter.XYs, len(t.At))
	for i := range t.At {
		xy[i] = plotter.XY{X: hour(t.At[i]), Y: t.Prob[i]}
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.LineStyle = draw.LineStyle{Color: colorOf(0), Width: vg.Points(1.5)}
	p.Add(l)
	p.Legend.Add("QBETS probability (inverted query)", l)

	dashed := []vg.Length{vg.Points(5), vg.Points(3)}
	if t.Target > 0 {
		tl, _ := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: t.Target}, {X: p.X.Max, Y: t.Target}})
		tl.LineStyle = draw.LineStyle{Color: grey, Width: vg.Points(1), Dashes: dashed}
		p.Add(tl)
		p.Legend.Add(fmt.Sprintf("target probability %s", num(t.Target)), tl)
	}
	if t.Chosen < 0 && t.Target > 0 {
		// A refusal is an answer too: say so where the chosen time would be.
		p.Legend.Add(fmt.Sprintf("NOT_POSSIBLE: no submission reaches %s", num(t.Target)))
	}
	if t.Chosen >= 0 {
		x := hour(t.Chosen)
		cl, _ := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: 1}})
		cl.LineStyle = draw.LineStyle{Color: colorOf(1), Width: vg.Points(1.5)}
		p.Add(cl)
		label := fmt.Sprintf("VARQ submits at +%.2f h", x)
		if t.Method != "" {
			label += " (" + t.Method + ")"
		}
		p.Legend.Add(label, cl)
	}
	dl, _ := plotter.NewLine(plotter.XYs{{X: hour(t.Start), Y: 0}, {X: hour(t.Start), Y: 1}})
	dl.LineStyle = draw.LineStyle{Color: black, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}
	p.Add(dl)
	p.Legend.Add(fmt.Sprintf("reservation start (+%.1f h)", hour(t.Start)), dl)
	return render(dir, name, 8*vg.Inch, 4.5*vg.Inch, func(dc draw.Canvas) { p.Draw(dc) })
}
