// Command coalloc reruns the CO-VARQ trials of Nurmi's thesis (§5.5,
// Table 6.2) on simulated machines: several Parallel Workloads Archive
// logs, each on an EASY simulation of its machine, shifted to start
// together and advanced in lockstep; QBETS on each machine is fed by its
// own simulated queue. For each trial (N, W, D, P_all) CO-VARQ is called
// every D+W (10 min later after a refusal), its plan is executed with
// redundant requests cancelled, and success and over-allocation are
// recorded.
//
// By default both remedies of README.md are on: each request is planned
// at the latest point meeting P_indep instead of its trajectory maximum,
// and the executor re-boosts a reservation whose live forecasts fell below
// P_indep. -remedy none is the thesis's procedure.
//
//	go run ./examples/coalloc                 # five machines, 120 days, both remedies
//	go run ./examples/coalloc -remedy none    # the thesis's plan, executed as made
//	go run ./examples/coalloc -days 30 -count 3
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/batchq/batchq/coalloc"
	"github.com/batchq/batchq/internal/tracetest"
)

var defaultMachines = []string{tracetest.SDSCBlue, tracetest.CTC, tracetest.SDSCSP2, tracetest.KTH, tracetest.LANLCM5}

func main() {
	traces := flag.String("trace", "", "comma-separated SWF traces, one per machine (default: SDSC-BLUE, CTC-SP2, SDSC-SP2, KTH-SP2, LANL-CM5)")
	days := flag.Int64("days", 120, "simulated days of co-allocation requests")
	count := flag.Int("count", 2, "reservations per co-allocation (the thesis does not report it; Figure 6.1 has 2)")
	step := flag.Int64("step", 10, "lockstep granularity of the machines, seconds")
	remedy := flag.String("remedy", "both", "none (the thesis's plan), reboost (re-plan while executing), latest (plan at the latest point meeting P_indep), or both")
	drop := flag.Bool("drop", false, "with re-boosting, cancel a request whose live probability fell to 0 when its reservation has another chance (coalloc.Config.DropDead)")
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
	plan, err := remedyConfig(*remedy)
	if err != nil {
		fmt.Fprintln(os.Stderr, "coalloc:", err)
		os.Exit(2)
	}
	plan.DropDead = *drop
	opt := options{paths: paths, days: *days, count: *count, step: *step, plan: plan, progress: os.Stderr}
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
	plan     coalloc.Config // the planner's options: which remedies
	progress io.Writer
	diag     io.Writer // nil: no per-site diagnosis
	asked    *int64    // if not nil, counts the forecasts CO-VARQ asks the sites
	trials   []trial   // default table62
}

// remedyConfig maps -remedy to the planner's options.
func remedyConfig(name string) (coalloc.Config, error) {
	switch name {
	case "none":
		return coalloc.Config{}, nil
	case "reboost":
		return coalloc.Config{Reboost: true}, nil
	case "latest":
		return coalloc.Config{LatestMeeting: true}, nil
	case "both":
		return coalloc.Config{Reboost: true, LatestMeeting: true}, nil
	}
	return coalloc.Config{}, fmt.Errorf("-remedy %q: want none, reboost, latest or both", name)
}
