package karnak

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"time"
)

// The queue charts are SVG drawn here with fmt, embedded in the queue's
// page (no plotting dependency in the library). Each series is one
// <path>, styled by class from the served stylesheet (the pages' CSP
// allows no inline style), with a <title> and a <desc> that say in words
// what it shows.

// Geometry of a chart, in SVG user units (it scales to the page's width).
const (
	chartW, chartH          = 640, 260
	chartLeft, chartRight   = 58, 12
	chartTop, chartBottom   = 30, 26
	maxDrawn                = 600 // points of one series drawn; more are thinned evenly
	chartLegendY, chartTick = 14, 4
)

// waitChart is the data of the waits chart of a queue: the started jobs'
// waits and the predictions sampled at submissions, over [from, to].
type waitChart struct {
	id, title string
	from, to  int64
	waits     []timed // at: the submission, v: the wait (seconds)
	preds     []predSample
	level     string // "95% bound at 90% confidence"
}

type timed struct {
	at int64
	v  float64
}

// coresChart is the data of the cores chart of a queue.
type coresChart struct {
	id, title string
	from, to  int64
	cores     []coreSample
}

// plot maps times and values to SVG coordinates.
type plot struct {
	from, to int64
	top      float64 // the value at the top of the frame (scaled)
	scale    func(float64) float64
}

func (p *plot) x(t int64) float64 {
	span := max(float64(p.to-p.from), 1)
	return chartLeft + float64(t-p.from)/span*(chartW-chartLeft-chartRight)
}

func (p *plot) y(v float64) float64 {
	f := p.scale(v) / p.top
	f = min(max(f, 0), 1)
	return chartH - chartBottom - f*(chartH-chartTop-chartBottom)
}

// waitScale is log10(1 + wait/1 min): 0 at no wait, and minutes, hours
// and days equally readable.
func waitScale(s float64) float64 { return math.Log10(1 + max(s, 0)/60) }

// head opens the SVG with its accessible title and description.
func head(b *bytes.Buffer, id, title, desc string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-t %s-d">`, chartW, chartH, id, id)
	fmt.Fprintf(b, `<title id="%s-t">%s</title><desc id="%s-d">%s</desc>`, id, html.EscapeString(title), id, html.EscapeString(desc))
}

// frame draws the axes, the day ticks of the time axis and the value
// ticks given (value, label).
func frame(b *bytes.Buffer, p *plot, ticks []timedLabel) {
	x0, x1 := float64(chartLeft), float64(chartW-chartRight)
	y0, y1 := float64(chartH-chartBottom), float64(chartTop)
	fmt.Fprintf(b, `<path class="axis" d="M%.1f %.1fV%.1fH%.1f"/>`, x0, y1, y0, x1)
	for _, t := range ticks {
		y := p.y(t.v)
		fmt.Fprintf(b, `<path class="grid" d="M%.1f %.1fH%.1f"/><text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`,
			x0, y, x1, x0-chartTick, y+4, html.EscapeString(t.label))
	}
	// One tick a day at midnight UTC, labelled with the date; the
	// rightmost label is the chart's end, now.
	day := int64(24 * 3600)
	for t := p.from - p.from%day + day; t < p.to; t += day {
		x := p.x(t)
		if x > x1-45 {
			break
		}
		fmt.Fprintf(b, `<path class="axis" d="M%.1f %.1fv%d"/><text class="tick" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`,
			x, y0, chartTick, x, y0+16, time.Unix(t, 0).UTC().Format("Jan 2"))
	}
	fmt.Fprintf(b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">now</text>`, x1, y0+16)
}

type timedLabel struct {
	v     float64
	label string
}

// legend draws one entry per series: a sample of its mark and its name.
func legend(b *bytes.Buffer, entries ...[2]string) {
	x := float64(chartLeft)
	for _, e := range entries {
		fmt.Fprintf(b, `<path class="%s" d="M%.1f %dh%s"/><text class="legend" x="%.1f" y="%d">%s</text>`,
			e[0], x+4, chartLegendY-4, markWidth(e[0]), x+14, chartLegendY, html.EscapeString(e[1]))
		x += 14 + 6.2*float64(len(e[1])) + 16
	}
}

func markWidth(class string) string {
	if class == "wait" || class == "est" {
		return "0"
	}
	return "8"
}

// noData writes the chart's empty state.
func noData(b *bytes.Buffer, what string) {
	fmt.Fprintf(b, `<text class="legend" x="%d" y="%d" text-anchor="middle">%s</text>`, chartW/2, chartH/2, html.EscapeString(what))
}

// thin keeps at most n of xs, evenly spaced, the first and the last
// among them.
func thin[T any](xs []T, n int) []T {
	if len(xs) <= n {
		return xs
	}
	out := make([]T, n)
	for i := range out {
		out[i] = xs[i*(len(xs)-1)/(n-1)]
	}
	return out
}

// drawWaits draws the waits chart: each started job's wait at its
// submission (a dot), and at each sampled answer the QBETS bound (a dash)
// and the IBL estimate (a dot with its interval as a whisker).
func drawWaits(b *bytes.Buffer, c *waitChart) {
	top := waitScale(3600)
	bounds, ests := 0, 0
	for _, w := range c.waits {
		top = max(top, waitScale(w.v))
	}
	for _, p := range c.preds {
		if p.bound >= 0 {
			bounds++
			top = max(top, waitScale(p.bound))
		}
		if p.est >= 0 {
			ests++
			top = max(top, waitScale(p.est))
		}
	}
	desc := fmt.Sprintf("%d jobs started, drawn at their submission at the height of their wait; %d QBETS bounds (%s) and %d IBL estimates with their interval, as the service gave them for a job just submitted. Wait axis: logarithmic in (1 + wait in minutes).",
		len(c.waits), bounds, c.level, ests)
	head(b, c.id, c.title, desc)
	p := &plot{from: c.from, to: c.to, top: top, scale: waitScale}
	var ticks []timedLabel
	for _, t := range []timedLabel{{0, "0"}, {60, "1 min"}, {600, "10 min"}, {3600, "1 h"}, {36000, "10 h"}, {86400, "1 d"}, {864000, "10 d"}, {8640000, "100 d"}} {
		if waitScale(t.v) <= top {
			ticks = append(ticks, t)
		}
	}
	frame(b, p, ticks)
	legend(b, [2]string{"wait", "wait of a started job"}, [2]string{"bound", "QBETS bound"}, [2]string{"est", "IBL estimate"}, [2]string{"ci", "interval"})
	if len(c.waits) == 0 && len(c.preds) == 0 {
		noData(b, "no job submitted in this window yet")
	}
	var ci, est, bound, wait bytes.Buffer
	for _, s := range thin(c.preds, maxDrawn) {
		x := p.x(s.at)
		if s.bound >= 0 {
			fmt.Fprintf(&bound, "M%.1f %.1fh6", x-3, p.y(s.bound))
		}
		if s.est >= 0 {
			fmt.Fprintf(&est, "M%.1f %.1fh0", x, p.y(s.est))
			if s.half >= 0 { // -1: unbounded (a single neighbour)
				fmt.Fprintf(&ci, "M%.1f %.1fV%.1f", x, p.y(s.est-s.half), p.y(s.est+s.half))
			}
		}
	}
	for _, w := range thin(c.waits, maxDrawn) {
		fmt.Fprintf(&wait, "M%.1f %.1fh0", p.x(w.at), p.y(w.v))
	}
	series(b, "ci", &ci)
	series(b, "wait", &wait)
	series(b, "bound", &bound)
	series(b, "est", &est)
	b.WriteString("</svg>")
}

// series writes one path, unless it is empty.
func series(b *bytes.Buffer, class string, d *bytes.Buffer) {
	if d.Len() > 0 {
		fmt.Fprintf(b, `<path class="%s" d="%s"/>`, class, d.Bytes())
	}
}

// drawCores draws the running and waiting cores as step lines.
func drawCores(b *bytes.Buffer, c *coresChart) {
	var peak int64 = 1
	for _, s := range c.cores {
		peak = max(peak, s.running, s.waiting)
	}
	step := niceStep(float64(peak))
	top := math.Ceil(float64(peak)/step) * step
	desc := fmt.Sprintf("Cores used by running jobs and requested by waiting jobs, sampled every %d minutes (%d samples); at most %d running and %d waiting.",
		coresEvery/60, len(c.cores), maxOf(c.cores, func(s coreSample) int64 { return s.running }), maxOf(c.cores, func(s coreSample) int64 { return s.waiting }))
	head(b, c.id, c.title, desc)
	p := &plot{from: c.from, to: c.to, top: top, scale: func(v float64) float64 { return v }}
	var ticks []timedLabel
	for v := 0.0; v <= top; v += step {
		ticks = append(ticks, timedLabel{v, fmt.Sprint(int64(v))})
	}
	frame(b, p, ticks)
	legend(b, [2]string{"running", "running cores"}, [2]string{"waiting", "waiting cores"})
	if len(c.cores) == 0 {
		noData(b, "no sample in this window yet")
	}
	var run, wait bytes.Buffer
	drawn := thin(c.cores, maxDrawn)
	for i, s := range drawn {
		x, yr, yw := p.x(s.at), p.y(float64(s.running)), p.y(float64(s.waiting))
		if i == 0 {
			fmt.Fprintf(&run, "M%.1f %.1f", x, yr)
			fmt.Fprintf(&wait, "M%.1f %.1f", x, yw)
			continue
		}
		fmt.Fprintf(&run, "H%.1fV%.1f", x, yr)
		fmt.Fprintf(&wait, "H%.1fV%.1f", x, yw)
	}
	if len(drawn) > 0 {
		fmt.Fprintf(&run, "H%.1f", p.x(c.to))
		fmt.Fprintf(&wait, "H%.1f", p.x(c.to))
	}
	series(b, "waiting", &wait)
	series(b, "running", &run)
	b.WriteString("</svg>")
}

// niceStep is a tick step of 1, 2 or 5 times a power of ten that divides
// [0, peak] into at most 5 intervals.
func niceStep(peak float64) float64 {
	raw := max(peak/5, 1)
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= raw {
			return m * pow
		}
	}
	return 10 * pow
}

func maxOf[T any](xs []T, f func(T) int64) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, f(x))
	}
	return m
}
