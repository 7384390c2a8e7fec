// Command varq reruns the VARQ generality simulation of Nurmi's thesis
// (§5.4, Table 5.6) on Parallel Workloads Archive logs: a fraction of the
// jobs become virtual advance reservations for start times every 6 h,
// planned by VARQ over QBETS predictions fed by the simulated queue itself,
// on an EASY-backfilling simulation of the machine at its real size.
//
//	go run ./examples/varq                        # SDSC-BLUE and CTC-SP2, all nine cells each
//	go run ./examples/varq -trace x.swf.gz -jobs 50000
//
// For each (fraction of VARQ jobs, target probability) it prints the mean
// predicted probability, the achieved success fraction, the accepted count
// and the used/required allocation ratio, beside the thesis's cell. See
// README.md for the results and the gaps.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/batchq/batchq/internal/tracetest"
)

func main() {
	traces := flag.String("trace", "", "comma-separated SWF traces (default: SDSC-BLUE and CTC-SP2 from ../shared/traces)")
	jobs := flag.Int("jobs", 0, "use only the first n sane jobs of each trace (0: all)")
	seed := flag.Uint64("seed", 1, "seed of the VARQ job selection")
	every := flag.Int64("every", 0, "re-plan every n seconds while waiting (0: only at the planned submission)")
	flag.Parse()
	paths, err := tracePaths(*traces)
	if err == nil {
		err = run(os.Stdout, options{paths: paths, jobs: *jobs, seed: *seed, every: *every, progress: os.Stderr})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "varq:", err)
		os.Exit(1)
	}
}

func tracePaths(flagValue string) ([]string, error) {
	if flagValue != "" {
		return strings.Split(flagValue, ","), nil
	}
	var paths []string
	for _, name := range []string{tracetest.SDSCBlue, tracetest.CTC} {
		p, err := tracetest.Find(name)
		if err != nil {
			return nil, fmt.Errorf("%s not found (give -trace): %w", name, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

type options struct {
	paths    []string
	jobs     int
	seed     uint64
	every    int64
	progress io.Writer // nil: quiet
	// fractions and targets default to the thesis's.
	fractions, targets []float64
}
