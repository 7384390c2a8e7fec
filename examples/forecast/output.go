package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/batchq/batchq/examples/internal/cli"
)

// jsonRow is the -json object of one predictor; nil is JSON null (a figure
// the predictor does not give).
type jsonRow struct {
	Predictor    string   `json:"predictor"`
	Scored       int      `json:"scored"`
	Jobs         int      `json:"jobs"`
	Within2      *float64 `json:"within2"`
	Within1Min   *float64 `json:"within_1min"`
	Within10Min  *float64 `json:"within_10min"`
	MeanAbsLog10 *float64 `json:"mean_abs_log10"`
	AAE          *float64 `json:"aae_s"`
	Coverage50   *float64 `json:"coverage50"`
	Width50      *float64 `json:"width50_s"`
	Coverage80   *float64 `json:"coverage80"`
	Width80      *float64 `json:"width80_s"`
	Coverage90   *float64 `json:"coverage90"`
	Width90      *float64 `json:"width90_s"`
	// Rejected counts the log's jobs left out of the replay, by reason
	// (reject.go); absent when none was.
	Rejected map[string]int `json:"rejected,omitempty"`
	// Changed counts the jobs a rule changed, as simulate's "changed":
	// id_made_up, the jobs without a number numbered 10^18 + n by their line n;
	// absent when none was.
	Changed map[string]int `json:"changed,omitempty"`
	// PartialOnly counts the jobs given by partial-execution lines only
	// (no summary line under their number), whose lines are in
	// rejected.partial_execution: left out whole, as simulate's
	// warning_data.partial_only.jobs; absent when none is.
	PartialOnly int `json:"partial_only_jobs,omitempty"`
	// Replayed is the jobs replayed, and SkippedNoWait the log's jobs left
	// out for want of a logged wait or submit time (replay.Queues), as the
	// text's first line says them ("31330 jobs replayed (805 without a
	// wait skipped)"); -json had neither, so its counts did not add up to
	// the log's jobs. Read = replayed + skipped_no_wait + Σ rejected.
	Replayed      int `json:"replayed"`
	SkippedNoWait int `json:"skipped_no_wait"`
	// NodesSkipped and NodesAnomalies count, with -nodes, the nodes
	// file's lines left out and those kept with an anomaly, by reason
	// (simulate -json's nodes_read.skipped and .anomalies); absent when
	// none.
	NodesSkipped   map[string]int `json:"nodes_skipped,omitempty"`
	NodesAnomalies map[string]int `json:"nodes_anomalies,omitempty"`
	// NodesNotes are the nodes file's remarks (a column repeated or
	// unknown, and not read; simulate -json's nodes_read.notes).
	NodesNotes []string `json:"nodes_notes,omitempty"`
	// LargerThanMachine counts the replayed jobs larger than the machine,
	// which forecast and estimates answer with the naive median; absent
	// when none is. (Named replayed_…: rejected has a larger_than_machine
	// too, the jobs left out, which a script took these for.)
	LargerThanMachine int `json:"replayed_larger_than_machine,omitempty"`
	// NoSize counts the replayed jobs without a processor count, which
	// the simulation holds as asking none (with -nodes, their demand's
	// cores); absent when none is.
	NoSize int `json:"replayed_no_size,omitempty"`
	// NoRunTime counts the replayed jobs without a run time, scored on
	// their waits and held as running nothing (simulate's -json has them
	// in rejected.no_run_time); absent when none is.
	NoRunTime int `json:"replayed_no_run_time,omitempty"`
	// NoEstimate counts the replayed jobs without a user estimate, which
	// forecast and estimates give the longest run seen before; absent
	// when none is.
	NoEstimate int `json:"replayed_no_estimate,omitempty"`
	// QuestionsOverMachine counts the questions at which the log's
	// running jobs held more processors than the machine, for which
	// forecast's and estimates' simulations grew the pool; absent when
	// none did.
	QuestionsOverMachine int `json:"questions_over_machine,omitempty"`
	// FlurryApproximated counts the jobs of flurries whose forecast and
	// estimates answers are approximate: past 128 simulations from the
	// question's instant (sched/forecast.Online.Approximated).
	FlurryApproximated int `json:"flurry_approximated,omitempty"`
	// TrailingZeros is the zero bytes after the log's last gzip member,
	// ignored (simulate's and swfstat's key; the text's note).
	TrailingZeros int64 `json:"trailing_zero_bytes"`
	// Skipped is -lenient's malformed lines skipped (swfstat's keys).
	cli.Skipped
	// Partitions are the jobs by partition (field 16) when they name
	// more than one, replayed as one pool; absent otherwise.
	Partitions *cli.Partitions `json:"partitions,omitempty"`
	// Waited is the scored jobs that waited at least 60 s (the floor of
	// the ratios); 0 with jobs scored makes the board degenerate (every
	// answer under a minute exact), as the text's note says.
	Waited int `json:"waited"`
	// UnboundedWidths are the levels (50, 80, 90) whose median width is
	// unbounded: more than half the predictor's intervals at that level
	// had too few earlier errors to bound (qbets/conformal: the
	// ⌈(n+1)(1−a)⌉-th smallest error past the n-th), so the width
	// is null there though the coverage is given (the text's ∞); absent
	// when none is.
	UnboundedWidths []int `json:"unbounded_widths,omitempty"`
	// QBETS: the share of waits within its bound and its median bound.
	BoundCoverage *float64 `json:"bound_coverage,omitempty"`
	MedianBound   *float64 `json:"median_bound_s,omitempty"`
}

// num is v as a JSON number, nil when it is not finite.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func (r *row) json() jsonRow {
	j := jsonRow{
		Predictor: r.name, Scored: r.scored, Jobs: r.answered,
		Within2: num(r.share(r.within2)), Within1Min: num(r.share(r.within1m)), Within10Min: num(r.share(r.within10)),
		MeanAbsLog10: num(r.absLog / float64(r.answered)), AAE: num(r.absErr / float64(r.answered)),
	}
	if r.bound {
		j.BoundCoverage, j.MedianBound = num(r.coverage(2)), num(r.width(2))
		return j
	}
	j.Coverage50, j.Width50 = num(r.coverage(0)), num(r.width(0))
	j.Coverage80, j.Width80 = num(r.coverage(1)), num(r.width(1))
	j.Coverage90, j.Width90 = num(r.coverage(2)), num(r.width(2))
	j.UnboundedWidths = r.unbounded()
	return j
}

// unbounded lists the levels whose median width is +Inf, nil when none
// is (a QBETS bound is always finite).
func (r *row) unbounded() []int {
	var l []int
	for k, level := range levels {
		if math.IsInf(r.width(k), 1) {
			l = append(l, int(math.Round(100*level)))
		}
	}
	return l
}

func writeJSON(w io.Writer, info traceInfo, rows []*row) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		j := r.json()
		j.Rejected, j.LargerThanMachine, j.NoSize = cli.ReasonKeys(info.rejected), info.larger, info.noSize
		j.NoRunTime, j.QuestionsOverMachine, j.FlurryApproximated = info.noRunTime, info.overfull, info.approximated
		j.Replayed, j.SkippedNoWait, j.PartialOnly = info.jobs, info.skipped, info.partialOnly
		if info.madeUp > 0 {
			j.Changed = map[string]int{cli.MadeUpID: info.madeUp}
		}
		j.NodesSkipped, j.NodesAnomalies, j.NodesNotes = info.nodesSkipped, info.nodesAnomalies, info.nodesNotes
		j.NoEstimate, j.TrailingZeros, j.Waited = info.noEstimate, info.zeros, info.waited
		j.Skipped = cli.SkippedOf(info.read)
		j.Partitions = info.partitions
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return nil
}

// pct formats a share as a percentage, "–" when there is none.
func pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*v)
}

// dur formats seconds compactly: 45 s, 12 min, 3.4 h, 2.1 d, ∞.
func dur(s float64) string {
	switch {
	case math.IsNaN(s):
		return "–"
	case math.IsInf(s, 1):
		return "∞"
	case s < 90:
		return fmt.Sprintf("%.0f s", s)
	case s < 5400:
		return fmt.Sprintf("%.0f min", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.1f h", s/3600)
	}
	return fmt.Sprintf("%.1f d", s/86400)
}

func writeText(w io.Writer, info traceInfo, rows []*row) error {
	rej := ""
	if len(info.rejected) > 0 {
		rej = "; rejected: " + cli.Reasons(info.rejected)
	}
	fmt.Fprintf(w, "%s: %d jobs replayed (%d without a wait skipped%s), machine %s; scored after the first 10%%, waits floored at 60 s in the ratios\n\n",
		info.name, info.jobs, info.skipped, rej, info.machineText())
	if w0 := cli.SkippedOf(info.read).Note(); w0 != "" {
		fmt.Fprintf(w, "%s\n\n", w0)
	}
	if p := info.partitions; p != nil {
		fmt.Fprintf(w, "%s\n\n", p.Note(poolText(info)))
	}
	if info.zeros > 0 {
		fmt.Fprintf(w, "%s\n\n", cli.PaddingNote(info.zeros))
	}
	if info.partialOnly > 0 {
		fmt.Fprintf(w, "%d jobs given by partial-execution lines only (status 2, 3, 4; no summary line under their number): left out whole, their lines among the rejected partial executions\n\n", info.partialOnly)
	}
	if info.madeUp > 0 {
		fmt.Fprintf(w, "%d jobs without a job number (field 1 below 1) numbered 10^18 + n by their line n (%s)\n\n", info.madeUp, cli.MadeUpID)
	}
	if len(info.nodesSkipped)+len(info.nodesAnomalies) > 0 {
		var parts []string
		if len(info.nodesSkipped) > 0 {
			parts = append(parts, "lines skipped: "+cli.RuleCounts(info.nodesSkipped))
		}
		if len(info.nodesAnomalies) > 0 {
			parts = append(parts, "lines kept with anomalies: "+cli.RuleCounts(info.nodesAnomalies))
		}
		fmt.Fprintf(w, "-nodes %s: %s\n\n", info.nodesFile, strings.Join(parts, "; "))
	}
	for i, n := range info.nodesNotes {
		fmt.Fprintf(w, "-nodes %s: note: %s\n", info.nodesFile, cli.Printable(n))
		if i == len(info.nodesNotes)-1 {
			fmt.Fprintln(w)
		}
	}
	if info.larger > 0 {
		fmt.Fprintf(w, "%d jobs larger than the machine (%d processors): the simulation cannot place them, forecast and estimates answer them with the naive median\n\n",
			info.larger, info.machine)
	}
	if info.overfull > 0 {
		fmt.Fprintf(w, "%d questions found the log's running jobs holding more than the machine's %d processors (a machine shared, or overlapping records): forecast's and estimates' simulations grew the pool to hold them\n\n",
			info.overfull, info.machine)
	}
	if info.approximated > 0 {
		fmt.Fprintf(w, "%d jobs of flurries (questions at one instant) got approximate forecast and estimates answers: past 128 simulations from their instant, the simulation of the question before went on without what it cannot hold (a job that would backfill ahead, answered by the first pass it fits and left out of it; a start or an end since), so that a flurry's cost stays linear\n\n",
			info.approximated)
	}
	if info.noSize > 0 {
		as := "as asking no processors; running, they are in no snapshot"
		if info.nodes != nil { // (a job of no demand's cores is rejected as no size: not replayed)
			as = "on the nodes as asking their demand's cores (a GPU trace's CPU jobs), and hold them while they run"
		}
		fmt.Fprintf(w, "%d jobs without a processor count (fields 5 and 8 unknown): scored, simulated %s\n\n", info.noSize, as)
	}
	if info.noRunTime > 0 {
		fmt.Fprintf(w, "%d jobs without a run time (field 4 unknown; simulate rejects them, no run time): scored on their waits, once started they hold no processors in the simulation\n\n", info.noRunTime)
	}
	if info.noEstimate > 0 {
		all := ""
		if info.noEstimate == info.jobs {
			all = " (every job: the estimates row is that rule's, not the users')"
		}
		fmt.Fprintf(w, "%d jobs without a user estimate (field 9): forecast and estimates give them the longest run seen before as their estimate (S6)%s\n\n", info.noEstimate, all)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "predictor\tjobs\twithin ×2 %\t≤1 min %\t≤10 min %\tmean |log10|\tAAE\tcov 50/80/90 %\twidth 50/80/90\t")
	for _, r := range rows {
		j := r.json()
		cov := fmt.Sprintf("%s/%s/%s", pct(r.coverage(0)), pct(r.coverage(1)), pct(r.coverage(2)))
		wid := fmt.Sprintf("%s / %s / %s", dur(r.width(0)), dur(r.width(1)), dur(r.width(2)))
		if r.bound {
			cov = "bound " + pct(r.coverage(2))
			wid = "bound " + dur(r.width(2))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name, r.answered, pct(r.share(r.within2)),
			pct(r.share(r.within1m)), pct(r.share(r.within10)), fixed3(j.MeanAbsLog10), dur(deref(j.AAE)), cov, wid)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// A predictor without a single answer has no figures: say so rather
	// than leave a row of dashes to be read as a result.
	var silent []string
	for _, r := range rows {
		if r.answered == 0 {
			silent = append(silent, r.name)
		}
	}
	if len(silent) > 0 {
		if _, err := fmt.Fprintf(w, "\nno answer at all from %s (of %d jobs scored): nothing to score them on\n", strings.Join(silent, ", "), rows[0].scored); err != nil {
			return err
		}
	}
	// An ∞ width reads as a defect; it is conformal prediction's honest
	// answer before a class has enough errors for the level.
	var inf []string
	for _, r := range rows {
		if u := r.unbounded(); len(u) > 0 && !r.bound {
			inf = append(inf, fmt.Sprintf("%s at %s%%", r.name, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(u)), "/"), "[]")))
		}
	}
	if len(inf) > 0 {
		if _, err := fmt.Fprintf(w, "\nunbounded (∞): the median interval of %s: more than half of them came before there were enough earlier errors (of the job's class, or of every job while the class had few) to bound that level, as conformal prediction does not guess a bound, so they hold every wait; the coverage beside them counts them\n", strings.Join(inf, ", ")); err != nil {
			return err
		}
	}
	if info.waited == 0 && len(rows) > 0 && rows[0].scored > 0 {
		// A board of 100% rows over a log where nobody queued reads as a
		// result; it is the log's, not the predictors'.
		_, err := fmt.Fprintf(w, "\ndegenerate: none of the %d jobs scored waited %d s or more (the floor of the ratios), so every answer under a minute counts as exact within ×2, within 1 min and in mean |log10| (AAE and the intervals aside): the board does not rank the predictors\n",
			rows[0].scored, floor)
		return err
	}
	return nil
}

// fixed3 is v with three decimals, "–" when there is none.
func fixed3(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.3f", *v)
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// poolText is how the replay took a log's partitions, for their note.
func poolText(info traceInfo) string {
	if info.nodes != nil {
		return "replayed on one machine, the nodes of -nodes"
	}
	return fmt.Sprintf("replayed as one pool of %d processors", info.machine)
}
