// Command estimates adds user runtime estimates (SWF field 9) to a trace with
// the modal model of Tsafrir's thesis (Ch. 5) or one of its comparators, and
// validates the model with the EASY simulator (§5.12.3).
//
//	go run ./examples/estimates -trace lublin_256.swf -emax 18h -share 20 -out model.swf
//	go run ./examples/estimates -trace ctc -out ctc-model.swf           # E_max and share from the log
//	go run ./examples/estimates -trace kth -model f -f 3 -out kth-f3.swf
//	go run ./examples/estimates -fit -seeds 100 > fit.md               # distribution fit (§5.12.1)
//	go run ./examples/estimates -validate -seeds 100 > table.md         # EASY validation (§5.12.3)
//	go run ./examples/estimates -validate -seeds 3 -plot figures       # also Fig 5.13 as bars
//
// -trace takes a path or one of the short names ctc, kth, kth4h, sdsc,
// sdsc106, blue (the shared traces; kth4h is KTH's jobs with estimates ≤ 4 h,
// the thesis's Ch. 5 KTH; sdsc106 is SDSC without its most inventive user's
// own estimate values, §5.5). Only sane jobs are kept (thesis S4/S5). Without -emax the
// log's largest estimate is used, and without -share the log's share of jobs
// at it; a log without estimates needs -emax (the share is then optional).
// -bin 15m:10.6 adds a user mode (repeatable). Run times above E_max are
// truncated to E_max and reported. A largest estimate that is one corrupt
// value (more than 10× the next largest, or longer than a year and the
// log's span: LLNL-Atlas's 23 years) is still E_max, with a warning naming the job and
// counting the jobs it reached (stderr; -json's warnings, warning_data).
//
// -lenient skips the malformed lines of -trace, counted and reported as
// simulate does (on standard error, and in -json's malformed_lines_skipped
// and skipped); -fit and -validate read their logs strictly.
//
// Exit status: 0 ok, 1 a run error (a trace missing or unreadable, an
// unwritable output), 2 a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

type binList []estmodel.UserBin

func (b *binList) String() string { return fmt.Sprint(*b) }

func (b *binList) Set(s string) error {
	t, p, ok := strings.Cut(s, ":")
	if !ok {
		return errors.New("want time:percent, e.g. 15m:10.6")
	}
	d, err := parseDuration(t)
	if err != nil {
		return err
	}
	pct, err := strconv.ParseFloat(p, 64)
	if err != nil {
		return err
	}
	// Checked here, a usage error naming -bin: each was exit 1 once the
	// trace was read, in estmodel's words ("user bin 0: time 0 outside
	// (0, E_max=64800]"; "user bin 1: time 900 given twice"). What
	// depends on E_max (a time above it) is still estmodel's to say.
	switch {
	case d <= 0 || d > sanitize.MaxTime:
		return fmt.Errorf("time %d s: want 1 s to 2^40 s", d)
	case !(pct > 0 && pct <= 100):
		return fmt.Errorf("percent %v: want more than 0, at most 100", pct)
	}
	for _, o := range *b {
		if o.Time == d {
			return fmt.Errorf("time %d s given twice (%v%% and %v%%)", d, o.Percent, pct)
		}
	}
	*b = append(*b, estmodel.UserBin{Time: d, Percent: pct})
	return nil
}

// parseDuration accepts Go durations (18h, 1h30m) or plain seconds.
func parseDuration(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	return int64(d / time.Second), nil
}

type options struct {
	trace, out, model string
	procs             int64
	eMax              string
	share, f, phi     float64
	bins              binList
	seed              uint64
	validate, fit     bool
	seeds, fSeeds     int
	logs              string
	workers           int
	noExtra, legal    bool
	plot              string
	json              bool      // runAssign: a JSON report on stdout
	lenient           bool      // runAssign: skip -trace's malformed lines (counted)
	bar               io.Writer // validation: the progress bar (-progress); nil: none
}

func main() { cli.Main(run) }

const usage = `usage: estimates [flags] [TRACE]   (TRACE as -trace; flags may follow it)

Adds user runtime estimates (SWF field 9) to -trace with a model of
Tsafrir's thesis Ch. 5 and writes the trace to -out (-json: with -out
FILE, a JSON report of the assignment on standard output); -fit and
-validate print the thesis's checks as markdown (-json: as JSON).

`

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.Status("estimates", stderr, commandIn(ctx, args, stdin, stdout, stderr))
}

// commandIn is the command over explicit streams (-trace - reads stdin).
// Bounds of the validation's -seeds, -fseeds and -workers.
const maxSeeds, maxWorkers = 100000, 4096

func commandIn(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	var o options
	fs := cli.NewFlagSet("estimates")
	fs.StringVar(&o.trace, "trace", "", "input trace: a path (- for standard input) or ctc, kth, kth4h, sdsc, sdsc106, blue")
	fs.StringVar(&o.out, "out", "-", "output SWF path (- for stdout)")
	fs.StringVar(&o.model, "model", "modal", "estimate model: modal, f, fdet, phi, shuffle")
	fs.Int64Var(&o.procs, "procs", 0, "machine size for the sane filter (0: the header's; ctc: 512)")
	fs.StringVar(&o.eMax, "emax", "", "E_max (e.g. 18h or seconds); default: the log's largest estimate")
	fs.Float64Var(&o.share, "share", -1, "percent of jobs at E_max; default: the log's (none for a log without estimates)")
	fs.Var(&o.bins, "bin", "user mode time:percent, e.g. 15m:10.6 (repeatable)")
	fs.Float64Var(&o.f, "f", 3, "badness f of the f-model")
	fs.Float64Var(&o.phi, "phi", 0.10, "Φ of the Φ-model (Mu'alem and Feitelson's 0.10)")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed")
	fs.BoolVar(&o.lenient, "lenient", false, "skip malformed lines of -trace (counted and reported) instead of failing")
	fs.BoolVar(&o.validate, "validate", false, "run the §5.12 validation with EASY and print the markdown table")
	fs.BoolVar(&o.fit, "fit", false, "compare the model's estimate distribution with the four modelled logs (§5.12.1) and print markdown")
	fs.IntVar(&o.seeds, "seeds", 100, "validation: seeds of the modal model")
	fs.IntVar(&o.fSeeds, "fseeds", 100, "validation: seeds of each random f-model")
	fs.StringVar(&o.logs, "logs", "ctc,kth4h,sdsc,blue", "validation: logs to use (kth4h is the thesis's Ch. 5 KTH; kth is the whole log)")
	fs.IntVar(&o.workers, "workers", 2, "validation: simulations run in parallel")
	fs.StringVar(&o.plot, "plot", "", "validation: directory to write the EASY results as bars to (estimates-easy.png, .svg; Fig 5.13)")
	fs.BoolVar(&o.noExtra, "noextra", false, "validation: leave out the improved model, shfl and Φ")
	fs.BoolVar(&o.legal, "legal", false, "validation: also run each model setting with the jobs its pairing left short given their run time as estimate (a diagnostic, not a thesis model)")
	asJSON := cli.JSONFlag(fs)
	bar := cli.ProgressFlag(fs, stderr)
	err = cli.ParseTrace(fs, args, usage, stdout, &o.trace, "")
	if err != nil {
		return err
	}
	// A validation flag outside the validation was dropped without a
	// word (exit 0): -fit uses -seeds alone, the assignment none.
	var unused string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "fseeds", "legal", "logs", "noextra", "plot", "workers":
			if !o.validate && unused == "" {
				unused = f.Name
			}
		case "seeds":
			if !o.validate && !o.fit && unused == "" {
				unused = f.Name
			}
		}
	})
	if unused != "" {
		if unused == "seeds" {
			return cli.Usagef("-seeds applies to -validate and -fit: give it with one of them (or leave it out)")
		}
		return cli.Usagef("-%s applies to -validate: give it with -validate (or leave it out)", unused)
	}
	// The validation's counts are bounded: a negative -seeds or -fseeds
	// panicked (makeslice), and each is a slice of results and a worker a
	// copy of the log, made before the first run.
	switch {
	case o.seeds < 1 || o.seeds > maxSeeds:
		return cli.Usagef("-seeds %d: want 1 to %d", o.seeds, maxSeeds)
	case o.fSeeds < 1 || o.fSeeds > maxSeeds:
		return cli.Usagef("-fseeds %d: want 1 to %d", o.fSeeds, maxSeeds)
	case o.workers < 1 || o.workers > maxWorkers:
		return cli.Usagef("-workers %d: want 1 to %d", o.workers, maxWorkers)
	}
	// The bar (of -validate, the long run) is a terminal's default, off
	// under -json (output for scripts); -progress forces it.
	if cli.ProgressOn(fs, bar, *asJSON) {
		o.bar = stderr
	}
	trace, done, err := cli.StdinTrace(o.trace, stdin)
	if err != nil {
		return err
	}
	defer done()
	stderr = cli.StdinStderr(stderr, o.trace, trace)
	defer func(arg string) { err = cli.StdinError(err, arg, trace) }(o.trace)
	o.trace = trace
	switch {
	case o.lenient && (o.fit || o.validate):
		return cli.Usagef("-lenient applies to -trace's log: -fit and -validate read the thesis's logs strictly")
	case o.fit || o.validate:
		if o.validate {
			if err := cli.OutputDir("-plot", o.plot); err != nil {
				return err
			}
		}
		w, flush := cli.Output(stdout, *asJSON)
		if o.fit {
			err = runFit(w, stderr, o.seeds)
		} else {
			err = runValidation(w, stderr, o)
		}
		if err == nil {
			err = flush()
		}
		return err
	case o.trace == "":
		return cli.Usagef("-trace is required (or -fit, -validate)")
	case !slices.Contains([]string{"modal", "f", "fdet", "phi", "shuffle"}, o.model):
		return cli.Usagef("-model %q: want modal, f, fdet, phi or shuffle", o.model)
	case o.share != -1 && !(o.share >= 0 && o.share <= 100):
		// -1 is the flag's default (the log's share); NaN read as it.
		return cli.Usagef("-share %v: want a percent from 0 to 100", o.share)
	case !(o.f >= 0) || math.IsInf(o.f, 0):
		return cli.Usagef("-f %v: want a finite badness ≥ 0", o.f)
	case !(o.phi >= 0 && o.phi <= 1):
		return cli.Usagef("-phi %v: want Φ from 0 to 1", o.phi)
	case o.procs < 0 || o.procs > cli.MaxSize:
		// The simulators' bound (sched.Config: 2^40 processors); a
		// negative size would call every job larger than the machine.
		return cli.Usagef("-procs %d: want 0 (the header's) or a size of 1 to 2^40 processors", o.procs)
	case o.out == "":
		// (It was "open : no such file or directory", exit 1, once the
		// estimates were made.)
		return cli.Usagef("-out \"\": want a file, or - for standard output")
	case *asJSON && o.out == "-":
		return cli.Usagef("-json prints a report on standard output: give the SWF file with -out")
	}
	// A model's parameter given with another model was dropped without a
	// word (-f 5 with the default modal model: exit 0, the modal
	// estimates written).
	if err := modelFlags(fs, o.model); err != nil {
		return err
	}
	if o.out != "-" {
		if err := cli.NotInput("-out", o.out, o.trace); err != nil {
			return err
		}
		if err := cli.OutputFile("-out", o.out); err != nil {
			return err // (found once the estimates were made)
		}
	}
	if o.eMax != "" {
		// Checked before the trace is read: -emax -5 was taken for no
		// E_max ("the log has no estimates: give -emax").
		if e, err := parseDuration(o.eMax); err != nil || e <= 0 || e > sanitize.MaxTime {
			return cli.Usagef("-emax %q: want a positive duration (18h) or seconds, at most 2^40 s", o.eMax)
		}
	}
	o.json = *asJSON
	return runAssign(stdout, stderr, o)
}

// runAssign reads the trace, replaces field 9 with the chosen model and
// writes the result (to stdout for -out -).
func runAssign(stdout, log io.Writer, o options) error {
	if o.trace == "" {
		return errors.New("-trace is required")
	}
	tr, err := loadTrace(o.trace, o.procs, o.lenient)
	if err != nil {
		return err
	}
	jobs := tr.jobs
	notSane := cli.ByReason(tr.sane)
	why := ""
	if len(notSane) > 0 {
		why = ": " + cli.Reasons(notSane)
	}
	if tr.leftOut > 0 {
		why += fmt.Sprintf("; %d sane jobs left out of %s: %s", tr.leftOut, o.trace, tr.leftWhy)
	}
	fmt.Fprintf(log, "%s: %d sane jobs on %d processors (%d dropped as not sane%s)\n", o.trace, len(jobs), tr.procs, len(tr.sane.Excluded), why)
	if n := tr.skipped.Note(); n != "" {
		fmt.Fprintf(log, "%s: %s\n", o.trace, n)
	}
	if tr.zeros > 0 {
		fmt.Fprintf(log, "%s: %s\n", o.trace, cli.PaddingNote(tr.zeros))
	}
	dups := duplicateIDs(jobs)
	if dups > 0 {
		fmt.Fprintf(log, "%s: %d sane jobs carry a job number an earlier one has: kept, each given its own estimate and written under its number as read (a simulator rejects such a job while the earlier one is live; swfstat's duplicate job numbers)\n", o.trace, dups)
	}
	set := vanilla(o.trace, jobs)
	// E_max from the log (not -emax, not the thesis's X of a short
	// name): is it one corrupt estimate?
	var degenerate *cli.DegenerateEMax
	if _, named := shortNames[strings.ToLower(o.trace)]; !named && o.eMax == "" {
		degenerate = cli.CheckEMax(jobs)
	}
	if o.eMax != "" {
		if set.EMax, err = parseDuration(o.eMax); err != nil {
			return fmt.Errorf("-emax: %w", err)
		}
		set.Bins = nil
		// The log has estimates: its share at the new E_max, none (as
		// -share 0) when no job has that estimate.
		if share := shareAt(jobs, set.EMax); set.Missing < len(jobs) && share > 0 {
			set.Bins = []estmodel.UserBin{{Time: set.EMax, Percent: share}}
		}
	}
	if len(jobs) == 0 {
		// Not "no estimates": there is no job to give one to.
		return fmt.Errorf("%s: no sane job to give an estimate to", o.trace)
	}
	if set.EMax <= 0 {
		return errors.New("the log has no estimates: give -emax")
	}
	if o.share >= 0 {
		set.Bins = nil
		if o.share > 0 {
			set.Bins = []estmodel.UserBin{{Time: set.EMax, Percent: o.share}}
		}
	}
	set.Bins = append(set.Bins, o.bins...)
	rng := rand.New(rand.NewPCG(o.seed, 0x5eed))
	rep, err := applyModel(jobs, o.model, set, o.f, o.phi, rng)
	if err != nil {
		// (named no log: "estmodel: E_max = 1800 s is below one hour")
		from := "its largest estimate"
		if o.eMax != "" {
			from = "-emax"
		}
		return fmt.Errorf("%s: model %s, E_max from %s: %w", o.trace, o.model, from, err)
	}
	filled := ""
	if o.model == "shuffle" && set.Missing > 0 {
		filled = fmt.Sprintf("; %d jobs without an estimate in the log given E_max before the shuffle (S6)", set.Missing)
	}
	fmt.Fprintf(log, "model %s: E_max %d s, bins %s; %d run times truncated to E_max, %d jobs got an estimate below their run time%s\n",
		o.model, set.EMax, logBins(set.Bins), len(rep.Truncated), rep.Short, filled)
	var warnings []string
	var warningData map[string]any
	if o.model == "shuffle" && set.Missing == len(jobs) {
		// Not a shuffle of the users' estimates: there were none.
		w := fmt.Sprintf("degenerate shuffle: no job of the log has an estimate, so every job got E_max (%d s); the shuffle of §5.12.3 needs the log's own estimates (choose another -model)", set.EMax)
		fmt.Fprintf(log, "warning: %s\n", w)
		warnings = append(warnings, w)
	}
	if degenerate != nil {
		degenerate.Count(jobs)
		warnings = append(warnings, degenerate.Text("give -emax"))
		warningData = map[string]any{"degenerate_e_max": degenerate}
		fmt.Fprintf(log, "warning: %s\n", warnings[len(warnings)-1])
	}
	if err := writeSWF(stdout, o.out, tr.hdr, jobs, o); err != nil || !o.json {
		return err
	}
	return cli.WriteJSON(stdout, struct {
		Trace    string         `json:"trace"`
		Out      string         `json:"out"`
		SaneJobs int            `json:"sane_jobs"`
		Procs    int64          `json:"procs"`
		NotSane  int            `json:"not_sane"`
		ByReason map[string]int `json:"not_sane_by_reason"`
		// JobsRead = SaneJobs + NotSane + LeftOut: the job lines read,
		// and the sane jobs a short name's filter left out (kth4h's
		// without an estimate of at most 4 h, sdsc106's), LeftWhy what
		// they had.
		JobsRead int    `json:"jobs_read"`
		LeftOut  int    `json:"left_out"`
		LeftWhy  string `json:"left_out_why,omitempty"`
		// DuplicateIDs: sane jobs whose number an earlier sane job has,
		// kept and written under it (swfstat's key).
		DuplicateIDs int       `json:"duplicate_ids"`
		Model        string    `json:"model"`
		EMax         int64     `json:"e_max_s"`
		Bins         []jsonBin `json:"bins"`
		Truncated    int       `json:"run_times_truncated"`
		Short        int       `json:"estimates_below_run_time"`
		Missing      int       `json:"estimates_missing"` // sane jobs without an estimate in the log (S6)
		// Warnings and WarningData as simulate's: one line each, and
		// their figures by kind (degenerate_e_max).
		Warnings    []string       `json:"warnings,omitempty"`
		WarningData map[string]any `json:"warning_data,omitempty"`
		// TrailingZeros: zero bytes after the log's last gzip member,
		// ignored (simulate's and swfstat's key).
		TrailingZeros int64 `json:"trailing_zero_bytes"`
		// Skipped: -lenient's malformed lines skipped (swfstat's keys).
		cli.Skipped
	}{o.trace, o.out, len(jobs), tr.procs, len(tr.sane.Excluded), cli.ReasonKeys(notSane), tr.read, tr.leftOut, tr.leftWhy, dups, o.model, set.EMax, jsonBins(set.Bins), len(rep.Truncated), rep.Short,
		set.Missing, warnings, warningData, tr.zeros, tr.skipped})
}

// duplicateIDs counts the jobs whose number (field 1) an earlier job
// has; jobs without one (below 1, SWF's -1) are no duplicates of one
// another, as swfstat counts them. The model gives every job its own
// estimate whatever its number, so they are kept: dropping them would
// shorten the trace without a word, renumbering them would change it.
func duplicateIDs(jobs []swf.Job) int {
	seen := make(map[int64]struct{}, len(jobs))
	n := 0
	for i := range jobs {
		id := jobs[i].ID
		if id < 1 {
			continue
		}
		if _, dup := seen[id]; dup {
			n++
		}
		seen[id] = struct{}{}
	}
	return n
}

// jsonBin is a user bin in -json, with snake_case keys as every command's
// -json (estmodel.UserBin has no tags: its keys came out as Time, Jobs and
// Percent). A bin is sized either in jobs or in percent of the jobs
// (estmodel.UserBin), and carries that key alone: a percentage bin said
// "jobs": 0, which no script should read as no job at that estimate.
type jsonBin struct {
	Time    int64    `json:"time_s"`
	Jobs    *int     `json:"jobs,omitempty"`
	Percent *float64 `json:"percent,omitempty"`
}

// logBins is the bins as the log line prints them: "18h 23.8%, 0:15 10.6%"
// (they were Go's %v of the structs, "[{64800 0 23.779492890627022}]").
func logBins(bs []estmodel.UserBin) string {
	if len(bs) == 0 {
		return "none"
	}
	s := make([]string, len(bs))
	for i, b := range bs {
		if b.Jobs > 0 {
			s[i] = fmt.Sprintf("%s %d jobs", hms(b.Time), b.Jobs)
		} else {
			s[i] = fmt.Sprintf("%s %.1f%%", hms(b.Time), b.Percent)
		}
	}
	return strings.Join(s, ", ")
}

func jsonBins(bs []estmodel.UserBin) []jsonBin {
	out := make([]jsonBin, len(bs))
	for i, b := range bs {
		out[i] = jsonBin{Time: b.Time}
		if b.Jobs > 0 {
			out[i].Jobs = &b.Jobs
		} else {
			out[i].Percent = &b.Percent
		}
	}
	return out
}

func shareAt(jobs []swf.Job, t int64) float64 {
	n := 0
	for i := range jobs {
		if jobs[i].ReqTime == t {
			n++
		}
	}
	return 100 * float64(n) / float64(len(jobs))
}

// modelFlags refuses a flag of a model other than model: -f is the f
// models' (f, fdet), -phi the Φ-model's, -share and -bin the modal
// model's setting (the others take E_max alone).
func modelFlags(fs *flag.FlagSet, model string) error {
	of := map[string][]string{"f": {"f", "fdet"}, "phi": {"phi"}, "share": {"modal"}, "bin": {"modal"}}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if models, ok := of[f.Name]; ok && err == nil && !slices.Contains(models, model) {
			err = cli.Usagef("-%s applies to -model %s: with -model %s it has no effect", f.Name, strings.Join(models, " or "), model)
		}
	})
	return err
}

// applyModel replaces the estimates of jobs by the named model.
func applyModel(jobs []swf.Job, model string, set logSetting, f, phi float64, rng *rand.Rand) (estmodel.AssignReport, error) {
	rep := estmodel.AssignReport{Jobs: len(jobs)}
	truncate := func() {
		for i := range jobs {
			if jobs[i].RunTime > set.EMax {
				rep.Truncated = append(rep.Truncated, jobs[i].ID)
				jobs[i].RunTime = set.EMax
			}
		}
	}
	switch model {
	case "modal":
		d, err := estmodel.Generate(estmodel.ModalConfig{N: len(jobs), EMax: set.EMax, Bins: set.Bins}, rng)
		if errors.Is(err, estmodel.ErrShortEMax) {
			// A log whose largest estimate is under an hour (its own
			// E_max): the error named no way out. Said of this error
			// only: an E_max under an hour was taken for the cause of
			// any error of the model.
			return rep, fmt.Errorf("%w (the modal model's E_max is at least 1 hour: give -emax 1h or more, or -model f, fdet, phi or shuffle)", err)
		}
		if err != nil {
			return rep, err
		}
		return d.Assign(jobs, estmodel.AssignConfig{}, rng)
	case "shuffle":
		// Run times above E_max are cut to it, counted (fillMissing cut
		// them too, uncounted: OSC-Clust with -emax 18h said "0 run times
		// truncated" of 3896), and the jobs without an estimate get E_max
		// (S6) to be shuffled with the others.
		truncate()
		fillMissing(jobs, set.EMax)
		r, err := estmodel.Shuffle(jobs, estmodel.AssignConfig{}, rng)
		r.Truncated = append(rep.Truncated, r.Truncated...)
		return r, err
	case "f", "fdet":
		truncate()
		return rep, estmodel.FModel{F: f, Deterministic: model == "fdet"}.Apply(jobs, rng)
	case "phi":
		truncate()
		if phi == 0 {
			phi = -1 // PhiModel's "no exact estimates"
		}
		return rep, estmodel.PhiModel{Phi: phi, EMax: set.EMax}.Apply(jobs, rng)
	}
	return rep, fmt.Errorf("unknown model %q", model)
}

func writeSWF(stdout io.Writer, path string, hdr *swf.Header, jobs []swf.Job, o options) error {
	out := stdout
	if path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	h := *hdr
	h.Lines = nil // regenerate the header from the fields, with our note
	h.Note = append(h.Note, fmt.Sprintf("field 9 replaced by batchq estmodel %s model (seed %d); sane jobs only", o.model, o.seed))
	return swf.WriteAll(out, &h, jobs)
}
