// Command flurries runs the workload-flurry experiments of issue 6 on the
// shared PWA traces (Tsafrir's thesis Ch. 6): detection quality on cleaned
// logs with injected flurries, what the detector finds on the cleaned logs
// and on LANL-CM5, and the butterfly effect on SDSC-SP2. See README.md for
// the recorded results beside the thesis's numbers.
//
//	go run ./examples/flurries                 # everything
//	go run ./examples/flurries -exp inject     # one experiment: native, inject, sweep, lanl, butterfly
//	go run ./examples/flurries -plot docs/figures -exp none   # only the weekly activity figures
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

func main() {
	exp := flag.String("exp", "all", "experiment: all, native, inject, sweep, lanl, butterfly; none (with -plot: figures only)")
	dir := flag.String("traces", "", "traces directory (default: ../shared/traces beside the module)")
	plotFlags()
	bins := flag.String("bins", "", "detector bin widths, comma-separated Go durations (default: week, day, 6 h: 168h,24h,6h)")
	flag.Float64Var(&detector.Factor, "factor", 0, "detector Factor (0 = default 1)")
	flag.Float64Var(&detector.Quantile, "quantile", 0, "detector Quantile (0 = default 0.9)")
	flag.Float64Var(&detector.WeekLift, "weeklift", 0, "detector WeekLift (0 = default 1, negative = off)")
	flag.BoolVar(&saneOnly, "sane", false, "detect on the jobs sanitize.Sane keeps (what a simulator sees), not the whole cleaned log")
	flag.Parse()
	if err := parseBins(*bins); err != nil {
		fmt.Fprintln(os.Stderr, "flurries:", err)
		os.Exit(2)
	}
	if err := detector.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "flurries:", err)
		os.Exit(2)
	}
	if *dir == "" {
		d, err := tracetest.Dir()
		if err != nil {
			fmt.Fprintln(os.Stderr, "flurries:", err)
			os.Exit(1)
		}
		*dir = d
	}
	if plotDir != "" {
		exitOn(plotActivity(os.Stdout, *dir, plotDir, plotLogs))
	}
	if *exp == "none" {
		return
	}
	if err := run(context.Background(), os.Stdout, *dir, *exp); err != nil {
		fmt.Fprintln(os.Stderr, "flurries:", err)
		os.Exit(1)
	}
}

// detector is the configuration every experiment detects with: the
// defaults unless flags change it, so that the trade-offs in README.md can
// be re-run.
var detector sanitize.FlurryConfig

// parseBins reads -bins into detector.Bins.
func parseBins(s string) error {
	if s == "" {
		return nil
	}
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil || d < time.Second {
			return fmt.Errorf("-bins: %q is not a duration of at least 1s (e.g. 168h)", f)
		}
		detector.Bins = append(detector.Bins, int64(d/time.Second))
	}
	return nil
}

// The four Tsafrir logs, cleaned.
var cleaned = []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2, tracetest.SDSCBlue}

// saneOnly (-sane) keeps only the jobs sanitize.Sane keeps, the workload a
// simulation sees; by default the experiments read the whole cleaned log,
// as the thesis's weekly plots do.
var saneOnly bool

func load(dir, name string) ([]swf.Job, error) {
	h, jobs, err := swf.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	if saneOnly {
		size, err := h.MachineSize()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		jobs, _ = sanitize.Sane(jobs, size)
	}
	jobs, _ = sanitize.Reorder(jobs)
	return jobs, nil
}

func run(ctx context.Context, w io.Writer, dir, exp string) error {
	all := exp == "all"
	known := false
	if all || exp == "native" {
		known = true
		if err := nativeExp(w, dir, cleaned); err != nil {
			return err
		}
	}
	if all || exp == "inject" {
		known = true
		if err := injectExp(w, dir, cleaned, []shape{flurry375, flurry375Scaled, multiWeek(2)}); err != nil {
			return err
		}
	}
	if all || exp == "sweep" {
		known = true
		if err := injectExp(w, dir, cleaned, []shape{multiWeek(1), multiWeek(1.5), multiWeek(3)}); err != nil {
			return err
		}
	}
	if all || exp == "lanl" {
		known = true
		if err := nativeExp(w, dir, []string{tracetest.LANLCM5}); err != nil {
			return err
		}
	}
	if all || exp == "butterfly" {
		known = true
		if err := butterflyExp(ctx, w, dir); err != nil {
			return err
		}
	}
	if !known {
		return fmt.Errorf("unknown experiment %q (want all, native, inject, sweep, lanl, butterfly)", exp)
	}
	return nil
}

func injectExp(w io.Writer, dir string, logs []string, shapes []shape) error {
	var scale []string // rows of the week-scale table
	fmt.Fprintln(w, "\n| log | injected flurry | trials | right | recall | precision | min coverage | min week lift | native candidates with week lift ≥ it |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, name := range logs {
		jobs, err := load(dir, name)
		if err != nil {
			return err
		}
		if _, err := injectLog(w, tracetest.ShortName(name), jobs, shapes, detector); err != nil {
			return err
		}
		mj, mp, jx, px := weekScale(jobs, flurry375.spec(0, 0))
		scale = append(scale, fmt.Sprintf("| %s | %.0f / %.0f | %.2f× | %.2f× | %d |", tracetest.ShortName(name), mj, mp, jx, px, flurry375Scaled.spec(mj, mp).Jobs))
	}
	fmt.Fprintf(w, "\nThe %s flurry added to a median week (§8.1 scale: observed flurries are 2×–10×):\n\n", flurry375.name)
	fmt.Fprintln(w, "| log | median week: jobs / processes | week with the flurry: jobs | processes | jobs of the same shape at SDSC-SP2 strength |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	fmt.Fprintln(w, strings.Join(scale, "\n"))
	return nil
}

// nativeExp lists the candidates on uninjected logs.
func nativeExp(w io.Writer, dir string, logs []string) error {
	for _, name := range logs {
		jobs, err := load(dir, name)
		if err != nil {
			return err
		}
		cs, err := sanitize.DetectFlurries(jobs, detector)
		if err != nil {
			return err
		}
		years := float64(jobs[len(jobs)-1].Submit-jobs[0].Submit) / (365.25 * 86400)
		fmt.Fprintf(w, "\n%s: %d jobs, %.2f years, %d candidates (%.1f per year)\n\n", tracetest.ShortName(name), len(jobs), years, len(cs), float64(len(cs))/years)
		printCandidates(w, jobs[0].Submit, cs)
	}
	return nil
}

func printCandidates(w io.Writer, t0 int64, cs sanitize.Candidates) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "| user | day | span h | jobs | share jobs/procs | peak | by | week lift | size (share) | estimate s (share) | median run s (±2×) | filter |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---|---|---|---:|---|---|---|---|")
	for _, c := range cs {
		fmt.Fprintf(w, "| %d | %.1f | %.1f | %d | %.2f / %.2f | %.1f @ %dh | %v | %.2f | %d (%.2f) | %d (%.2f) | %d (%.2f) | `%s` |\n",
			c.User, float64(c.First-t0)/86400, float64(c.Span())/3600, c.Jobs, c.JobShare, c.ProcShare,
			c.Peak, c.PeakBin/3600, c.By, c.WeekLift, c.Size, c.SizeShare, c.ReqTime, c.ReqTimeShare, c.MedianRunTime, c.RunTimeShare,
			strings.SplitN(c.Filter.String(), " #", 2)[0])
	}
}
