// Command coalloc reruns the CO-VARQ trials of Nurmi's thesis (§5.5,
// Table 6.2) on simulated machines: several Parallel Workloads Archive
// logs, each on an EASY simulation of its machine, shifted to start
// together and advanced in lockstep; QBETS on each machine is fed by its
// own simulated queue. For each trial (N, W, D, P_all) CO-VARQ is called
// every D+W (10 min later after a refusal), its plan is executed with
// redundant requests cancelled, and success and over-allocation are
// recorded.
//
//	go run ./examples/coalloc                 # five machines, 120 days
//	go run ./examples/coalloc -days 30 -count 3
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/batchq/batchq/internal/tracetest"
)

var defaultMachines = []string{tracetest.SDSCBlue, tracetest.CTC, tracetest.SDSCSP2, tracetest.KTH, tracetest.LANLCM5}

func main() {
	traces := flag.String("trace", "", "comma-separated SWF traces, one per machine (default: SDSC-BLUE, CTC-SP2, SDSC-SP2, KTH-SP2, LANL-CM5)")
	days := flag.Int64("days", 120, "simulated days of co-allocation requests")
	count := flag.Int("count", 2, "reservations per co-allocation (the thesis does not report it; Figure 6.1 has 2)")
	step := flag.Int64("step", 10, "lockstep granularity of the machines, seconds")
	diag := flag.Bool("diag", false, "print, per trial and site, the promised and achieved probability of the reservations served by one request (stderr)")
	flag.Parse()
	var paths []string
	if *traces != "" {
		paths = strings.Split(*traces, ",")
	} else {
		for _, name := range defaultMachines {
			p, err := tracetest.Find(name)
			if err != nil {
				fmt.Fprintf(os.Stderr, "coalloc: %s not found (give -trace): %v\n", name, err)
				os.Exit(1)
			}
			paths = append(paths, p)
		}
	}
	opt := options{paths: paths, days: *days, count: *count, step: *step, progress: os.Stderr}
	if *diag {
		opt.diag = os.Stderr
	}
	if err := run(os.Stdout, opt); err != nil {
		fmt.Fprintln(os.Stderr, "coalloc:", err)
		os.Exit(1)
	}
}

type options struct {
	paths    []string
	days     int64
	count    int
	step     int64
	progress io.Writer
	diag     io.Writer // nil: no per-site diagnosis
	trials   []trial   // default table62
}
