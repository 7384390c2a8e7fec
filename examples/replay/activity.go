package main

import (
	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/examples/internal/figures/fromlib"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// maxFlurryUsers is how many flurry users get their own line.
const maxFlurryUsers = 5

// activityFigure draws the weekly job and process arrivals of a log with
// the flurries sanitize.DetectFlurries suspects (Tsafrir's Figures 6.8 and
// 6.9). It needs user IDs, so the synthetic workload (whose model has none)
// has no such figure.
func activityFigure(dir, name string, jobs []swf.Job) ([]string, error) {
	a, _, ok, err := fromlib.Activity(jobs, "Weekly arrivals, "+name, sanitize.FlurryConfig{}, maxFlurryUsers)
	if err != nil || !ok {
		return nil, err
	}
	return figures.Activities(dir, "activity", a)
}
