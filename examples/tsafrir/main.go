// Command tsafrir reproduces Tables 4.1, 4.2, 4.3, 4.5, 4.6 and 4.7 of
// Tsafrir's PhD thesis (2006, Ch. 4): EASY, EASY_PRED, EASY_PCOR, EASY+,
// EASY_SJBF, EASY++, PERFECT++, X2 and SJF on the sane CTC (512 processors,
// as the thesis), KTH, SDSC-SP2 and SDSC-BLUE logs with their user
// estimates, and prints markdown tables with the thesis's number beside ours
// in every cell.
//
//	go run ./examples/tsafrir                  # all four logs from ../shared/traces
//	go run ./examples/tsafrir -logs KTH,CTC    # a subset
//	go run ./examples/tsafrir -dir /path/to/traces
//	go run ./examples/tsafrir -per-event=false # one scheduling pass per timestamp
//	go run ./examples/tsafrir -easypred        # also the EASY_PRED experiment (KTH, BLUE)
//	go run ./examples/tsafrir -plot figures    # also Table 4.3 as bars (PNG, SVG)
//	go run ./examples/tsafrir -logs KTH -json  # the tables as JSON
//
// Exit status: 0 ok, 1 a run error (a log missing or unreadable), 2 a
// usage error.
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/examples/internal/figures/fromlib"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/internal/thesislogs"
	"github.com/batchq/batchq/internal/tracetest"
)

// logSpec is one of the four logs: its archive file and the machine size
// the thesis uses (Tab 2.1; CTC is simulated with 512 processors, S32).
type logSpec = thesislogs.Log

var logs = thesislogs.Logs

// options are the command's flags.
type options struct {
	dir, only string
	// perEvent selects sched.Config.PerEventPass for the main tables. The
	// thesis's event loop calls schedule() after every arrival and
	// termination (§2.1); per-event passes reproduce its numbers more
	// closely. The other mode is run too, for its list of gaps.
	perEvent bool
	easyPred bool          // also run the EASY_PRED experiment
	plotDir  string        // when set, receives Table 4.3 as bars
	progress io.Writer     // -progress: where the bar goes; nil: none
	bar      *progress.Bar // compute's bar on progress
	// warn gets each log's records the sane filter left out, by reason
	// (the job-set table counts them, its README region too, and nothing
	// said why); nil: not said.
	warn io.Writer
}

// stage starts the next part of the run on the progress bar, if any.
func (o options) stage(name string, weight float64) {
	if o.bar != nil {
		o.bar.Stage(name, weight)
	}
}

func main() { cli.Main(run) }

const usage = `usage: tsafrir [flags]

Reproduces Tables 4.1–4.3 and 4.5–4.7 of Tsafrir's thesis on the sane
CTC, KTH, SDSC-SP2 and SDSC-BLUE logs and prints them as markdown (-json:
the same tables as JSON).

`

// run is the command: it returns the exit status.
func run(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) int {
	o := options{warn: stderr}
	fs := cli.NewFlagSet("tsafrir")
	fs.StringVar(&o.dir, "dir", "", "directory holding the traces (default: ../shared/traces)")
	fs.StringVar(&o.only, "logs", "", "comma-separated subset of SDSC,CTC,KTH,BLUE")
	fs.StringVar(&o.plotDir, "plot", "", "directory to write Table 4.3 as a bar figure to (table43.png, table43.svg)")
	fs.BoolVar(&o.perEvent, "per-event", true, "one scheduling pass per event, as the thesis's simulator (false: one per timestamp, S1)")
	fs.BoolVar(&o.easyPred, "easypred", false, "also run the EASY_PRED experiment on KTH and BLUE (178 more simulations)")
	asJSON := cli.JSONFlag(fs)
	bar := cli.ProgressFlag(fs, stderr)
	err := cli.ParseFlags(fs, args, usage, stdout)
	if cli.ProgressOn(fs, bar, *asJSON) {
		o.progress = stderr
	}
	if err == nil {
		err = checkLogs(o.only)
	}
	if err == nil && o.easyPred && o.only != "" && !slices.ContainsFunc(strings.Split(o.only, ","), func(n string) bool {
		return slices.Contains(expLogs, strings.ToUpper(n))
	}) {
		// (It ran none of the experiment, and its section was left
		// out without a word.)
		err = cli.Usagef("-easypred runs on %s: -logs %s has neither", strings.Join(expLogs, " and "), o.only)
	}
	if err == nil && o.dir != "" {
		err = cli.TraceDir("-dir", o.dir)
	}
	if err == nil {
		err = cli.OutputDir("-plot", o.plotDir)
	}
	if err == nil {
		w, flush := cli.Output(stdout, *asJSON)
		if err = reproduce(ctx, w, o); err == nil {
			err = flush()
		}
	}
	return cli.Status("tsafrir", stderr, err)
}

// checkLogs reads -logs: every name one of the four logs', else a usage
// error (-logs FOO exited 1; -logs SDSC,FOO ran SDSC without a word).
func checkLogs(only string) error {
	if only == "" {
		return nil
	}
	for name := range strings.SplitSeq(only, ",") {
		if !slices.ContainsFunc(logs, func(l logSpec) bool { return l.Name == strings.ToUpper(name) }) {
			return cli.Usagef("-logs: unknown log %q (want some of SDSC,CTC,KTH,BLUE)", name)
		}
	}
	return nil
}

// report is everything the command prints.
type report struct {
	perEvent bool
	logs     []*logData
	main     []outcome // allVariants and predVariants in the chosen mode
	other    []outcome // allVariants in the other mode
	blue     []outcome // allVariants on SDSC-BLUE's thesis job set, chosen mode
	exp      []expRow  // the EASY_PRED experiment, if run
}

func compute(ctx context.Context, o options) (*report, error) {
	var sel []logSpec
	for _, l := range logs {
		if o.only == "" || strings.Contains(","+strings.ToUpper(o.only)+",", ","+l.Name+",") {
			sel = append(sel, l)
		}
	}
	if len(sel) == 0 {
		return nil, fmt.Errorf("no log selected by %q (want some of SDSC,CTC,KTH,BLUE)", o.only)
	}
	r := &report{perEvent: o.perEvent}
	if o.progress != nil {
		// Weights: reading 0.5, the main variants 1.5, the other mode 1
		// and SDSC-BLUE's thesis job set 1 per log; EASY_PRED 4.
		total := 4 * float64(len(sel))
		if o.easyPred {
			total += 4
		}
		o.bar = progress.New(o.progress, true, total)
		defer o.bar.Done()
	}
	for _, l := range sel {
		o.stage(l.Name+" read", 0.5)
		path, err := locate(o.dir, l.File)
		if err != nil {
			return nil, err
		}
		d, err := readLog(path, l)
		if err != nil {
			return nil, err
		}
		if n := len(d.jobs) - d.sane; n > 0 && o.warn != nil {
			fmt.Fprintf(o.warn, "tsafrir: %s: %d of %d records not sane: %s\n", l.File, n, len(d.jobs), cli.Reasons(d.notSane))
		}
		r.logs = append(r.logs, d)
		o.stage(l.Name+" variants", 1.5)
		out, rej, err := runVariants(ctx, l, d.jobs, append(append([]string{}, allVariants...), predVariants[1:]...), o.perEvent, nil)
		if err != nil {
			return nil, err
		}
		d.noteRefused(rej)
		r.main = append(r.main, out...)
		o.stage(l.Name+" other mode", 1)
		if out, _, err = runVariants(ctx, l, d.jobs, allVariants, !o.perEvent, nil); err != nil {
			return nil, err
		}
		r.other = append(r.other, out...)
		o.stage(l.Name+" thesis job set", 1)
		if d.alloc != d.sane {
			if out, _, err = runVariants(ctx, l, thesisJobSet(d.jobs), allVariants, o.perEvent, nil); err != nil {
				return nil, err
			}
			r.blue = append(r.blue, out...)
		}
	}
	if o.easyPred {
		o.stage("EASY_PRED", 4)
		var err error
		if r.exp, err = easyPredExperiment(ctx, r.logs); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func mode(perEvent bool) string {
	if perEvent {
		return "per-event passes"
	}
	return "one pass per timestamp batch"
}

// A section is one part of the output; README.md holds each as the
// generated region of the same name (readme_test.go).
type section struct {
	name  string
	title string // printed before the section on the command's output
	write func(io.Writer)
}

func (r *report) sections() []section {
	s := []section{
		{"jobsets", "## The logs", func(w io.Writer) { writeJobSets(w, r.logs) }},
		{"tables", "## Tables 4.1, 4.2, 4.3, 4.7 (" + mode(r.perEvent) + ")", func(w io.Writer) { writeTables(w, r.main) }},
		{"gaps", "### Gaps (" + mode(r.perEvent) + ")", func(w io.Writer) { writeGaps(w, r.main) }},
		{"gaps-other", "### Gaps (" + mode(!r.perEvent) + ")", func(w io.Writer) { writeGaps(w, r.other) }},
		{"predictability", "## Predictability (" + mode(r.perEvent) + ")", func(w io.Writer) { writePredictability(w, r.main) }},
	}
	if len(r.blue) > 0 {
		s = append(s, section{"blue-thesis-jobs", "## SDSC-BLUE with the thesis's job set (" + mode(r.perEvent) + ")", func(w io.Writer) { writeThesisJobSet(w, r) }})
	}
	if len(r.exp) > 0 {
		s = append(s, section{"easy-pred", "## The EASY_PRED experiment", func(w io.Writer) { writeEasyPred(w, r.exp) }})
	}
	return s
}

// text is a section's output with exactly one final newline, as a README
// region holds it.
func (s section) text() []byte {
	var b bytes.Buffer
	s.write(&b)
	return append(bytes.TrimRight(b.Bytes(), "\n"), '\n')
}

// reproduce computes the tables and prints them on w.
func reproduce(ctx context.Context, w io.Writer, o options) error {
	r, err := compute(ctx, o)
	if err != nil {
		return err
	}
	for _, s := range r.sections() {
		fmt.Fprintf(w, "%s\n\n%s\n", s.title, s.text())
	}
	if o.plotDir != "" {
		files, err := plotTable43(o.plotDir, r.main)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Figure: %s\n", strings.Join(files, ", "))
	}
	return nil
}

// plotTable43 draws Table 4.3 (EASY, EASY+, EASY++, PERFECT++; the thesis
// prints EASY_SJBF there too, left out to keep the bars readable since
// EASY++ is EASY+ with SJBF) per log, the thesis's values as markers.
func plotTable43(dir string, res []outcome) ([]string, error) {
	var rs []figures.SchedResult
	for _, l := range logs {
		for _, v := range []string{"EASY", "EASY+", "EASY++", "PERFECT++"} {
			s, ok := find(res, l.Name, v)
			if !ok {
				continue
			}
			p := paper[l.Name][v]
			rs = append(rs, fromlib.SchedResult(l.Name, v, s, fromlib.Paper{Wait: 60 * p.Wait, BSLD: p.BSLD}))
		}
	}
	return figures.Schedulers(dir, "table43", "Tsafrir's Table 4.3: ours (bars) and the thesis (rings)", rs)
}

// writeThesisJobSet prints every variant on SDSC-BLUE with the sane
// predicate's job set and with the thesis's (allocated size only).
func writeThesisJobSet(w io.Writer, r *report) {
	fmt.Fprintln(w, "Cells: ours (thesis).")
	fmt.Fprintln(w)
	writeHeader(w, "job set", allVariants)
	for _, set := range []struct {
		name string
		res  []outcome
	}{{"sane (S5 size fallback)", r.main}, {"allocated size only", r.blue}} {
		for _, m := range metrics {
			fmt.Fprintf(w, "| %s | %s |", set.name, m.name)
			for _, v := range allVariants {
				s, _ := find(set.res, "BLUE", v)
				theirs, _ := m.paper("BLUE", v)
				fmt.Fprintf(w, " %s (%s) |", m.format(m.ours(s)), m.format(theirs))
			}
			fmt.Fprintln(w)
		}
	}
	var closer, further, same int
	for _, m := range metrics {
		for _, v := range allVariants {
			a, _ := find(r.main, "BLUE", v)
			b, _ := find(r.blue, "BLUE", v)
			theirs, _ := m.paper("BLUE", v)
			da, db := math.Abs(m.ours(a)-theirs), math.Abs(m.ours(b)-theirs)
			switch {
			case m.format(m.ours(a)) == m.format(m.ours(b)):
				same++
			case db < da:
				closer++
			default:
				further++
			}
		}
	}
	fmt.Fprintf(w, "\nWith the thesis's job set %d of the %d cells are closer to the thesis, %d further, %d unchanged as printed.\n", closer, closer+further+same, further, same)
}

func locate(dir, file string) (string, error) {
	if dir != "" {
		return filepath.Join(dir, file), nil
	}
	return tracetest.Find(file)
}
