package figures

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// durationTicks marks a log-scale axis of seconds at human durations (1 s,
// 10 s, 1 min, 10 min, 1 h, 10 h, 1 d, 1 w, ...), which read faster than
// powers of ten for queue waits.
type durationTicks struct {
	max float64 // no ticks above (0: the axis maximum)
}

var durations = []struct {
	s     float64
	label string
}{
	{1, "1 s"}, {10, "10 s"}, {60, "1 min"}, {600, "10 min"}, {3600, "1 h"}, {36000, "10 h"},
	{86400, "1 d"}, {604800, "1 w"}, {2592000, "30 d"}, {31536000, "1 y"},
}

// Ticks implements plot.Ticker.
func (d durationTicks) Ticks(lo, hi float64) []plot.Tick {
	if d.max > 0 {
		hi = min(hi, d.max*1.5)
	}
	var ts []plot.Tick
	for _, d := range durations {
		if d.s >= lo && d.s <= hi {
			ts = append(ts, plot.Tick{Value: d.s, Label: d.label})
		}
	}
	if len(ts) < 2 {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	return ts
}

// num formats a value for a label: integers plainly, others with up to
// three significant digits.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e9 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// plainTicks is plot.DefaultTicks with labels in their shortest form
// ("2.5", "100", not "2.50", "100.00").
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

// dayTicks marks a time axis in days at whole multiples of 1, 2 or 5 × 10^k
// days, at most about ten of them.
type dayTicks struct{}

// Ticks implements plot.Ticker.
func (dayTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if span <= 0 {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := math.Pow(10, math.Floor(math.Log10(span/10)))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= 10 {
			step *= m
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		if minor := v + step/2; minor <= hi {
			ts = append(ts, plot.Tick{Value: minor})
		}
	}
	return ts
}
