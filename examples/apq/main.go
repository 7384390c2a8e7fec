// Command apq reproduces the evaluation of Hariharan, Murali, Pasari and
// Vadhiyar, "End-to-End Predictions-Based Resource Management Framework for
// Supercomputer Jobs" (spec apq-rangeset-molding §6–7) on the traces of
// ../shared/traces that the paper also uses (SDSC-BLUE, SDSC-SP2, CEA-Curie,
// SDSC Paragon), and prints its tables with the paper's numbers beside ours:
//
//	V     queue-wait AAE and scaled AAE of QBETS, IBL and APQ (table5.go)
//	VI    execution-time range sets: success rate and coverage
//	VII   execution-time point AAE
//	VIII  job molding
//	IX    delayed submission
//	SEEDS Tables VIII–IX's strategies over several seeds (only when -tables names it)
//
// Each table lives in its own file and registers itself in tables from an
// init function; main only loads the traces once and runs the registered
// tables in order V..IX.
//
// Exit status: 0 ok, 1 a run error (no trace of the paper found, an
// unreadable trace), 2 a usage error.
package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// tableFunc prints one table of the paper for every trace in env.
type tableFunc func(w io.Writer, env *env) error

// tables holds the registered tables by their roman number ("V", "VI", ...).
// Files add to it from init.
var tables = map[string]tableFunc{}

// tableOrder is the order in which registered tables are printed.
var tableOrder = []string{"V", "VI", "VII", "VIII", "IX", "SEEDS"}

// defaultSeed is the -seed default: the seed of every molding table the
// README shows.
const defaultSeed = 1

// defaultSeeds is how many seeds the seed sweep runs unless -nseeds says.
const defaultSeeds = 8

// onRequest holds the tables that run only when -tables names them (slow
// extras such as the seed sweep).
var onRequest = map[string]bool{}

// trace is one loaded log.
type trace struct {
	// Name is the paper's name of the log ("SDSC Blue", ...), the key of
	// the paper-number tables.
	Name string
	// File is the base name of the SWF file.
	File string
	// Procs is the machine size (header MaxProcs, else MaxNodes).
	Procs int64
	// Jobs are the jobs kept by the -filter flag (see keep), in file
	// (submit) order, with Submit ≥ 0, Wait ≥ 0 and RunTime ≥ 0. Limited to
	// the first -jobs kept jobs when that is set (tables that need the
	// paper's job ranges, e.g. test jobs #20001–60000, shrink them to fit).
	Jobs []swf.Job
	// Dropped counts the jobs of the file (up to the -jobs cut) that Jobs
	// leaves out.
	Dropped int
	// Zeros counts the zero bytes after the file's last gzip member,
	// ignored (the report says them: cli.PaddingNote).
	Zeros int64
	// Header is the header lines the reader did not take as written
	// (cli.ReadLogHeader), said in the report as the padding is: a
	// MaxProcs after the jobs or kept as text gave another size.
	Header []string
	// Duplicates counts the jobs the filter kept that were left out as
	// a later job under a number already kept (logs concatenated, a
	// scheduler's numbers wrapped): IBL keys its jobs by number and
	// stopped the whole run ("ibl: job 1 submitted twice"). Said in the
	// report, as the padding is.
	Duplicates int
	// Filtered counts the jobs -filter left out, by reason (leftOut):
	// said in the report, as the others are. They were counted in Dropped
	// alone, which only -v printed: a log of jobs that all ran 0 s was
	// "0 jobs, too few for a validation and a test range" without a word
	// of the 3,000 read.
	Filtered map[string]int
	// NoSize counts the jobs left out for having neither processor
	// count, which no table can use; said in the report.
	NoSize int
	// OutOfRange counts the jobs the filter kept that were left out for
	// a size past 2^40 processors or a time past 2^40 s, by sanitize's
	// reason (cli.InRange's bounds, which every simulator and replay
	// applies): corrupt fields that wrapped past 2^63 in the range sets
	// ("execution 1 [-9223372036854763869, …) on 25 processors") and
	// failed the table. Said in the report.
	OutOfRange map[string]int
	// MadeUp counts the jobs kept without a number (field 1 below 1, SWF's
	// -1), numbered 10^18 + n by their line n (as cli.MadeUpIDs), as simulate numbers
	// them: they were all one number, and left out as duplicates but the
	// first. Said in the report.
	MadeUp int
}

// env is what every table gets: the loaded traces and the common flags.
type env struct {
	Traces []*trace
	// Quick asks tables for a fast, smaller run (used by the tests).
	Quick bool
	// Tune asks for the paper's one-at-a-time parameter search on the
	// validation jobs (slow: about 40 extra validation runs per trace).
	Tune bool
	// NoGrow molds to the original size or smaller only in Tables VIII
	// and IX (molding.Config.NoGrow, a diagnostic, NOT the paper's).
	NoGrow bool
	// Floor is the size-aware wait of the extra Tables VIII–IX columns
	// (molding.ProfileFloor, NOT the paper's): floorQueue, floorRunning or
	// floorOff (no such column).
	Floor string
	// FloorOnly runs only the baseline and the size-aware columns of
	// Tables VIII–IX (the paper's method's cells print "—").
	FloorOnly bool
	// Seed is for any randomness a table needs.
	Seed uint64
	// Seeds is how many seeds from Seed on the seed sweep runs.
	Seeds int
	// Par is how many simulations the seed sweep runs at once, and how
	// many logs table V replays at once.
	Par int
	// Log receives progress lines; never nil (io.Discard when quiet).
	Log io.Writer
}

// paperTraces are the logs of the paper's Table III present in
// ../shared/traces, in the paper's order.
var paperTraces = []struct{ Name, File string }{
	{"CEA Curie", "CEA-Curie-2011-2.1-cln.swf.gz"},
	{"SDSC Blue", "SDSC-BLUE-2000-4.2-cln.swf.gz"},
	{"SDSC Paragon", "SDSC-Par-1996-3.1-cln.swf.gz"},
	{"SDSC SP2", "SDSC-SP2-1998-4.2-cln.swf.gz"},
}

func main() { cli.Main(run) }

const usage = `usage: apq [flags]

Reproduces Tables V–IX of Hariharan et al. on the paper's traces found in
-traces and prints them as markdown beside the paper's numbers (-json: as
JSON).

`

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("apq", stderr, command(args, stdout, stderr))
}

func command(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("apq")
	dir := fs.String("traces", defaultTraces(), "directory of the SWF logs (default $BATCHQ_TRACES, else ../shared/traces beside the repository)")
	only := fs.String("only", "", "comma-separated substrings of trace file names to run (default: all four)")
	which := fs.String("tables", "", "comma-separated tables to print, e.g. V,VIII (default: all registered)")
	maxJobs := fs.Int("jobs", 0, "use only the first N completed jobs of each trace (0 = all)")
	filter := fs.String("filter", filterRan, "which jobs to keep: "+filterRan+" (run time > 0 and not failed; matches the paper's SDSC-SP2 count) or "+filterStatus1+" (SWF status 1 only, spec §1 [R])")
	quick := fs.Bool("quick", false, "smaller, faster runs")
	tune := fs.Bool("tune", false, "Table V: also tune APQ one parameter at a time on the validation jobs (slow)")
	noGrow := fs.Bool("nogrow", false, "Tables VIII, IX: never mold a job to a larger size (diagnostic, not the paper's)")
	floor := fs.String("floor", floorQueue, "Tables VIII, IX: size-aware wait column (not the paper's): "+floorQueue+" (APQ floored by the job's earliest start in a conservative-backfilling profile of the running and waiting jobs), "+floorRunning+" (running jobs only) or "+floorOff)
	floorOnly := fs.Bool("flooronly", false, "Tables VIII, IX: run only the baseline and the size-aware columns (skip the paper's method)")
	seed := fs.Uint64("seed", defaultSeed, "random seed")
	nSeeds := fs.Int("nseeds", defaultSeeds, "table SEEDS: how many seeds from -seed on")
	par := fs.Int("par", runtime.NumCPU(), "table SEEDS: simulations run at once; table V: logs replayed at once")
	verbose := fs.Bool("v", false, "progress lines on stderr (instead of the bar)")
	asJSON := cli.JSONFlag(fs)
	bar := cli.ProgressFlag(fs, stderr)
	if err := cli.ParseFlags(fs, args, usage, stdout); err != nil {
		return err
	}
	o := options{Dir: *dir, Only: *only, Tables: *which, Filter: *filter, MaxJobs: *maxJobs,
		Quick: *quick, Tune: *tune, NoGrow: *noGrow, Floor: *floor, FloorOnly: *floorOnly, Seed: *seed, Seeds: *nSeeds, Par: *par}
	if *verbose {
		o.Log = stderr
	}
	// The bar is a terminal's default; -json (output for scripts) and -v
	// (the lines instead) turn that default off; -progress forces it.
	if cli.ProgressOn(fs, bar, *asJSON || *verbose) {
		o.Bar = stderr
	}
	w, flush := cli.Output(stdout, *asJSON)
	if err := reproduce(w, o); err != nil {
		return err
	}
	return flush()
}

type options struct {
	Dir, Only, Tables string
	Filter            string // "" means filterRan
	MaxJobs           int
	Quick, Tune       bool
	NoGrow            bool
	Floor             string // "" means floorQueue
	FloorOnly         bool
	Seed              uint64
	Seeds, Par        int
	Log               io.Writer // progress lines (-v); nil: none
	Bar               io.Writer // the progress bar (-progress); nil: none
}

// reproduce loads the traces and prints the selected tables on w.
func reproduce(w io.Writer, o options) error {
	if o.MaxJobs < 0 {
		return cli.Usagef("-jobs = %d, want ≥ 0", o.MaxJobs)
	}
	if o.Filter == "" {
		o.Filter = filterRan
	}
	// Bounded above too: each seed's result slots are made before the
	// first run (-nseeds 10000000: 240 MB, and a goroutine a seed).
	if o.Seeds < 0 || o.Par < 0 || o.Seeds > maxSeeds || o.Par > maxPar {
		return cli.Usagef("-nseeds = %d, -par = %d, want 0 to %d and 0 to %d", o.Seeds, o.Par, maxSeeds, maxPar)
	}
	if o.Seeds == 0 {
		o.Seeds = defaultSeeds
	}
	if o.FloorOnly && o.Floor == floorOff {
		return cli.Usagef("-flooronly with -floor %s runs nothing but the baseline", floorOff)
	}
	if o.Filter != filterRan && o.Filter != filterStatus1 {
		return cli.Usagef("-filter = %q, want %q or %q", o.Filter, filterRan, filterStatus1)
	}
	// An -only item that names no trace of the paper was dropped without
	// a word (-only SP2,bogus ran SP2), or, alone, was "no trace of the
	// paper found" (exit 1), as if the directory lacked the logs.
	for _, s := range strings.Split(o.Only, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !slices.ContainsFunc(paperTraces, func(pt struct{ Name, File string }) bool { return matches(pt.File, s) }) {
			return cli.Usagef("-only %q: %q names no trace of the paper (want substrings of %s)", o.Only, s, traceFiles())
		}
	}
	if o.Floor == "" {
		o.Floor = floorQueue
	}
	if o.Floor != floorQueue && o.Floor != floorRunning && o.Floor != floorOff {
		return cli.Usagef("-floor = %q, want %q, %q or %q", o.Floor, floorQueue, floorRunning, floorOff)
	}
	names, err := selectTables(o.Tables)
	if err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	e := &env{Quick: o.Quick, Tune: o.Tune, NoGrow: o.NoGrow, Floor: o.Floor, FloorOnly: o.FloorOnly, Seed: o.Seed, Seeds: o.Seeds, Par: o.Par, Log: io.Discard}
	if o.Log != nil {
		e.Log = o.Log
	}
	// The bar's steps: each trace read (weight 1), then each table over
	// every trace (weight 1 per trace): tables done of the total.
	// A -traces that is not a directory fails at once, as qbets' does:
	// it printed a "not found; skipped" line per paper trace first.
	if err := cli.TraceDir("-traces", o.Dir); err != nil {
		return err
	}
	present := 0
	for _, pt := range paperTraces {
		if _, err := os.Stat(filepath.Join(o.Dir, pt.File)); err == nil && matches(pt.File, o.Only) {
			present++
		}
	}
	bar := progress.New(o.Bar, o.Bar != nil, float64(present*(1+len(names))))
	defer bar.Done()
	for _, pt := range paperTraces {
		if !matches(pt.File, o.Only) {
			continue
		}
		path := filepath.Join(o.Dir, pt.File)
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(w, "trace %s not found in %s; skipped\n", pt.File, o.Dir)
			continue
		}
		bar.Stage("read "+pt.Name, 1)
		t0 := time.Now()
		tr, err := loadTrace(path, pt.Name, o.Filter, o.MaxJobs)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Log, "loaded %s: %d jobs kept, %d dropped (%v)\n", tr.File, len(tr.Jobs), tr.Dropped, time.Since(t0).Round(time.Millisecond))
		if tr.Zeros > 0 {
			// In the report, as a trace not found is (-json: the first
			// section's text).
			fmt.Fprintf(w, "trace %s: %s\n", tr.File, cli.PaddingNote(tr.Zeros))
		}
		if len(tr.Header) > 0 {
			fmt.Fprintf(w, "trace %s: %s\n", tr.File, cli.HeaderNote(tr.Header))
		}
		if len(tr.Filtered) > 0 {
			fmt.Fprintf(w, "trace %s: jobs left out: %s\n", tr.File, cli.Reasons(tr.Filtered))
		}
		if tr.NoSize > 0 {
			fmt.Fprintf(w, "trace %s: %d jobs left out: no size (neither field 5 nor field 8)\n", tr.File, tr.NoSize)
		}
		if tr.Duplicates > 0 {
			fmt.Fprintf(w, "trace %s: %d jobs left out: duplicate ID (a later job under a number already read)\n", tr.File, tr.Duplicates)
		}
		if len(tr.OutOfRange) > 0 {
			fmt.Fprintf(w, "trace %s: jobs left out: %s (a size past 2^40 processors or a time past 2^40 s)\n", tr.File, cli.Reasons(tr.OutOfRange))
		}
		if tr.MadeUp > 0 {
			fmt.Fprintf(w, "trace %s: %d jobs without a job number (field 1 below 1) numbered 10^18 + n by their line n (%s)\n", tr.File, tr.MadeUp, cli.MadeUpID)
		}
		e.Traces = append(e.Traces, tr)
	}
	if len(e.Traces) == 0 {
		return fmt.Errorf("no trace of the paper found in %s (want one of %s)", o.Dir, traceFiles())
	}
	for _, name := range names {
		bar.Stage("table "+name, float64(len(e.Traces)))
		fmt.Fprintf(w, "## Table %s\n\n", name)
		if err := tables[name](w, e); err != nil {
			return fmt.Errorf("table %s: %w", name, err)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// selectTables returns the registered tables to print, in order.
func selectTables(list string) ([]string, error) {
	var names []string
	for _, n := range tableOrder {
		if tables[n] != nil && (list != "" || !onRequest[n]) {
			names = append(names, n)
		}
	}
	// Tables registered under names outside tableOrder still run, last.
	var extra []string
	for n := range tables {
		if !slices.Contains(tableOrder, n) && (list != "" || !onRequest[n]) {
			extra = append(extra, n)
		}
	}
	slices.Sort(extra)
	names = append(names, extra...)
	if list == "" {
		return names, nil
	}
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.ToUpper(strings.TrimSpace(n))
		if tables[n] == nil {
			return nil, fmt.Errorf("-tables: table %q is not registered (have %s)", n, strings.Join(names, ","))
		}
		out = append(out, n)
	}
	slices.SortStableFunc(out, func(a, b string) int {
		return cmp.Compare(slices.Index(names, a), slices.Index(names, b))
	})
	return slices.Compact(out), nil
}

func matches(file, only string) bool {
	if only == "" {
		return true
	}
	for _, s := range strings.Split(only, ",") {
		if s = strings.TrimSpace(s); s != "" && strings.Contains(strings.ToLower(file), strings.ToLower(s)) {
			return true
		}
	}
	return false
}

func traceFiles() string {
	var fs []string
	for _, pt := range paperTraces {
		fs = append(fs, pt.File)
	}
	return strings.Join(fs, ", ")
}

// The job filters. The spec's [R] keeps SWF status 1 only, but the paper's
// job counts (Table III) match the jobs that ran: SDSC-SP2 has 54,034 jobs
// with a positive run time (43,117 with status 1, the rest cancelled after
// they started) against the paper's 54,006. A cancelled job that ran still
// waited in the queue, so its wait is a real observation.
const (
	filterRan     = "ran"
	filterStatus1 = "status1"
)

// leftOut is why filter leaves j out, "" when it keeps it: the reasons the
// report counts (trace.Filtered).
func leftOut(j *swf.Job, filter string) string {
	switch {
	case j.Submit < 0 || j.Wait < 0 || j.RunTime < 0:
		return "no submit time, wait or run time (cannot be replayed)"
	case filter == filterStatus1:
		if j.Status == 1 || (j.Status == swf.StatusUnknown && j.RunTime > 0) {
			return ""
		}
		return "not status 1 (-filter status1)"
	case j.RunTime == 0:
		return "run time 0 (-filter ran keeps the jobs that ran)"
	case j.Status == 0:
		return "failed (status 0; -filter ran)"
	}
	return ""
}

// loadTrace reads one log and keeps the jobs that filter selects, at most
// maxJobs of them when maxJobs > 0.
func loadTrace(path, name, filter string, maxJobs int) (*trace, error) {
	h, jobs, zeros, header, err := cli.ReadLogHeader(path) // (its errors name the file)
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return nil, fmt.Errorf("%s: no job lines", path)
	}
	procs, err := h.MachineSize()
	if err == nil {
		// before sched's "MachineSize N above 2^40", which names no file
		err = cli.CheckMachine(procs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr := &trace{Name: name, File: filepath.Base(path), Procs: procs, Zeros: zeros, Header: header}
	seen := make(map[int64]bool, len(jobs))
	for i := range jobs {
		if maxJobs > 0 && len(tr.Jobs) == maxJobs {
			break
		}
		// Numbered by the line, as cli.MadeUpIDs and sched number them.
		madeUp := jobid.Missing(jobs[i].ID)
		if madeUp {
			jobs[i].ID = jobid.MadeUp(int64(i + 1))
		}
		if why := leftOut(&jobs[i], filter); why != "" {
			tr.Dropped++
			if tr.Filtered == nil {
				tr.Filtered = map[string]int{}
			}
			tr.Filtered[why]++
			continue
		}
		if jobs[i].Size() <= 0 {
			// Neither processor count (fields 5 and 8): Li's distance
			// took the log of −1 and printed Table VII's cell as NaN.
			// Counted among the jobs the filter keeps only: a
			// cancelled line without a size was left out anyway (it
			// was counted as a "no size" too).
			tr.Dropped++
			tr.NoSize++
			continue
		}
		if why := cli.OutOfRange(&jobs[i]); why != "" {
			tr.Dropped++
			if tr.OutOfRange == nil {
				tr.OutOfRange = map[string]int{}
			}
			tr.OutOfRange[why]++
			continue
		}
		if seen[jobs[i].ID] {
			tr.Dropped++
			tr.Duplicates++
			continue
		}
		seen[jobs[i].ID] = true
		tr.Jobs = append(tr.Jobs, jobs[i])
		if madeUp {
			tr.MadeUp++
		}
	}
	return tr, nil
}

// defaultTraces is $BATCHQ_TRACES, else ../shared/traces beside the
// repository (the traces are never part of it).
func defaultTraces() string {
	d, err := tracetest.Dir()
	if err != nil {
		return filepath.Join("..", "shared", "traces")
	}
	return d
}
