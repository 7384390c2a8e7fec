package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// lanlWhoDigest pins the README's lanl-who region: who waits on LANL-CM5,
// the one log where the forecaster misses the 5-point bar. Its replay (the
// forecaster, the naive baseline and the estimates' simulation over
// 122,057 jobs) takes about 12 s of CPU and needs the log, so it is behind BATCHQ_LONG like the scoreboard; a
// plain `go test` checks the digest. Regenerate with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run TestReadmeLANLWho -timeout 30m
const lanlWhoDigest = "417e95149ac1438c93ef5dab2c37cbc3484889d6cd7f76a4a5fdf3f30380901e"

// TestReadmeLANLWho replays LANL-CM5 through the scoreboard's causal
// scoring (score.go's scorers and row.add) with the forecaster and the
// naive baseline, and tabulates over the scored jobs who waits and what
// the forecaster misses.
func TestReadmeLANLWho(t *testing.T) {
	readme.CheckLong(t, "README.md", map[string]string{"lanl-who": lanlWhoDigest}, func() map[string][]byte {
		b, err := lanlWho(tracetest.Path(t, tracetest.LANLCM5))
		if err != nil {
			t.Fatal(err)
		}
		return map[string][]byte{"lanl-who": b}
	})
}

// waitedLong is the wait (seconds) over which a job counts as waiting:
// 2 minutes, the longest wait a "now" answer (floored at 60 s) is within
// ×2 of.
const waitedLong = 120

// classOf is the power-of-two size class of the naive baseline, the
// forecaster (sched/forecast's sizeClass) and the intervals
// (qbets/conformal's default class): 0 for 1 processor, 1 for 2, 2 for
// 3–4, 3 for 5–8, …, and unknownClass for a job without a size (LANL-CM5's
// 3 have no wait: none is replayed).
func classOf(n int64) int {
	if n <= 0 {
		return unknownClass
	}
	return bits.Len64(uint64(n - 1))
}

// unknownClass is the size class of a job without a size: its own, as
// sched/forecast and qbets/conformal number it.
const unknownClass = 64

// classLabel names a size class by its processors.
func classLabel(c int) string {
	switch c {
	case 0:
		return "1"
	case 1:
		return "2"
	case unknownClass:
		return "unknown"
	}
	return fmt.Sprintf("%d–%d", 1<<(c-1)+1, 1<<c)
}

// queueNames reads the header's "Queue: N name" lines.
func queueNames(h *swf.Header) map[int64]string {
	names := map[int64]string{}
	for _, q := range h.Queue {
		f := strings.Fields(q)
		if len(f) < 2 {
			continue
		}
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			names[n] = strings.Join(f[1:], " ")
		}
	}
	return names
}

// running is a job the replay has seen start and not yet end.
type running struct {
	class         int
	procs         int64
	end, estimate int64 // by its real run time and by its user estimate (MaxInt64: unknown)
}

// classTally is one size class's scored jobs, split by whether a job of
// the same class was running at the question.
type classTally struct {
	jobs, waited         [2]int // [0]: none of the class running, [1]: one or more
	nearEnd, nearEstimat int    // waited with one running: wait within ×2 of the first one's end by run time / by estimate
}

// missKind classifies a forecaster's miss (outside ×2 of the wait, both
// floored at 60 s) of a job that waited wait seconds, told p.
func missKind(p, wait float64) string {
	switch {
	case p <= waitedLong && wait > p:
		return `told ≤ 2 min ("now"), waited longer`
	case wait > p:
		return "told > 2 min, waited more than twice that"
	case wait <= floor:
		return "told > 2 min, started within 1 min"
	default:
		return "told > 2 min, waited less than half of it"
	}
}

// lanlWho is the region's text for the log at path.
func lanlWho(path string) ([]byte, error) {
	h, jobs, err := swf.ReadFile(path)
	if err != nil {
		return nil, err
	}
	machine, err := h.MachineSize()
	if err != nil {
		return nil, err
	}
	names := queueNames(h)
	byQueue, _ := replay.Queues(jobs)
	all, err := replay.All(byQueue)
	if err != nil {
		return nil, err
	}
	sc, err := newScorers([]string{"forecast", "naive", "estimates"}, machine)
	if err != nil {
		return nil, err
	}
	ps := []replay.Predictor{sc[0].p, sc[1].p, sc[2].p}

	// The jobs the replay has seen start by the question at now (start ≤
	// now, end > now: ends before starts at equal times), from the log.
	byStart := make([]*swf.Job, len(all))
	for i := range all {
		byStart[i] = &all[i]
	}
	slices.SortStableFunc(byStart, func(a, b *swf.Job) int { return cmp.Compare(a.Submit+a.Wait, b.Submit+b.Wait) })
	var run []running
	next := 0
	waiters := map[waiterKey]*waitRing{} // the waits of the jobs that waited, by queue, size class and hour of submission
	advance := func(now int64) {
		for ; next < len(byStart) && byStart[next].Submit+byStart[next].Wait <= now; next++ {
			j := byStart[next]
			if j.Wait > waitedLong {
				k := waiterKeyOf(j)
				if waiters[k] == nil {
					waiters[k] = &waitRing{}
				}
				waiters[k].add(j.Wait)
			}
			r := running{class: classOf(j.Size()), procs: max(j.Size(), 0), end: math.MaxInt64, estimate: math.MaxInt64}
			if j.RunTime >= 0 {
				r.end = j.Submit + j.Wait + j.RunTime
			}
			if j.ReqTime > 0 {
				r.estimate = j.Submit + j.Wait + j.ReqTime
			}
			run = append(run, r)
		}
		run = slices.DeleteFunc(run, func(r running) bool { return r.end <= now })
	}

	type queueTally struct {
		jobs, waited int
		rows         [2]row // forecast, naive: scored as the scoreboard does
	}
	queues := map[int64]*queueTally{}
	classes := map[int]*classTally{}
	var total [2]row
	questions, over := 0, 0
	misses := map[string]int{}
	// The ceilings: the forecaster's answers with "will it wait more than
	// 2 minutes?" known (60 s for the jobs that do not), and per cell the
	// best of three answers chosen with hindsight.
	var ceil [2]int
	cells := map[cellKey]*[3]int{} // within ×2: the forecaster's answer, 60 s, the waiters' median
	snaps := map[snapKey]*[3]int{} // the same, by the snapshot's features
	var waiting []int              // indexes in all of the jobs arrived and not started by the question
	arrived := 0
	groups := map[string]map[string]int{}  // kind → "queue, class" → misses
	inQueue := map[string]map[string]int{} // kind → queue → misses
	opt := replay.Options{OnPredict: func(i int, j *swf.Job, now int64, ans []replay.Prediction) {
		advance(now)
		wait := float64(j.Submit + j.Wait - now)
		c := classOf(j.Size())
		var procs int64
		same, nc := 0, 0 // a job of its class running; how many
		firstEnd, firstEstimate := int64(math.MaxInt64), int64(math.MaxInt64)
		for _, r := range run {
			procs += r.procs
			if r.class == c {
				same = 1
				nc++
				firstEnd, firstEstimate = min(firstEnd, r.end), min(firstEstimate, r.estimate)
			}
		}
		questions++
		// The jobs of its queue and class waiting ahead of it.
		for ; arrived < i; arrived++ {
			waiting = append(waiting, arrived)
		}
		waiting = slices.DeleteFunc(waiting, func(k int) bool { return all[k].Submit+all[k].Wait <= now })
		ahead := 0
		var sk snapKey // (ahead and its age, burst)
		oldest := int64(-1)
		for _, k := range waiting {
			w := &all[k]
			if w.Queue != j.Queue {
				continue
			}
			if classOf(w.Size()) == c {
				ahead++
				oldest = max(oldest, now-w.Submit)
			}
			if w.User == j.User && w.Size() == j.Size() && w.ReqTime == j.ReqTime {
				sk.burst = 1
			}
		}
		fp := math.NaN()
		if a := ans[0]; a.OK {
			fp = a.Point
		}
		med := fp // the median wait of the jobs that waited of its queue, class and hour, else the forecaster's
		if r := waiters[waiterKeyOf(j)]; r != nil {
			med = r.median()
		}
		in2 := func(p float64) bool { return !math.IsNaN(p) && ratio(p, wait) <= math.Log10(2)+1e-12 }
		ck := cellKey{j.Queue, c, min(nc, 4), min(ahead, 3), int(j.Submit % 86400 / 3600)}
		cell := cells[ck]
		if cell == nil {
			cell = &[3]int{}
			cells[ck] = cell
		}
		sk.queue, sk.class, sk.ahead = j.Queue, c, min(ahead, 3)
		switch {
		case oldest < 0:
		case oldest < 2*3600:
			sk.age = 1
		default:
			sk.age = 2
		}
		if !math.IsNaN(fp) && fp > waitedLong {
			sk.told = min(1+int(math.Log2(fp/waitedLong)), 6)
		}
		if machine-procs >= j.Size() {
			sk.fits = 1
		}
		if now := func(a replay.Prediction) bool { return a.OK && a.Point <= waitedLong }; now(ans[1]) != now(ans[2]) {
			sk.disagree = 1
		}
		snap := snaps[sk]
		if snap == nil {
			snap = &[3]int{}
			snaps[sk] = snap
		}
		for k, p := range [3]float64{fp, floor, med} {
			if in2(p) {
				cell[k]++
				snap[k]++
			}
		}
		if wait <= waitedLong {
			ceil[0]++
			ceil[1]++
		} else {
			if in2(fp) {
				ceil[0]++
			}
			if in2(med) {
				ceil[1]++
			}
		}
		if procs > machine {
			over++
		}
		q := queues[j.Queue]
		if q == nil {
			q = &queueTally{}
			queues[j.Queue] = q
		}
		ct := classes[c]
		if ct == nil {
			ct = &classTally{}
			classes[c] = ct
		}
		q.jobs++
		ct.jobs[same]++
		if wait > waitedLong {
			q.waited++
			ct.waited[same]++
			if same == 1 {
				if firstEnd < math.MaxInt64 && ratio(float64(firstEnd-now), wait) <= math.Log10(2)+1e-12 {
					ct.nearEnd++
				}
				if firstEstimate < math.MaxInt64 && ratio(float64(firstEstimate-now), wait) <= math.Log10(2)+1e-12 {
					ct.nearEstimat++
				}
			}
		}
		for i, a := range ans[:2] {
			q.rows[i].add(a, wait, sc[i].w)
			total[i].add(a, wait, sc[i].w)
		}
		if a := ans[0]; a.OK && !math.IsNaN(a.Point) && ratio(a.Point, wait) > math.Log10(2)+1e-12 {
			k := missKind(math.Max(a.Point, floor), math.Max(wait, floor))
			misses[k]++
			if groups[k] == nil {
				groups[k] = map[string]int{}
			}
			groups[k][fmt.Sprintf("%s, %s processors", queueLabel(j.Queue, names), classLabel(c))]++
			if inQueue[k] == nil {
				inQueue[k] = map[string]int{}
			}
			inQueue[k][queueLabel(j.Queue, names)]++
		}
	}}
	if _, err := replay.Run(context.Background(), all, opt, ps...); err != nil {
		return nil, err
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "%s, the %s jobs scored (after the first 10%%): forecast %s%% and naive %s%% within ×2.\n\n",
		tracetest.ShortName(path), thousands(questions), pct(total[0].share(total[0].within2)), pct(total[1].share(total[1].within2)))
	b.WriteString("| queue (field 15) | jobs | waited > 2 min % | forecast within ×2 % | naive within ×2 % |\n")
	b.WriteString("|---|---:|---:|---:|---:|\n")
	qs := slices.SortedFunc(maps.Keys(queues), func(a, b int64) int {
		return cmp.Or(cmp.Compare(queues[b].jobs, queues[a].jobs), cmp.Compare(a, b))
	})
	for _, k := range qs {
		q := queues[k]
		fmt.Fprintf(&b, "| %s | %s | %.1f | %s | %s |\n", queueLabel(k, names), thousands(q.jobs), 100*float64(q.waited)/float64(q.jobs),
			pct(q.rows[0].share(q.rows[0].within2)), pct(q.rows[1].share(q.rows[1].within2)))
	}

	b.WriteString("\n| size class (processors) | jobs | waited > 2 min % | with a job of the class running at submission: jobs, waited % | with none: jobs, waited % | waited with one running: within ×2 of the first one's end, by run time (an oracle) / by estimate % |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for _, c := range slices.Sorted(maps.Keys(classes)) {
		ct := classes[c]
		n, w := ct.jobs[0]+ct.jobs[1], ct.waited[0]+ct.waited[1]
		fmt.Fprintf(&b, "| %s | %s | %.1f | %s, %s | %s, %s | %s / %s |\n", classLabel(c), thousands(n), 100*float64(w)/float64(n),
			thousands(ct.jobs[1]), share(ct.waited[1], ct.jobs[1]), thousands(ct.jobs[0]), share(ct.waited[0], ct.jobs[0]),
			share(ct.nearEnd, ct.waited[1]), share(ct.nearEstimat, ct.waited[1]))
	}
	fmt.Fprintf(&b, "\nAt %s of the %s questions (%.1f%%) the jobs running by the log hold more than the machine's %s processors.\n",
		thousands(over), thousands(questions), 100*float64(over)/float64(questions), thousands(int(machine)))

	nm := 0
	for _, n := range misses {
		nm += n
	}
	fmt.Fprintf(&b, "\nThe forecaster's %s misses (outside ×2, both floored at 60 s):\n\n", thousands(nm))
	b.WriteString("| miss | jobs | % of misses | largest queue: jobs | largest group (queue, size class): jobs |\n")
	b.WriteString("|---|---:|---:|---|---|\n")
	kinds := slices.SortedFunc(maps.Keys(misses), func(a, b string) int { return cmp.Or(cmp.Compare(misses[b], misses[a]), strings.Compare(a, b)) })
	for _, k := range kinds {
		tq, tg := largest(inQueue[k]), largest(groups[k])
		fmt.Fprintf(&b, "| %s | %s | %.1f | %s: %s | %s: %s |\n", k, thousands(misses[k]), 100*float64(misses[k])/float64(nm),
			tq, thousands(inQueue[k][tq]), tg, thousands(groups[k][tg]))
	}

	hind, hindSnap := 0, 0
	for _, c := range cells {
		hind += max(c[0], c[1], c[2])
	}
	for _, c := range snaps {
		hindSnap += max(c[0], c[1], c[2])
	}
	naive := total[1].share(total[1].within2)
	b.WriteString("\nCeilings, with hindsight (not forecasts): within ×2 if the answers were\n\n")
	b.WriteString("| answer | within ×2 % | against naive (points) |\n")
	b.WriteString("|---|---:|---:|\n")
	for _, c := range []struct {
		what string
		n    int
	}{
		{"the forecaster's (as scored)", total[0].within2},
		{"60 s for every job that waited ≤ 2 min (a perfect \"will it wait?\"), the forecaster's for the others", ceil[0]},
		{"60 s for every job that waited ≤ 2 min, and for the others the median wait of the last 20 jobs of their queue, size class and hour of submission that waited more than 2 min and had started by the question (else the forecaster's)", ceil[1]},
		{"per cell of queue, size class, running jobs of the class (0–4+), jobs of the queue and class waiting ahead (0–3+) and hour of submission, " + thousands(len(cells)) + " cells: whichever of the forecaster's, 60 s and that median is within ×2 for the most of the cell's jobs", hind},
		{"the same per cell of the snapshot's features: queue, size class, the forecaster's answer (≤ 2 min, else its doubling above 2 min, 1–6+), jobs of the queue and class waiting ahead (0–3+) and the oldest one's age (none, < 2 h, more), one of a burst (a job of the same user, queue, size and estimate waiting ahead), the free processors by the log holding the job, the estimates' simulation and naive disagreeing on \"within 2 min\"; " + thousands(len(snaps)) + " cells", hindSnap},
	} {
		v := float64(c.n) / float64(questions)
		fmt.Fprintf(&b, "| %s | %s | %+.1f |\n", c.what, pct(v), math.Round(1000*v)/10-math.Round(1000*naive)/10)
	}
	return b.Bytes(), nil
}

// waiterKey is a queue, a size class and an hour of submission (of the
// log's clock).
type waiterKey struct {
	queue int64
	class int
	hour  int64
}

func waiterKeyOf(j *swf.Job) waiterKey {
	return waiterKey{j.Queue, classOf(j.Size()), j.Submit % 86400 / 3600}
}

// cellKey is a cell of the hindsight ceiling: queue, size class, running
// jobs of the class (capped at 4), jobs of the queue and class waiting
// ahead (capped at 3), hour of submission.
type cellKey struct {
	queue                   int64
	class, run, ahead, hour int
}

// snapKey is a cell of the hindsight ceiling by the snapshot's features
// (lanlWho's table says which).
type snapKey struct {
	queue                                          int64
	class, told, ahead, age, burst, fits, disagree int
}

// waitRing holds the last 20 waits added.
type waitRing struct{ w []int64 }

func (r *waitRing) add(w int64) {
	if len(r.w) == 20 {
		r.w = r.w[1:]
	}
	r.w = append(r.w, w)
}

// median is the upper median of the waits held.
func (r *waitRing) median() float64 {
	s := slices.Clone(r.w)
	slices.Sort(s)
	return float64(s[len(s)/2])
}

// queueLabel is a queue's number with its header name, where the log
// gives one.
func queueLabel(q int64, names map[int64]string) string {
	if n, ok := names[q]; ok && n != fmt.Sprint(q) {
		return fmt.Sprintf("%d `%s`", q, n)
	}
	return fmt.Sprint(q)
}

// share is n of d in percent with one decimal, "–" when d is 0.
func share(n, d int) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*float64(n)/float64(d))
}

// largest is the key of m with the largest count (the first in order on a
// tie).
func largest(m map[string]int) string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b)) })[0]
}
