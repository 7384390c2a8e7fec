package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"github.com/batchq/batchq/internal/flurrytest"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// The butterfly effect of thesis §6.2 on the cleaned SDSC-SP2 log. The PWA
// cleaning removed user 328's 375-job flurry of day 581 (inside its
// 452-job filter), so we put a synthetic one of the same shape back: 375
// jobs of user 328, size 32, estimate 5 min, run 1–2 min, sequential over
// 10 h, on the log's 581st day. Then, as in the thesis, job 64,241
// (18:00:30 on 9 processors, submitted a month before) is shortened by 30 s,
// and mean bounded slowdown under EASY is compared: with the flurry,
// without it, and with the flurry removed by the detector's own filter.

// hourSec and daySec are an hour and a day in seconds, SWF's unit.
const hourSec, daySec = 3600, 24 * 3600

const (
	butterflyJob     = 64241
	butterflyCut     = 30 // seconds
	butterflyDay     = 580
	butterflySize    = 32
	butterflyMachine = 128
)

// bsld holds the means of one simulation: over every job (the thesis's
// "all the jobs in the trace"), over the A7 averaged set, and over the
// flurry and non-flurry jobs separately (§6.5.4).
type bsld struct {
	all, included, flurry, other float64
	starts                       map[int64]int64 // job ID → start
}

func simulate(ctx context.Context, jobs []swf.Job, flurry map[int64]bool) (bsld, error) {
	res, err := sched.Run(ctx, sched.EASY(butterflyMachine), jobs)
	if err != nil {
		return bsld{}, err
	}
	var b bsld
	b.starts = make(map[int64]int64, len(res.Records))
	var nf, no int
	for _, r := range res.Records {
		b.starts[r.Job.ID] = r.Start
		b.all += r.BSLD
		if flurry[r.Job.ID] {
			b.flurry += r.BSLD
			nf++
		} else {
			b.other += r.BSLD
			no++
		}
	}
	b.all /= float64(len(res.Records))
	b.flurry /= float64(max(nf, 1))
	b.other /= float64(max(no, 1))
	b.included = res.Summary.MeanBSLD
	return b, nil
}

// shorten returns a copy of jobs with job id's run time changed by d.
func shorten(jobs []swf.Job, id, d int64) ([]swf.Job, error) {
	out := slices.Clone(jobs)
	for i := range out {
		if out[i].ID == id {
			out[i].RunTime += d
			return out, nil
		}
	}
	return nil, fmt.Errorf("job %d not in the log", id)
}

// pair simulates jobs and jobs with the cut, and returns both and how many
// jobs changed start time (and the largest change, hours).
func pair(ctx context.Context, jobs []swf.Job, flurry map[int64]bool) (orig, cut bsld, changed int, maxH float64, err error) {
	if orig, err = simulate(ctx, jobs, flurry); err != nil {
		return
	}
	short, err := shorten(jobs, butterflyJob, -butterflyCut)
	if err != nil {
		return
	}
	if cut, err = simulate(ctx, short, flurry); err != nil {
		return
	}
	for id, s := range orig.starts {
		if d := cut.starts[id] - s; d != 0 {
			changed++
			maxH = max(maxH, float64(abs(d))/3600)
		}
	}
	return
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// butterflyRow is one injected start hour.
type butterflyRow struct {
	hour                         int64
	with, withCut                bsld
	changed                      int
	maxH                         float64
	removed, removedCut          bsld
	removedJobs, removedInjected int
	detected                     bool
}

func butterflyRun(ctx context.Context, jobs []swf.Job, hour int64) (butterflyRow, error) {
	row := butterflyRow{hour: hour}
	s := flurry581(hour)
	inj, flurry, err := injected(jobs, hour)
	if err != nil {
		return row, err
	}
	if row.with, row.withCut, row.changed, row.maxH, err = pair(ctx, inj, flurry); err != nil {
		return row, err
	}
	cs, err := sanitize.DetectFlurries(inj, sanitize.FlurryConfig{})
	if err != nil {
		return row, err
	}
	// The detector's own filter: the candidate naming user 328 that covers
	// the flurry. Only that one is applied, so the comparison isolates it.
	var fs sanitize.Filters
	for _, c := range cs {
		if c.User == s.User && c.First <= s.Start+s.Duration && c.Last >= s.Start {
			fs = append(fs, c.Filter)
		}
	}
	row.detected = len(fs) > 0
	kept, _ := fs.Apply(inj)
	row.removedJobs = len(inj) - len(kept)
	for i := range inj {
		if flurry[inj[i].ID] && fs.Match(&inj[i]) >= 0 {
			row.removedInjected++
		}
	}
	if row.removed, row.removedCut, _, _, err = pair(ctx, kept, flurry); err != nil {
		return row, err
	}
	return row, nil
}

// butterflyHours are the injected flurry's start hours on day 581 (the
// thesis does not give the hour; the effect is chaotic, so all are shown).
var butterflyHours = []int64{0, 3, 6, 9, 12, 15, 18, 21}

func butterflyExp(ctx context.Context, w io.Writer, dir string) error {
	_, jobs, err := swf.ReadFile(filepath.Join(dir, tracetest.SDSCSP2))
	if err != nil {
		return err
	}
	jobs, _ = sanitize.Reorder(jobs)
	base, baseCut, changed, maxH, err := pair(ctx, jobs, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nButterfly: SDSC-SP2 cln, EASY, job %d shortened by %d s; mean bsld over all jobs (A7 averaged set in brackets)\n\n", butterflyJob, butterflyCut)
	fmt.Fprintln(w, "| log | flurry start (day 581 +h) | original | job cut 30 s | Δ | jobs moved | max move h | flurry jobs orig → cut | other jobs orig → cut |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	fmt.Fprintf(w, "| no flurry | – | %.2f [%.2f] | %.2f [%.2f] | %+.2f%% | %d | %.1f | – | – |\n",
		base.all, base.included, baseCut.all, baseCut.included, pct(base.all, baseCut.all), changed, maxH)
	var rows []butterflyRow
	for _, h := range butterflyHours {
		r, err := butterflyRun(ctx, jobs, h)
		if err != nil {
			return err
		}
		rows = append(rows, r)
		fmt.Fprintf(w, "| + 375-job flurry | %d | %.2f [%.2f] | %.2f [%.2f] | %+.2f%% | %d | %.1f | %.0f → %.0f | %.2f → %.2f |\n",
			h, r.with.all, r.with.included, r.withCut.all, r.withCut.included, pct(r.with.all, r.withCut.all),
			r.changed, r.maxH, r.with.flurry, r.withCut.flurry, r.with.other, r.withCut.other)
	}
	fmt.Fprintln(w, "\nThe same, with the flurry removed by the detector's own filter:")
	fmt.Fprintln(w, "\n| flurry start (day 581 +h) | detected | jobs removed (injected) | original | job cut 30 s | Δ |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %d | %v | %d (%d of 375) | %.2f [%.2f] | %.2f [%.2f] | %+.2f%% |\n", r.hour, r.detected, r.removedJobs, r.removedInjected,
			r.removed.all, r.removed.included, r.removedCut.all, r.removedCut.included, pct(r.removed.all, r.removedCut.all))
	}
	if err := sweepExp(ctx, w, jobs); err != nil {
		return err
	}
	return shakeExp(ctx, w, jobs)
}

func pct(a, b float64) float64 { return 100 * (b - a) / a }

// sweepOffsets are the run-time offsets of job 64,241 of Fig. 6.3, minutes.
var sweepOffsets = []int64{-10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

// spread simulates jobs with every offset of job 64,241 and returns the
// range of the mean bsld over all jobs, of the flurry jobs' mean and of
// the other jobs' mean.
func spread(ctx context.Context, jobs []swf.Job, flurry map[int64]bool) (all, fl, other [2]float64, err error) {
	for k, off := range sweepOffsets {
		j, err := shorten(jobs, butterflyJob, 60*off)
		if err != nil {
			return all, fl, other, err
		}
		b, err := simulate(ctx, j, flurry)
		if err != nil {
			return all, fl, other, err
		}
		if k == 0 {
			all, fl, other = [2]float64{b.all, b.all}, [2]float64{b.flurry, b.flurry}, [2]float64{b.other, b.other}
		}
		all = [2]float64{min(all[0], b.all), max(all[1], b.all)}
		fl = [2]float64{min(fl[0], b.flurry), max(fl[1], b.flurry)}
		other = [2]float64{min(other[0], b.other), max(other[1], b.other)}
	}
	return all, fl, other, nil
}

// sweepExp is the Fig. 6.3 / 6.14 experiment: the run time of job 64,241
// moved by −10..+10 min; how far the mean moves, with and without the
// flurry (and with it removed by the detector's filter).
func sweepExp(ctx context.Context, w io.Writer, jobs []swf.Job) error {
	fmt.Fprintf(w, "\nFig. 6.3 analogue: run time of job %d offset by −10..+10 min (21 runs each); range of mean bsld over all jobs\n\n", butterflyJob)
	fmt.Fprintln(w, "| input | min | max | range | flurry jobs' mean min..max | other jobs' mean min..max |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	a, _, _, err := spread(ctx, jobs, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "| cln, no flurry | %.2f | %.2f | %.2f (%.1f%%) | – | %.2f..%.2f |\n", a[0], a[1], a[1]-a[0], 100*(a[1]-a[0])/a[0], a[0], a[1])
	for _, h := range butterflyHours {
		inj, fl, err := injected(jobs, h)
		if err != nil {
			return err
		}
		a, f, o, err := spread(ctx, inj, fl)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "| cln + flurry at +%d h | %.2f | %.2f | %.2f (%.1f%%) | %.0f..%.0f | %.2f..%.2f |\n", h, a[0], a[1], a[1]-a[0], 100*(a[1]-a[0])/a[0], f[0], f[1], o[0], o[1])
	}
	return nil
}

// flurry581 is the synthetic user-328 flurry starting h hours into the
// log's 581st day.
func flurry581(h int64) flurrytest.Synthetic {
	return flurrytest.Synthetic{User: 328, Jobs: 375, Start: butterflyDay*daySec + h*hourSec, Duration: 10 * hourSec,
		Size: butterflySize, ReqTime: 300, RunMin: 60, RunMax: 120}
}

// injected returns jobs with flurry581(h) injected, its run times drawn
// from a seed of h so that the butterfly, sweep and shaking experiments
// (and the tests) see the same flurry for the same hour, and the set of
// the injected job IDs.
func injected(jobs []swf.Job, h int64) ([]swf.Job, map[int64]bool, error) {
	inj, ids, err := flurrytest.Inject(jobs, flurry581(h), rand.New(rand.NewPCG(581, uint64(h))))
	if err != nil {
		return nil, nil, err
	}
	fl := make(map[int64]bool, len(ids))
	for _, id := range ids {
		fl[id] = true
	}
	return inj, fl, nil
}
