package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// plotOptions are the -plot flags: Nurmi's thesis Figure 4.1 (waits and
// BM bounds with and without history trimming) for a few queues.
type plotOptions struct {
	dir    string
	queues string
	days   int
	tables bool
}

func (o *plotOptions) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.dir, "plot", "", "directory to write thesis Figure 4.1 to (waits and BM bounds with and without trimming; PNG and SVG)")
	fs.StringVar(&o.queues, "plot-queues", defaultPlotQueues, "queues to plot with -plot: comma-separated TRACE/QUEUE, TRACE a prefix of one trace's file name, QUEUE a number (SWF field 15) or ALL")
	fs.IntVar(&o.days, "plot-days", 30, "length of the zoomed figure's window, days (the window where trimming changes the most outcomes)")
	fs.BoolVar(&o.tables, "tables", true, "print Tables 4.1 and 4.2 (false with -plot: figures only, a few seconds per queue)")
}

// defaultPlotQueues are the queues of the README's figures.
const defaultPlotQueues = "SDSC-BLUE/3,SDSC-SP2/ALL"

// waitRun is one queue replayed with one BM configuration: the bound of
// every job in submit order (negative: none) and the score.
type waitRun struct {
	name   string
	bounds []int64
	r      replay.Result
}

// The two BM configurations of Figure 4.1. The thesis compares BM "without
// QBETS enhancements" with BM in QBETS; we isolate the enhancement the
// figure is about, trimming: both run on one queue-level history, without
// availability inference, so each bound is one step line (full QBETS's
// per-cluster bounds interleave four histories and would draw as a zigzag).
var waitConfigs = []struct {
	name string
	cfg  replay.Config
}{
	{"BM, full history (no trimming)", replay.Config{Plain: true}},
	{"BM, change-point trimming", replay.Config{Predictor: qbets.Config{Cluster: qbets.ClusterNone, NoAvailability: true}}},
}

// plotWaits draws Figure 4.1 for every queue of spec (see -plot-queues)
// into o.dir: the whole queue and a days-long window.
func plotWaits(w io.Writer, traces string, o plotOptions) error {
	outDir, spec, days := o.dir, o.queues, o.days
	if days <= 0 || days > 36500 { // checked by the flags too
		return fmt.Errorf("-plot-days %d: must be 1 to 36500", days)
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		files, sc, err := plotQueue(traces, outDir, item, days)
		if err != nil {
			return fmt.Errorf("-plot-queues %q: %w", item, err)
		}
		fmt.Fprintf(w, "Figure 4.1, %s: %s\n", item, strings.Join(files, ", "))
		if len(sc.far) > 0 {
			fmt.Fprintf(w, "  (jobs of the log left out: %s)\n", cli.Reasons(sc.far))
		}
		if sc.noWait > 0 {
			fmt.Fprintf(w, "  (jobs of the log without a known wait or submit time left out: %d)\n", sc.noWait)
		}
		if sc.zeros > 0 {
			fmt.Fprintf(w, "  (%s)\n", cli.PaddingNote(sc.zeros))
		}
	}
	return nil
}

// figureScore is what a queue's figures say in their legends: each BM
// configuration's correctness over the whole queue (after training) and
// within the zoomed window.
type figureScore struct {
	item, queueName string // as in -plot-queues; the header's queue name
	all             bool   // the whole log
	whole           [2]replay.Result
	fromDay, toDay  int64 // the window, days since the log's time 0
	held, n         [2]int
	far             map[string]int // jobs of the log left out by reason: a time or size out of range (cli.InRange)
	noWait          int            // jobs of the log without a known wait or submit time (replay.Queues skips them)
	zeros           int64          // zero bytes after the log's last gzip member, ignored
}

// plotQueue replays one queue twice (without and with trimming), recording
// every job's bound through replay.Config.OnForecast, and draws it.
func plotQueue(traces, outDir, item string, days int) ([]string, figureScore, error) {
	sc := figureScore{item: item}
	prefix, queue, ok := strings.Cut(item, "/")
	if !ok || prefix == "" || queue == "" {
		return nil, sc, fmt.Errorf("want TRACE/QUEUE (e.g. SDSC-BLUE/3 or SDSC-SP2/ALL)")
	}
	path, err := tracetest.FindPrefix(traces, prefix)
	if err != nil {
		return nil, sc, err
	}
	hdr, all, zeros, err := cli.ReadLog(path) // (its errors name the file)
	if err != nil {
		return nil, sc, err
	}
	sc.zeros = zeros
	all, sc.far = cli.InRange(all) // as the tables and the scores do: a wait of 2^63 − 1 failed the replay
	// Jobs without a known wait were left out of the figures without a
	// word (SDSC-Par's 805), as they were of the tables (measure).
	byQ, noWait := replay.Queues(all)
	sc.noWait = noWait
	base := traceBase(path)
	var jobs []swf.Job
	name := base + "/" + queue
	if strings.EqualFold(queue, "ALL") {
		queue, sc.all = "all", true
		name = base + "/ALL"
		if jobs, err = replay.All(byQ); err != nil {
			return nil, sc, err
		}
	} else {
		q, err := strconv.ParseInt(queue, 10, 64)
		if err != nil {
			return nil, sc, fmt.Errorf("queue %q: not a number or ALL", queue)
		}
		if jobs = byQ[q]; len(jobs) == 0 {
			return nil, sc, fmt.Errorf("%s has no queue %d with known waits", base, q)
		}
		sc.queueName = queueName(hdr, q)
		name += sc.queueName
	}
	var runs []waitRun
	var submit, wait []int64
	for k, c := range waitConfigs {
		run := waitRun{name: c.name}
		cfg := c.cfg
		cfg.OnForecast = func(j *swf.Job, f qbets.Forecast) {
			b := int64(-1)
			if f.OK {
				b = f.Upper
			}
			run.bounds = append(run.bounds, b)
			if k == 0 {
				submit, wait = append(submit, j.Submit), append(wait, j.Wait)
			}
		}
		if run.r, err = replay.Replay(jobs, cfg); err != nil {
			return nil, sc, err
		}
		runs = append(runs, run)
	}
	slug := strings.ToLower(tracetest.ShortName(base) + "-" + queue)
	train := len(submit) - runs[0].r.Scored
	series := func(title string, lo, hi int) figures.WaitSeries {
		s := figures.WaitSeries{Title: title, Submit: submit[lo:hi], Wait: wait[lo:hi]}
		for _, r := range runs {
			label := fmt.Sprintf("%s: %.1f%% of %d scored bounds held", r.name, 100*r.r.Correctness(), r.r.Answered())
			if lo > 0 || hi < len(submit) {
				held, n := heldIn(wait, r.bounds, max(lo, train), hi)
				label = fmt.Sprintf("%s: %.1f%% of %d held here, %.1f%% overall", r.name, 100*float64(held)/float64(max(n, 1)), n, 100*r.r.Correctness())
			}
			if r.r.Answered() == 0 { // no share of nothing (it printed NaN%)
				label = r.name + ": no bound scored"
			}
			s.Bounds = append(s.Bounds, figures.Bounds{Name: label, Bound: r.bounds[lo:hi]})
		}
		return s
	}
	whole := fmt.Sprintf("%s: %d jobs, waits and 0.95-quantile BM bounds (Nurmi's Figure 4.1; first %d jobs train)", name, len(submit), train)
	files, err := figures.Waits(outDir, "qbets-"+slug+"-waits", series(whole, 0, len(submit)))
	if err != nil {
		return nil, sc, err
	}
	lo, hi := trimWindow(submit, wait, runs[0].bounds, runs[1].bounds, train, int64(days)*86400)
	zoom := fmt.Sprintf("%s: the %d days where trimming changes the most outcomes (jobs %d–%d)", name, days, lo+1, hi)
	more, err := figures.Waits(outDir, "qbets-"+slug+"-waits-zoom", series(zoom, lo, hi))
	for k, r := range runs {
		sc.whole[k] = r.r
		sc.held[k], sc.n[k] = heldIn(wait, r.bounds, max(lo, train), hi)
	}
	sc.fromDay, sc.toDay = submit[lo]/86400, submit[hi-1]/86400
	return append(files, more...), sc, err
}

// trimWindow returns the jobs [lo, hi) of the span-seconds window (among
// the scored jobs) where the trimmed bound held and the full-history bound
// did not most often, minus the reverse: the stretch Figure 4.1 shows.
func trimWindow(submit, wait, full, trimmed []int64, from int, span int64) (lo, hi int) {
	gain := func(i int) int { return figures.TrimGain(wait[i], full[i], trimmed[i]) }
	best, bestLo, bestHi := -1<<62, from, len(submit)
	sum, l := 0, from
	for r := from; r < len(submit); r++ {
		sum += gain(r)
		for submit[r]-submit[l] >= span {
			sum -= gain(l)
			l++
		}
		if sum > best {
			best, bestLo, bestHi = sum, l, r+1
		}
	}
	// Extend to the whole window, so the figure spans the days it says.
	for bestHi < len(submit) && submit[bestHi]-submit[bestLo] < span {
		bestHi++
	}
	return bestLo, bestHi
}

// heldIn counts the jobs of [lo, hi) with a bound (n) and those whose wait
// was within it (held).
func heldIn(wait, bound []int64, lo, hi int) (held, n int) {
	for i := lo; i < hi; i++ {
		if bound[i] >= 0 {
			n++
			if wait[i] <= bound[i] {
				held++
			}
		}
	}
	return held, n
}
