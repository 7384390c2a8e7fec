package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// The README's availability tables: how often QBETS answers, and how
// often its availability inference refuses under each reading of thesis
// §4.2.5, BM alone on whole logs (replay.Replay, first 10% training).

// availReading is one row of the readings table: a Predictor config.
type availReading struct {
	name string
	cfg  qbets.Config
}

var (
	pf       = qbets.AvailabilityReading{MergeReleases: true, PredictFirst: true}
	readings = []availReading{
		{"spec Q11, `Withhold`", qbets.Config{Withhold: true}},
		{"count detector alone", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{NoGap: true}}},
		{"gap detector alone", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{NoCount: true}}},
		{"NoTrim", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{NoTrim: true}}},
		{"CountEvents (same-second arrivals once)", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{CountEvents: true}}},
		{"PredictFirst", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{PredictFirst: true}}},
		{"MergeReleases", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{MergeReleases: true}}},
		{"MergeReleases + PredictFirst (the thesis simulator's order)", qbets.Config{Withhold: true, Availability: pf}},
		{"MergeReleases + PredictFirst + CountEvents", qbets.Config{Withhold: true, Availability: qbets.AvailabilityReading{MergeReleases: true, PredictFirst: true, CountEvents: true}}},
		{"CountAtRelease", qbets.Config{Withhold: true, CountAtRelease: true}},
		{"CountAtRelease + MergeReleases (literal \"as each count is generated\")", qbets.Config{Withhold: true, CountAtRelease: true, Availability: qbets.AvailabilityReading{MergeReleases: true}}},
		{"no availability", qbets.Config{NoAvailability: true}},
	}
	readingLogs = []string{tracetest.KTH, tracetest.CTC, tracetest.SDSCSP2, tracetest.SDSCBlue}
	answerLogs  = []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2, tracetest.SDSCBlue, tracetest.LANLCM5, tracetest.CEACurie, tracetest.OSC, tracetest.SDSCPar}
	answerCfgs  = []availReading{{"Config{}", qbets.Config{}}, {"Withhold", qbets.Config{Withhold: true}}, {"NoAvailability", qbets.Config{NoAvailability: true}}}
)

// wholeLog reads a trace as one history (every queue together).
func wholeLog(dir, name string) ([]swf.Job, error) {
	_, jobs, err := swf.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	byQ, _ := replay.Queues(jobs)
	return replay.All(byQ)
}

// availabilityRegions computes the two tables over the logs named in only
// (all when nil: the README's run; the CI slice, TestReadmeSliceSP2,
// names one, and gets its column and its row).
func availabilityRegions(dir string, only []string, progress io.Writer) (map[string][]byte, error) {
	// The logs of this run, in the README's order (local copies).
	readingLogs, answerLogs := onlyOf(readingLogs, only), onlyOf(answerLogs, only)
	logs := map[string][]swf.Job{}
	for _, name := range slices.Concat(readingLogs, answerLogs) {
		if logs[name] != nil {
			continue
		}
		js, err := wholeLog(dir, name)
		if err != nil {
			return nil, err
		}
		logs[name] = js
	}
	replayed := map[string]map[string]replay.Result{} // [reading][log]
	run := func(r availReading, names []string) error {
		if replayed[r.name] == nil {
			replayed[r.name] = map[string]replay.Result{}
		}
		for _, name := range names {
			if _, ok := replayed[r.name][name]; ok {
				continue
			}
			fmt.Fprintf(progress, "availability: %s, %s\n", r.name, name)
			res, err := replay.Replay(logs[name], replay.Config{Predictor: r.cfg})
			if err != nil {
				return fmt.Errorf("%s, %s: %w", name, r.name, err)
			}
			replayed[r.name][name] = res
		}
		return nil
	}
	for _, r := range readings {
		if err := run(r, readingLogs); err != nil {
			return nil, err
		}
	}
	for _, r := range answerCfgs {
		if err := run(r, answerLogs); err != nil {
			return nil, err
		}
	}
	out := map[string][]byte{}
	var b bytes.Buffer
	fmt.Fprint(&b, "| reading | ")
	var short []string
	for _, n := range readingLogs {
		short = append(short, tracetest.ShortName(n))
	}
	fmt.Fprintf(&b, "%s |\n|---|%s\n", strings.Join(short, " | "), strings.Repeat("---|", len(readingLogs)))
	fmt.Fprintf(&b, "| thesis (all its traces together) | usually < 1%% |%s\n", strings.Repeat(" |", len(readingLogs)-1))
	for _, r := range readings {
		fmt.Fprintf(&b, "| %s |", r.name)
		for _, n := range readingLogs {
			res := replayed[r.name][n]
			fmt.Fprintf(&b, " %.1f%% / %.3f |", 100*float64(res.Down)/float64(max(res.Scored, 1)), res.Correctness())
		}
		fmt.Fprintln(&b)
	}
	out["availability-readings"] = clone(&b)
	fmt.Fprintf(&b, "| log | %s |\n|---|%s\n", strings.Join(names(answerCfgs), " | "), strings.Repeat("---|", len(answerCfgs)))
	for _, n := range answerLogs {
		fmt.Fprintf(&b, "| %s |", tracetest.ShortName(n))
		for _, r := range answerCfgs {
			res := replayed[r.name][n]
			fmt.Fprintf(&b, " %.1f%% / %.3f |", 100*float64(res.Answered())/float64(max(res.Scored, 1)), res.Correctness())
		}
		fmt.Fprintln(&b)
	}
	out["availability-answers"] = clone(&b)
	return out, nil
}

// onlyOf is the names of logs named in only, all when only is nil.
func onlyOf(logs, only []string) []string {
	if only == nil {
		return logs
	}
	return slices.DeleteFunc(slices.Clone(logs), func(n string) bool { return !slices.Contains(only, n) })
}

func names(rs []availReading) []string {
	var s []string
	for _, r := range rs {
		s = append(s, "`"+r.name+"`")
	}
	return s
}
