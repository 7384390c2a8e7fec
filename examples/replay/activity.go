package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/batchq/batchq/internal/figures"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// maxFlurryUsers is how many flurry users get their own line.
const maxFlurryUsers = 5

// activityFigure draws the weekly job and process arrivals of a log with
// the flurries sanitize.DetectFlurries suspects (Tsafrir's Figures 6.8 and
// 6.9). It needs user IDs, so the synthetic workload (whose model has none)
// has no such figure; ok is false then.
func activityFigure(dir, name string, jobs []swf.Job) (files []string, cands sanitize.Candidates, ok bool, err error) {
	if !slices.ContainsFunc(jobs, func(j swf.Job) bool { return j.User >= 0 }) {
		return nil, nil, false, nil
	}
	totals, err := sanitize.Totals(jobs, sanitize.Week)
	if err != nil {
		return nil, nil, false, err
	}
	if len(totals) == 0 {
		return nil, nil, false, nil
	}
	per, err := sanitize.Activity(jobs, sanitize.Week)
	if err != nil {
		return nil, nil, false, err
	}
	cands, err = sanitize.DetectFlurries(jobs, sanitize.FlurryConfig{})
	if err != nil {
		return nil, nil, false, err
	}
	a := figures.Activity{Title: fmt.Sprintf("Weekly arrivals, %s: %d suspected flurries (sanitize.DetectFlurries)", name, len(cands))}
	origin := totals[0].Start
	for _, t := range totals {
		a.Jobs = append(a.Jobs, float64(t.Jobs))
		a.Procs = append(a.Procs, float64(t.Procs))
	}
	// The flurry users with the most flurry jobs get their own lines.
	byJobs := map[int64]int{}
	for _, c := range cands {
		byJobs[c.User] += c.Jobs
	}
	users := make([]int64, 0, len(byJobs))
	for u := range byJobs {
		users = append(users, u)
	}
	slices.SortFunc(users, func(x, y int64) int { return cmp.Or(cmp.Compare(byJobs[y], byJobs[x]), cmp.Compare(x, y)) })
	users = users[:min(len(users), maxFlurryUsers)]
	weeks := len(a.Jobs)
	for _, u := range users {
		uw := figures.UserWeeks{User: strconv.FormatInt(u, 10), Jobs: make([]float64, weeks), Procs: make([]float64, weeks)}
		for _, r := range per {
			if r.User == u && r.Week < weeks {
				uw.Jobs[r.Week] += float64(r.Jobs)
				uw.Procs[r.Week] += float64(r.Procs)
			}
		}
		a.Users = append(a.Users, uw)
	}
	week := func(t int64) int { return min(max(int((t-origin)/sanitize.Week), 0), weeks-1) }
	for _, c := range cands {
		f := figures.Flurry{User: strconv.FormatInt(c.User, 10), From: week(c.First), To: week(c.Last)}
		if c.By&sanitize.ByJobs != 0 {
			a.Flurries = append(a.Flurries, f)
		}
		if c.By&sanitize.ByProcs != 0 {
			f.Procs = true
			a.Flurries = append(a.Flurries, f)
		}
	}
	files, err = figures.Activities(dir, "activity", a)
	return files, cands, true, err
}
