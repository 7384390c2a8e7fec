// Package fromlib turns batchq results into the plain data of package
// figures, so that each example's -plot flag is a few lines: the weekly
// activity of a log with the flurries sanitize suspects, a VARQ trajectory
// and plan, and sched summaries as Table 4.3 bars.
package fromlib

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/internal/activity"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// Activity computes a log's weekly job and process arrivals
// (internal/activity's Totals and PerUser) and the suspected flurries
// (sanitize.DetectFlurries with cfg), and returns them as a figure with the
// maxUsers flurry users of most flurry jobs drawn as their own lines. ok is
// false when the log has no user IDs (nothing to attribute flurries to).
// A job whose submit time is past sanitize.MaxTime (2^40 s) is left out of
// the weeks and counted in the figure's title (cli.SubmitsInRange), as is
// one of unknown submit time (-1); a log
// whose known submissions still span more than 100 years is an error (which
// end is wrong is not known).
func Activity(jobs []swf.Job, title string, cfg sanitize.FlurryConfig, maxUsers int) (a figures.Activity, cands sanitize.Candidates, ok bool, err error) {
	jobs, far := cli.SubmitsInRange(jobs)
	// A job of unknown submit time (-1) has no week: binned at -1, it drew
	// the log from 1970 (CEA-Curie's jobs of day 366 after 52 empty weeks)
	// and itself in week 0.
	n := len(jobs)
	if slices.ContainsFunc(jobs, func(j swf.Job) bool { return j.Submit < 0 }) {
		jobs = slices.DeleteFunc(slices.Clone(jobs), func(j swf.Job) bool { return j.Submit < 0 })
	}
	var left []string
	if far > 0 {
		left = append(left, fmt.Sprintf("%d %s (a submit time past 2^40 s)", far, sanitize.TimeOutOfRange))
	}
	if unknown := n - len(jobs); unknown > 0 {
		left = append(left, fmt.Sprintf("%d %s (-1)", unknown, sanitize.NoSubmit))
	}
	if len(jobs) == 0 && len(left) > 0 {
		return a, nil, false, fmt.Errorf("weekly activity: no job to bin: jobs left out: %s", strings.Join(left, ", "))
	}
	if !slices.ContainsFunc(jobs, func(j swf.Job) bool { return j.User >= 0 }) {
		return a, nil, false, nil
	}
	if _, err := cli.SubmitSpan(jobs); err != nil {
		return a, nil, false, fmt.Errorf("weekly activity: %w", err) // replay -out panicked
	}
	totals, err := activity.Totals(jobs, activity.Week)
	if err != nil || len(totals) == 0 {
		return a, nil, false, err
	}
	per, err := activity.PerUser(jobs, activity.Week)
	if err != nil {
		return a, nil, false, err
	}
	if cands, err = sanitize.DetectFlurries(jobs, cfg); err != nil {
		return a, nil, false, err
	}
	a.Title = fmt.Sprintf("%s: %d suspected flurries (sanitize.DetectFlurries)", title, len(cands))
	if len(left) > 0 {
		a.Title += "; jobs left out: " + strings.Join(left, ", ")
	}
	origin := totals[0].Start
	for _, t := range totals {
		a.Jobs = append(a.Jobs, float64(t.Jobs))
		a.Procs = append(a.Procs, float64(t.Procs))
	}
	byJobs := map[int64]int{}
	for _, c := range cands {
		byJobs[c.User] += c.Jobs
	}
	users := make([]int64, 0, len(byJobs))
	for u := range byJobs {
		users = append(users, u)
	}
	slices.SortFunc(users, func(x, y int64) int { return cmp.Or(cmp.Compare(byJobs[y], byJobs[x]), cmp.Compare(x, y)) })
	users = users[:min(len(users), max(maxUsers, 0))]
	weeks := len(a.Jobs)
	for _, u := range users {
		uw := figures.UserWeeks{User: strconv.FormatInt(u, 10), Jobs: make([]float64, weeks), Procs: make([]float64, weeks)}
		for _, r := range per {
			if r.User == u && r.Week >= 0 && r.Week < weeks {
				uw.Jobs[r.Week] += float64(r.Jobs)
				uw.Procs[r.Week] += float64(r.Procs)
			}
		}
		a.Users = append(a.Users, uw)
	}
	week := func(t int64) int { return min(max(int((t-origin)/activity.Week), 0), weeks-1) }
	for _, c := range cands {
		f := figures.Flurry{User: strconv.FormatInt(c.User, 10), From: week(c.First), To: week(c.Last)}
		if c.By.Jobs() {
			a.Flurries = append(a.Flurries, f)
		}
		if c.By.Procs() {
			f.Procs = true
			a.Flurries = append(a.Flurries, f)
		}
	}
	return a, cands, true, nil
}

// Trajectory returns a VARQ trajectory computed at now for r, with plan
// (NOT_POSSIBLE: no chosen time) and the target probability, as a figure.
func Trajectory(title string, now int64, r varq.Request, traj []varq.Point, plan varq.Plan, target float64) figures.Trajectory {
	t := figures.Trajectory{Title: title, Now: now, Start: r.Start, Target: target, Chosen: -1, Method: "latest meeting the target"}
	for _, p := range traj {
		t.At = append(t.At, p.Submit)
		t.Prob = append(t.Prob, p.Prob)
	}
	if plan.Possible {
		t.Chosen = plan.Submit
	}
	return t
}

// Paper is a paper's mean wait (seconds) and bounded slowdown for one
// cell; zero values mean none.
type Paper struct{ Wait, BSLD float64 }

// SchedResult returns one bar group entry from a sched summary.
func SchedResult(log, variant string, s sched.Summary, paper Paper) figures.SchedResult {
	return figures.SchedResult{Log: log, Variant: variant, MeanWait: s.MeanWait, MeanBSLD: s.MeanBSLD, PaperWait: paper.Wait, PaperBSLD: paper.BSLD}
}
