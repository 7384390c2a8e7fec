package figures

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SchedResult is one simulation: a scheduler variant on a log, with the
// paper's values when there are some (Tsafrir's thesis Table 4.3).
type SchedResult struct {
	Log, Variant string
	MeanWait     float64 // seconds
	MeanBSLD     float64 // mean bounded slowdown
	// PaperWait (seconds) and PaperBSLD are the paper's values; 0 or NaN
	// means none.
	PaperWait, PaperBSLD float64
}

// Schedulers draws mean wait (minutes) and mean bounded slowdown as bars,
// one panel per log and metric, one bar per variant (in order of first
// appearance), with the paper's value as a marker on its bar, and writes
// dir/name.png and .svg.
func Schedulers(dir, name, title string, rs []SchedResult) ([]string, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("figures: Schedulers %q: %w (no results)", title, errEmpty)
	}
	var logs, variants []string
	for i, r := range rs {
		if r.Log == "" || r.Variant == "" {
			return nil, fmt.Errorf("figures: Schedulers %q: result %d has no log or variant name", title, i)
		}
		if bad(r.MeanWait) || bad(r.MeanBSLD) {
			return nil, fmt.Errorf("figures: Schedulers %q: %s %s: wait %v, bsld %v (must be finite, ≥ 0)", title, r.Log, r.Variant, r.MeanWait, r.MeanBSLD)
		}
		if !slices.Contains(logs, r.Log) {
			logs = append(logs, r.Log)
		}
		if !slices.Contains(variants, r.Variant) {
			variants = append(variants, r.Variant)
		}
	}
	metrics := []struct {
		label        string
		ours, theirs func(SchedResult) float64
	}{
		{"mean wait (min)", func(r SchedResult) float64 { return r.MeanWait / 60 }, func(r SchedResult) float64 { return r.PaperWait / 60 }},
		{"mean bounded slowdown (τ = 10 s)", func(r SchedResult) float64 { return r.MeanBSLD }, func(r SchedResult) float64 { return r.PaperBSLD }},
	}
	plots := make([][]*plot.Plot, len(metrics))
	for m, met := range metrics {
		plots[m] = make([]*plot.Plot, len(logs))
		for l, log := range logs {
			p := plot.New()
			if m == 0 {
				p.Title.Text = log
			}
			if l == 0 {
				p.Y.Label.Text = met.label
			}
			p.X.Tick.Label.Rotation = math.Pi / 6
			p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
			p.NominalX(variants...)
			var paper plotter.XYs
			top := 0.0
			for v, variant := range variants {
				i := slices.IndexFunc(rs, func(r SchedResult) bool { return r.Log == log && r.Variant == variant })
				if i < 0 {
					continue
				}
				b, err := plotter.NewBarChart(plotter.Values{met.ours(rs[i])}, vg.Points(22))
				if err != nil {
					return nil, err
				}
				b.XMin = float64(v)
				b.Color = colorOf(v)
				b.LineStyle.Width = 0
				p.Add(b)
				top = max(top, met.ours(rs[i]))
				if t := met.theirs(rs[i]); t > 0 && !math.IsInf(t, 0) {
					paper = append(paper, plotter.XY{X: float64(v), Y: t})
					top = max(top, t)
				}
			}
			if len(paper) > 0 {
				sc, err := plotter.NewScatter(paper)
				if err != nil {
					return nil, err
				}
				sc.GlyphStyle = draw.GlyphStyle{Color: black, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
				p.Add(sc)
				if m == 0 && l == 0 {
					p.Legend.Add("thesis value", sc)
					p.Legend.Top = true
				}
			}
			p.Y.Tick.Marker = plainTicks{}
			p.Y.Min, p.Y.Max = 0, 1.35*top
			if top == 0 {
				p.Y.Max = 1
			}
			plots[m][l] = p
		}
	}
	w := vg.Length(max(2.6*float64(len(logs)), 5)) * vg.Inch
	return render(dir, name, w, 5.2*vg.Inch, func(dc draw.Canvas) {
		if title != "" {
			dc = titled(dc, title)
		}
		grid(dc, plots)
	})
}

func bad(x float64) bool { return x < 0 || math.IsNaN(x) || math.IsInf(x, 0) }

// titled writes a figure title at the top of dc and returns the canvas
// below it.
func titled(dc draw.Canvas, title string) draw.Canvas {
	sty := plot.New().Title.TextStyle
	h := sty.Height(title)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	dc.FillText(sty, vg.Point{X: dc.Center().X, Y: dc.Max.Y - vg.Millimeter}, title)
	dc.Max.Y -= h + 2*vg.Millimeter
	return dc
}
