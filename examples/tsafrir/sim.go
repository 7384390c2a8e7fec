package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

// outcome is one simulation: a log under a variant.
type outcome struct {
	Log, Variant string
	Summary      sched.Summary
}

// immediate marks the variants of Tab 4.5/4.6, whose predictor is the
// "immediate" window (spec §6.6): a prediction only when the user's last two
// terminated jobs had the new job's estimate.
const immediate = " (imm)"

// variantConfig builds the scheduler of a variant: a preset of package sched
// (LookupPreset), or a preset with the immediate predictor when the name
// ends in " (imm)".
func variantConfig(name string, procs int64) (sched.Config, error) {
	base, imm := strings.CutSuffix(name, immediate)
	pr, ok := sched.LookupPreset(base)
	if !ok {
		return sched.Config{}, fmt.Errorf("unknown scheduler %q", base)
	}
	cfg := pr.New(procs)
	if imm {
		h, err := predict.NewUserHistory(predict.HistoryConfig{Type: "immediate"})
		if err != nil {
			return cfg, err
		}
		cfg.Predictor = h
	}
	return cfg, nil
}

// setup changes a variant's configuration before a run (an experiment's
// option); nil changes nothing.
type setup func(*sched.Config)

// runVariants simulates every variant on one log's jobs and returns the
// outcomes and the simulator's rejections (the same for every variant:
// the jobs not sane, and the later copies of a job number).
func runVariants(ctx context.Context, l logSpec, jobs []swf.Job, variants []string, perEvent bool, opt setup) ([]outcome, sanitize.Report, error) {
	var out []outcome
	var rej sanitize.Report
	for _, v := range variants {
		cfg, err := variantConfig(v, l.P)
		if err != nil {
			return nil, rej, err
		}
		cfg.PerEventPass = perEvent
		if opt != nil {
			opt(&cfg)
		}
		r, err := sched.Run(ctx, cfg, jobs)
		if err != nil {
			return nil, rej, fmt.Errorf("%s %s: %w", l.Name, v, err)
		}
		rej = r.Rejected
		out = append(out, outcome{l.Name, v, r.Summary})
	}
	return out, rej, nil
}

func find(res []outcome, log, v string) (sched.Summary, bool) {
	for _, o := range res {
		if o.Log == log && o.Variant == v {
			return o.Summary, true
		}
	}
	return sched.Summary{}, false
}
