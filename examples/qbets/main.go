// Command qbets replays every trace with waits through the QBETS binomial
// method, per queue (SWF field 15), without trimming (Table 4.1 shape,
// full history) and with trimming (Table 4.2 shape), and prints markdown
// tables (Nurmi's thesis §4.3; spec qbets-varq-coalloc §5.1, §6.2–6.3).
// The comparators and clustering/availability columns are not run yet.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

func main() {
	dir := flag.String("traces", "/work/shared/traces", "directory of SWF logs")
	minJobs := flag.Int("min", 1000, "skip queues with fewer jobs (counted)")
	flag.Parse()
	if err := run(os.Stdout, *dir, *minJobs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer, dir string, minJobs int) error {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.swf*"))
	slices.Sort(paths)
	fmt.Fprintln(w, "| trace/queue | jobs | BM full history | RMS (s) | BM trimmed | RMS (s) | change points | no prediction |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	small := 0
	for _, p := range paths {
		_, jobs, err := swf.ReadFile(p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		byQ, skipped := replay.Queues(jobs)
		if skipped == len(jobs) {
			fmt.Fprintf(w, "| %s | %d | no waits | | | | | |\n", filepath.Base(p), len(jobs))
			continue
		}
		qs := make([]int64, 0, len(byQ))
		for q := range byQ {
			qs = append(qs, q)
		}
		slices.Sort(qs)
		for _, q := range qs {
			js := byQ[q]
			if len(js) < minJobs {
				small++
				continue
			}
			full, err := replay.Replay(js, replay.Config{Predictor: qbets.Config{NoTrim: true}})
			if err != nil {
				return err
			}
			trim, _ := replay.Replay(js, replay.Config{})
			fmt.Fprintf(w, "| %s/%d | %d | %.3f | %.0f | %.3f | %.0f | %d | %d |\n", filepath.Base(p), q, len(js),
				full.Correctness(), full.RMS, trim.Correctness(), trim.RMS, trim.ChangePoints, trim.NoPrediction)
		}
	}
	fmt.Fprintf(w, "\n%d queues with fewer than %d jobs skipped.\n", small, minJobs)
	return nil
}
