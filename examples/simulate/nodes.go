package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf/convert"
)

// The report's parts for a machine of nodes (-nodes) and for a trace
// with logged waits.

// machineFacts is a machine of nodes summed, in the nodes file's units
// (an Alibaba list's cores are thousandths of a core, its memory MiB).
type machineFacts struct {
	File        string `json:"file"`
	Kinds       int    `json:"kinds"`
	Nodes       int64  `json:"nodes"`
	Cores       int64  `json:"cores"`
	Memory      int64  `json:"memory"`
	GPUs        int64  `json:"gpus"`
	Placement   string `json:"placement"`
	CountMemory bool   `json:"count_memory"`
}

func factsOf(info *runInfo) *machineFacts {
	if info.nodes == nil {
		return nil
	}
	f := &machineFacts{File: strings.TrimPrefix(info.machineFrom, "-nodes "), Kinds: len(info.nodes), CountMemory: info.cfg.CountMemory}
	for _, k := range info.nodes {
		f.Nodes += k.Count
		f.Cores += k.Count * k.Cores
		f.Memory += k.Count * k.Memory
		f.GPUs += k.Count * k.GPUs
	}
	f.Placement = "first fit"
	if info.cfg.Placement != nil {
		f.Placement = info.cfg.Placement.Name()
	}
	return f
}

// use is sched.Result.Use over the whole schedule: the time-weighted share
// of each resource the jobs held, from the first start to the last end.
type use struct {
	Cores  float64 `json:"cores"`
	Memory float64 `json:"memory"`
	GPUs   float64 `json:"gpus"`
}

func useOf(res *sched.Result) use {
	c, m, g := res.Use(0, 0)
	return use{c, m, g}
}

// waitStats describe a set of waits, in seconds.
type waitStats struct {
	Mean   float64 `json:"mean_s"`
	Median float64 `json:"median_s"`
	P95    float64 `json:"p95_s"`
	Waited float64 `json:"waited"` // the share of jobs that waited at all
}

// statsOf summarises waits (reordered in place); nearest-rank quantiles.
// The streamed read keeps its waits in 32 bits while they fit (waitLists).
// The median and the 95th percentile are selected, not sorted for: a sort
// of SDSC-BLUE's two wait lists was 7% of the whole command's CPU. The
// mean is the sum in sorted order, as before: the same value in any order
// while every partial sum is an integer below 2^53 (checked), else the
// list is sorted first.
func statsOf[T int32 | int64](w []T) waitStats {
	if len(w) == 0 {
		return waitStats{}
	}
	// One pass: the count that waited, the sum as an integer and the
	// extremes. While n·max|x| < 2^53 every partial sum, in any order, is
	// an integer below 2^53: the float sum is exact, the integer's value
	// (the loops of Σ|x| and of the float sum were 28 instructions a
	// wait, 0.9% of SDSC-BLUE's EASY run; this one is 13, callgrind).
	waited, isum, lo, hi := 0, int64(0), w[0], w[0]
	for _, x := range w {
		if x > 0 {
			waited++
		}
		isum += int64(x) // (wraps only past the bound, where it is not used)
		lo, hi = min(lo, x), max(hi, x)
	}
	sum := float64(isum)
	h, l := int64(hi), int64(lo)
	if big := max(uint64(max(h, -h)), uint64(max(l, -l))); big > (1<<53-1)/uint64(len(w)) {
		// (x = MinInt64 gives itself: 2^63 as uint64)
		sum = sortedSum(w)
	}
	rank := func(q float64) int {
		k := int(math.Ceil(q*float64(len(w)))) - 1
		return max(0, min(k, len(w)-1))
	}
	n := float64(len(w))
	k50, k95 := rank(0.5), rank(0.95)
	median := nth(w, k50)
	// nth leaves w[k50:] the larger part (w[:k50] ≤ w[k50] ≤ w[k50+1:]),
	// so the 95th percentile is selected among it alone (k95 ≥ k50).
	p95 := nth(w[k50:], k95-k50)
	return waitStats{Mean: sum / n, Median: float64(median), P95: float64(p95), Waited: float64(waited) / n}
}

// sortedSum is the float64 sum of w added one value at a time in
// ascending order, the mean's sum whatever w's order. It is not exact:
// past 2^53 the additions round, which is why the order is fixed. It sorts
// w (in place) only when Σ|x| reaches 2^53: below, every partial sum in
// any order is an integer below 2^53, held exactly, so any order gives
// the sorted order's value.
func sortedSum[T int32 | int64](w []T) float64 {
	var abs uint64 // Σ|x|, saturating at 2^53
	for _, x := range w {
		if abs < 1<<53 {
			abs += min(uint64(max(int64(x), -int64(x))), 1<<53) // (x = MinInt64 gives itself: ≥ 2^53 as uint64)
		}
	}
	if abs >= 1<<53 {
		slices.Sort(w)
	}
	var sum float64
	for _, x := range w {
		sum += float64(x)
	}
	return sum
}

// nth returns the k-th smallest element of w (from 0), reordering w:
// quickselect with a median-of-three pivot, which falls back to sorting
// the rest after 64 rounds (a hostile order cannot make it quadratic).
// Selections after it on the same w stay correct: they reorder only.
func nth[T int32 | int64](w []T, k int) T {
	lo, hi := 0, len(w)-1
	for round := 0; lo < hi; round++ {
		if round == 64 {
			slices.Sort(w[lo : hi+1])
			return w[k]
		}
		m := lo + (hi-lo)/2
		if w[m] < w[lo] {
			w[m], w[lo] = w[lo], w[m]
		}
		if w[hi] < w[lo] {
			w[hi], w[lo] = w[lo], w[hi]
		}
		if w[hi] < w[m] {
			w[hi], w[m] = w[m], w[hi]
		}
		pivot := w[m]
		i, j := lo, hi
		for i <= j { // Hoare partition: w[lo:j+1] ≤ pivot ≤ w[i:hi+1]
			for w[i] < pivot {
				i++
			}
			for w[j] > pivot {
				j--
			}
			if i <= j {
				w[i], w[j] = w[j], w[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return w[k] // between the parts: equal to the pivot
		}
	}
	return w[k]
}

// waitCompare sets the logged waits beside the simulated ones, over the
// jobs that have both: a logged wait (SWF field 3; an Alibaba pod's
// scheduled_time − creation_time) of 0 or more and a simulated start.
type waitCompare struct {
	Jobs      int       `json:"jobs"`
	Logged    waitStats `json:"logged"`
	Simulated waitStats `json:"simulated"`
}

// compareWaits returns nil when no simulated job has a logged wait.
// The logged waits and then the simulated ones are summarised in one
// list of the exact size, counted first: grown by appends, the two lists
// took about five times their size together (6.3 MB on CTC-SP2's 77k
// jobs, allocated while the jobs and their records are live, which
// raised the command's peak by as much).
func compareWaits(res *sched.Result) *waitCompare {
	n := 0
	for i := range res.Records {
		if r := &res.Records[i]; r.Start >= 0 && r.Job.Wait >= 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	w := make([]int64, 0, n)
	fill := func(simulated bool) []int64 {
		w = w[:0]
		for i := range res.Records {
			r := &res.Records[i]
			switch {
			case r.Start < 0 || r.Job.Wait < 0:
			case simulated:
				w = append(w, r.Wait)
			default:
				w = append(w, r.Job.Wait)
			}
		}
		return w
	}
	logged := statsOf(fill(false))
	return &waitCompare{Jobs: n, Logged: logged, Simulated: statsOf(fill(true))}
}

// compareOf compares the logged waits with the simulated ones (the same
// jobs, in any order; both reordered); nil when there are none.
func compareOf[T int32 | int64](logged, simulated []T) *waitCompare {
	if len(logged) == 0 {
		return nil
	}
	return &waitCompare{Jobs: len(logged), Logged: statsOf(logged), Simulated: statsOf(simulated)}
}

// useFor is the run's useOf: the streaming path's, else the records'.
func useFor(info *runInfo) use {
	if info.streamed {
		return info.use
	}
	return useOf(info.res)
}

// waitsOf is the run's compareWaits: the streaming path's (which keeps no
// records), else the records'.
func waitsOf(info *runInfo) *waitCompare {
	if info.streamed {
		return info.waits
	}
	return compareWaits(info.res)
}

// noNode is Result.NoNode, never nil (for JSON).
func noNode(res *sched.Result) map[string]int {
	if res.NoNode == nil {
		return map[string]int{}
	}
	return res.NoNode
}

// checkText is -check's outcome.
func checkText(info *runInfo) string {
	switch {
	case !info.checked:
		return "not run"
	case info.checkErr != nil:
		return info.checkErr.Error()
	}
	return "ok"
}

// nodeLines are the text report's lines for a machine of nodes, its
// trace's conversion and the logged waits.
func nodeLines(info *runInfo, line func(k, format string, a ...any)) {
	if rep := info.trace.report; rep != nil {
		line("converted", "%s", conversionText(rep, "pods", "jobs"))
		for _, n := range rep.Notes {
			line("  note", "%s", n)
		}
	}
	if info.nodes != nil {
		line("nodes read", "%s", conversionText(&info.nodesRep, "lines", "kept"))
		for _, n := range info.nodesRep.Notes {
			line("  note", "%s", n)
		}
	}
}

// conversionText is a convert.Report on one line.
func conversionText(rep *convert.Report, records, kept string) string {
	s := fmt.Sprintf("%d %s, %d %s", rep.Records, records, rep.Jobs, kept)
	add := func(what string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
		s += "; " + what + ": " + strings.Join(parts, ", ")
	}
	add("skipped", rep.Skipped)
	add("anomalies", rep.Anomalies)
	return s
}

// machineText is the report's machine line.
func machineText(info *runInfo) string {
	f := factsOf(info)
	if f == nil {
		return fmt.Sprintf("%d processors (%s)", info.cfg.MachineSize, info.machineFrom)
	}
	return fmt.Sprintf("%d nodes of %d kinds (%s): %d cores, %d memory, %d GPUs (the file's units); %s",
		f.Nodes, f.Kinds, info.machineFrom, f.Cores, f.Memory, f.GPUs, f.Placement)
}

// afterRejections prints the resources behind the jobs no node could hold.
func afterRejections(info *runInfo, reason sanitize.Reason, line func(k, format string, a ...any)) {
	if reason != sanitize.FitsNoNode {
		return
	}
	m := info.res.NoNode
	for _, k := range slices.Sorted(maps.Keys(m)) {
		line("    "+k, "%d", m[k])
	}
}

// resultLines are the report's lines after the summary's utilization:
// the held shares and the logged vs simulated waits.
func resultLines(info *runInfo, line func(k, format string, a ...any)) {
	if info.nodes != nil {
		u := useOf(info.res)
		line("held", "cores %.3f, memory %.3f, GPUs %.3f (share of the machine's, time-weighted, first start to last end)", u.Cores, u.Memory, u.GPUs)
	}
	if w := waitsOf(info); w != nil {
		l, s := &w.Logged, &w.Simulated
		line("logged wait", "mean %.0f s, median %.0f s, p95 %.0f s, %.3f waited (%d jobs with a logged wait)", l.Mean, l.Median, l.P95, l.Waited, w.Jobs)
		line("simulated wait", "mean %.0f s, median %.0f s, p95 %.0f s, %.3f waited (the same jobs)", s.Mean, s.Median, s.P95, s.Waited)
	}
	if info.checked {
		line("check", "%s", checkText(info))
	}
}

// nodesRead is what reading -nodes found, nil for one pool.
func nodesRead(info *runInfo) *convert.Report {
	if info.nodes == nil {
		return nil
	}
	return &info.nodesRep
}

// checkError is the run's error when -check found a violation: the
// report is printed first, then the command exits 1.
func checkError(info *runInfo) error {
	if info.checkErr == nil {
		return nil
	}
	return fmt.Errorf("-check: the schedule is wrong: %w", info.checkErr)
}
