package main

import (
	"fmt"
	"io"
	"math"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/synth"
)

// The README's tables: the model's statistics beside the analytic values of
// the coded model (spec lublin99 §8, §10.1), and beside the Lublin
// 256-node log made by the reference C (§10.2).

// moments accumulates one stream of jobs (all, or one queue type).
type moments struct {
	n, serial, pow2        int
	size, size2, run, run2 float64
	work                   float64
	first, last            int64 // submit times
	maxSize                int64
	hour                   [24]int
	ia2                    float64 // Σ squared inter-arrival gaps
}

func (m *moments) add(j swf.Job, startHour int) {
	n, r := float64(j.AllocProcs), float64(j.RunTime)
	switch {
	case j.AllocProcs == 1:
		m.serial++
	case j.AllocProcs&(j.AllocProcs-1) == 0:
		m.pow2++
	}
	if m.n == 0 {
		m.first = j.Submit
	} else {
		d := float64(j.Submit - m.last)
		m.ia2 += d * d
	}
	m.n++
	m.size, m.size2, m.run, m.run2, m.work = m.size+n, m.size2+n*n, m.run+r, m.run2+r*r, m.work+n*r
	m.last = j.Submit
	m.maxSize = max(m.maxSize, j.AllocProcs)
	m.hour[(j.Submit/3600+int64(startHour))%24]++
}

func (m *moments) share(k int) float64 { return float64(k) / float64(m.n) }
func (m *moments) meanSize() float64   { return m.size / float64(m.n) }
func (m *moments) meanRun() float64    { return m.run / float64(m.n) }
func (m *moments) sdSize() float64 {
	return math.Sqrt(m.size2/float64(m.n) - m.meanSize()*m.meanSize())
}
func (m *moments) sdRun() float64 { return math.Sqrt(m.run2/float64(m.n) - m.meanRun()*m.meanRun()) }

// hours is the share of the stream's arrivals in the clock hours [from, to).
func (m *moments) hours(from, to int) float64 {
	c := 0
	for h := from; h < to; h++ {
		c += m.hour[h]
	}
	return m.share(c)
}

// sample draws n jobs of cfg: every job, and per queue (0 interactive, 1
// batch). Mean inter-arrival times are last submit / jobs from time 0, as
// the spec computes them.
func sample(cfg synth.Config, n int) (all moments, byType [2]moments, err error) {
	g, err := synth.New(cfg)
	if err != nil {
		return all, byType, err
	}
	for range n {
		j := g.Next()
		all.add(j, cfg.StartHour)
		byType[j.Queue].add(j, cfg.StartHour)
	}
	return all, byType, nil
}

func ia(m *moments) float64 { return float64(m.last) / float64(m.n) }

// writeModelStats prints the model's statistics against the spec's analytic
// values: 10^6 typed jobs (seed 1) and 3·10^5 typeless (seed 7), 128 nodes.
func writeModelStats(w io.Writer) error {
	all, t, err := sample(synth.Config{Seed: 1}, 1_000_000)
	if err != nil {
		return err
	}
	tl, _, err := sample(synth.Config{Typeless: true, Seed: 7}, 300_000)
	if err != nil {
		return err
	}
	b, i := &t[1], &t[0]
	fmt.Fprintln(w, "| statistic | spec | ours |")
	fmt.Fprintln(w, "|---|---|---|")
	fmt.Fprintf(w, "| serial share batch / interactive / all | 0.2927 / 0.1541 / 0.17485 | %.4f / %.4f / %.4f |\n", b.share(b.serial), i.share(i.serial), all.share(all.serial))
	fmt.Fprintf(w, "| power-of-two (≥2) share batch / interactive / all | 0.67566 / 0.69136 / 0.68901 | %.4f / %.4f / %.4f |\n", b.share(b.pow2), i.share(i.pow2), all.share(all.pow2))
	fmt.Fprintf(w, "| mean size batch / interactive | 13.893 / 8.045 | %.2f / %.3f |\n", b.meanSize(), i.meanSize())
	fmt.Fprintf(w, "| mean run time batch / interactive / all, s | 9,491.8 / 240.5 / 1,625.7 | %.0f / %.1f / %.0f |\n", b.meanRun(), i.meanRun(), all.meanRun())
	fmt.Fprintf(w, "| mean inter-arrival batch / interactive / merged, s | 3,516.9 / 619.3 / 526.6 | %.0f / %.1f / %.1f |\n", ia(b), ia(i), ia(&all))
	fmt.Fprintf(w, "| offered load on 128 nodes | 0.4005 | %.3f |\n", all.work/(128*float64(all.last)))
	fmt.Fprintf(w, "| interactive share 13–15 h / batch 12–14 h / interactive 03–05 h | 0.1556 / 0.1381 / 0.0173 | %.4f / %.4f / %.4f |\n", i.hours(13, 15), b.hours(12, 14), i.hours(3, 5))
	fmt.Fprintf(w, "| typeless serial / pow2 / mean size | 0.244 / 0.62507 / 12.134 | %.4f / %.4f / %.2f |\n", tl.share(tl.serial), tl.share(tl.pow2), tl.meanSize())
	fmt.Fprintf(w, "| typeless mean run time / mean IA, s / load on 128 | 4,357.5 / 911.3 / 0.7221 | %.0f / %.1f / %.4f |\n", tl.meanRun(), ia(&tl), tl.work/(128*float64(tl.last)))
	// A target load changes only the arrival shape (§8): the realised load
	// of 3·10^5 jobs (seed 3) for two targets, and the E_max share of the
	// modal estimates (spec §13: 21.7329%).
	var loads []string
	for _, rho := range []float64{0.5, 0.9} {
		m, _, err := sample(synth.Config{Seed: 3, TargetLoad: rho}, 300_000)
		if err != nil {
			return err
		}
		loads = append(loads, fmt.Sprintf("%.3f", m.work/(128*float64(m.last))))
	}
	fmt.Fprintf(w, "| realised load for a target of 0.5 / 0.9 (3·10^5 jobs, seed 3) | 0.5 / 0.9 | %s / %s |\n", loads[0], loads[1])
	share, err := eMaxShare()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "| with `-estimates`: share of 10^4 jobs at E_max (seed 4) | 21.7329%% | %.2f%% |\n", share)
	return nil
}

// eMaxShare is the share of jobs (%) whose modal-model estimate is E_max,
// the longest run time.
func eMaxShare() (float64, error) {
	g, err := synth.New(synth.Config{Seed: 4, Estimator: estmodel.Modal{}})
	if err != nil {
		return 0, err
	}
	jobs, err := g.Jobs(10000)
	if err != nil {
		return 0, err
	}
	var longest int64
	for _, j := range jobs {
		longest = max(longest, j.RunTime)
	}
	at := 0
	for _, j := range jobs {
		if j.ReqTime == longest {
			at++
		}
	}
	return 100 * float64(at) / float64(len(jobs)), nil
}

// writeAnchor prints the Lublin 256-node log against 10^6 jobs of ours with
// the same setting (Machine 256, Typeless; seed 11). SE is the standard
// error of a 10^4-job mean from our sample's standard deviation.
func writeAnchor(w io.Writer, anchor []swf.Job) error {
	var a moments
	for _, j := range anchor {
		a.add(j, 0)
	}
	o, _, err := sample(synth.Config{Machine: 256, Typeless: true, Seed: 11}, 1_000_000)
	if err != nil {
		return err
	}
	k := math.Sqrt(float64(a.n))
	// Mean inter-arrival over the span, as the anchor's first job is not at 0.
	span := func(m *moments) float64 { return float64(m.last-m.first) / float64(m.n-1) }
	iaSD := func(m *moments) float64 { return math.Sqrt(m.ia2/float64(m.n-1) - span(m)*span(m)) }
	load := func(m *moments) float64 { return m.work / (256 * float64(m.last)) }
	fmt.Fprintln(w, "| statistic | lublin_256.swf | ours | SE (10^4 jobs) | (log − ours) / SE |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	row := func(name, format string, x, y, se float64) {
		f := func(v float64) string { return fmt.Sprintf(format, v) }
		if se == 0 {
			fmt.Fprintf(w, "| %s | %s | %s | — | — |\n", name, f(x), f(y))
			return
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.2g | %+.1f |\n", name, f(x), f(y), se, (x-y)/se)
	}
	ps, pp := o.share(o.serial), o.share(o.pow2)
	row("serial share", "%.4f", a.share(a.serial), ps, math.Sqrt(ps*(1-ps))/k)
	row("power-of-two (≥2) share", "%.3f", a.share(a.pow2), pp, math.Sqrt(pp*(1-pp))/k)
	row("mean size", "%.2f", a.meanSize(), o.meanSize(), o.sdSize()/k)
	row("max size", "%.0f", float64(a.maxSize), float64(o.maxSize), 0)
	row("mean run time, s", "%.0f", a.meanRun(), o.meanRun(), o.sdRun()/k)
	row("mean inter-arrival, s", "%.1f", span(&a), span(&o), iaSD(&o)/k)
	row("load on 256 nodes", "%.2f", load(&a), load(&o), 0)
	return nil
}
