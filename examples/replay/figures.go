package main

import (
	"fmt"

	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/examples/internal/figures/fromlib"
)

// maxWaitJobs is the most jobs the waits figure shows: Figure 4.1 is a
// short stretch of one queue, and a whole log would be an unreadable blot.
const maxWaitJobs = 3000

// writeFigures draws the run's figures into dir.
func writeFigures(dir string, r *result) ([]string, error) {
	var files []string
	add := func(fs []string, err error) error {
		files = append(files, fs...)
		return err
	}
	q := r.q
	lo, hi := waitWindow(q)
	title := fmt.Sprintf("0.95-quantile wait bounds with and without trimming, simulated EASY waits (%s)", r.w.name)
	if lo > 0 || hi < len(q.jobs) {
		title = fmt.Sprintf("Wait bounds with and without trimming, %s, simulated EASY, jobs %d–%d of %d", r.w.name, lo+1, hi, len(q.jobs))
	}
	s := figures.WaitSeries{Title: title}
	for i := lo; i < hi; i++ {
		s.Submit = append(s.Submit, q.jobs[i].Submit)
		s.Wait = append(s.Wait, q.jobs[i].Wait)
	}
	s.Bounds = []figures.Bounds{
		{Name: fmt.Sprintf("%s (%.1f%% held overall)", methods[mTrim].name, 100*q.scores[mTrim].Correctness()), Bound: q.bounds[mTrim][lo:hi]},
		{Name: fmt.Sprintf("%s (%.1f%% held overall)", methods[mFull].name, 100*q.scores[mFull].Correctness()), Bound: q.bounds[mFull][lo:hi]},
	}
	if err := add(figures.Waits(dir, "waits", s)); err != nil {
		return nil, err
	}

	var rs []figures.SchedResult
	for _, v := range variants {
		sum := r.sims[v].Summary
		rs = append(rs, fromlib.SchedResult(r.w.name, v, sum, fromlib.Paper{}))
	}
	if err := add(figures.Schedulers(dir, "schedulers", "EASY variants", rs)); err != nil {
		return nil, err
	}

	p := q.plan
	if len(p.traj) > 0 {
		title := fmt.Sprintf("VARQ trajectory: %d nodes for %s, %s ahead, at %s", p.req.Nodes, dur(float64(p.req.Walltime)), dur(float64(p.req.Start-p.now)), clock(p.now))
		t := fromlib.Trajectory(title, p.now, p.req, p.traj, p.plan, p.target)
		if err := add(figures.Trajectories(dir, "varq", t)); err != nil {
			return nil, err
		}
	}
	if err := add(activityFigure(dir, r.w.name, r.w.jobs)); err != nil {
		return nil, err
	}
	return files, nil
}

// waitWindow picks the maxWaitJobs consecutive jobs where the trimmed
// bound held and the full-history bound did not most often (minus the
// reverse): the stretch Figure 4.1 is about.
func waitWindow(q *qbetsRun) (lo, hi int) {
	n := len(q.jobs)
	if n <= maxWaitJobs {
		return 0, n
	}
	gain := func(i int) int { return figures.TrimGain(q.jobs[i].Wait, q.bounds[mFull][i], q.bounds[mTrim][i]) }
	sum := 0
	for i := range maxWaitJobs {
		sum += gain(i)
	}
	best, at := sum, 0
	for i := maxWaitJobs; i < n; i++ {
		sum += gain(i) - gain(i-maxWaitJobs)
		if sum > best {
			best, at = sum, i-maxWaitJobs+1
		}
	}
	return at, at + maxWaitJobs
}
