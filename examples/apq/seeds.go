package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"

	"github.com/batchq/batchq/internal/interval"
	"github.com/batchq/batchq/varq/molding"
)

// The seed sweep (table SEEDS, on request only): Tables VIII–IX's
// strategies over -nseeds seeds from -seed on. The seed draws the molded
// jobs' roulette-wheel runtimes (§VI-C), so each seed is another workload
// after molding, and one run per log (the paper's) says nothing about how
// far another draw would land (SDSC Paragon swung from −14% to +69% this
// way before molded runtimes were limited on logs without estimates). The
// baseline does not depend on the seed.

func init() {
	tables["SEEDS"] = tableSeeds
	onRequest["SEEDS"] = true
}

// sweepColumn is one strategy of the sweep: which table's window it runs
// in and how it is set up.
type sweepColumn struct {
	name   string
	window int // treated jobs after the 10,000 history jobs
	s      string
	head   bool
}

var sweepColumns = []sweepColumn{
	{"VIII molding", table8Window, "molding", false},
	{"IX molding alone", table9Window, "molding", false},
	{"IX delayed (paper's hold queue)", table9Window, "delayed", false},
	{"IX delayed, head held alone", table9Window, "delayed", true},
}

func tableSeeds(w io.Writer, e *env) error {
	method := "the size-aware wait (-floor " + e.Floor + ", NOT the paper's)"
	if e.Floor == floorOff {
		method = "the paper's method (APQ alone)"
	}
	fmt.Fprintf(w, "Response change against the baseline over %d seeds (%d..%d), %s; mean ± 95%% t-interval over seeds, worst seed, seeds above the baseline.\n",
		e.Seeds, e.Seed, e.Seed+uint64(e.Seeds)-1, method)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | strategy | baseline resp (min) | per seed | mean change | worst | seeds worse than baseline |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, tr := range e.Traces {
		set, err := newStrategySetup(e, tr)
		if err != nil {
			return err
		}
		bases := map[int]*molding.StrategyResult{} // by window
		for _, col := range sweepColumns {
			cfg := func(s string, seed uint64) molding.StrategyConfig {
				return set.config(s, col.window, seed, false, col.head)
			}
			win := cfg("baseline", e.Seed).Window
			if bases[win] == nil {
				b, err := runStrategy(e, tr, cfg("baseline", e.Seed), floorOff)
				if err != nil {
					return err
				}
				bases[win] = b.res
			}
			changes, err := sweepSeeds(e, func(seed uint64) (float64, error) {
				r, err := runStrategy(e, tr, cfg(col.s, seed), e.Floor)
				if err != nil {
					return 0, err
				}
				return change(bases[win], r.res), nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "| %s | %s | %.1f | %s | %s | %+.1f%% | %d of %d |\n", tr.Name, col.name, bases[win].MeanResp/60,
				perSeed(changes), meanCI(changes), worst(changes), above(changes), len(changes))
		}
	}
	return nil
}

// Bounds of -nseeds and -par.
const maxSeeds, maxPar = 10000, 4096

// sweepSeeds runs one simulation per seed, e.Par at a time, and returns
// their results in seed order, with every error joined. e.Par goroutines
// take the seeds in turn: a goroutine a seed, let in when the one before
// gave its slot back, overlapped that one's exit, so that more than e.Par
// existed at once.
func sweepSeeds(e *env, run func(seed uint64) (float64, error)) ([]float64, error) {
	out := make([]float64, e.Seeds)
	errs := make([]error, e.Seeds)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(e.Par, 1), e.Seeds) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(out) {
					return
				}
				out[i], errs[i] = run(e.Seed + uint64(i))
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func perSeed(xs []float64) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%+.0f", x)
	}
	return s + " %"
}

// meanCI is the mean with the half-width of its 95% Student-t interval.
func meanCI(xs []float64) string {
	m, half := interval.Mean95(xs)
	if math.IsNaN(half) {
		return fmt.Sprintf("%+.1f%%", m)
	}
	return fmt.Sprintf("%+.1f%% ± %.1f", m, half)
}

func worst(xs []float64) float64 {
	w := math.Inf(-1)
	for _, x := range xs {
		w = max(w, x)
	}
	return w
}

func above(xs []float64) int {
	n := 0
	for _, x := range xs {
		if x > 0 {
			n++
		}
	}
	return n
}
