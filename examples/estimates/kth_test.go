package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/batchq/batchq/estmodel"
)

// The whole KTH log under the modal model (README, "The whole KTH log"):
// with E_max 60 h and few jobs at it, the model rarely has enough long
// values for KTH's weekend jobs, the pairing leaves some of them with a
// short estimate, and those jobs, running up to 60 h past it, raise EASY's
// wait. kthDiagnosis measures each step of that argument.
type kthDiagnosis struct {
	seeds                 int
	jobs                  int
	eMax                  int64
	atEMax                int // jobs whose estimate is exactly E_max
	over59h, over50h      int // jobs running longer than 59 h, 50 h
	lv                    *logValidation
	clipped, clippedMAD   float64 // model wait with estimates above 4 h clipped to max(4 h, r)
	logAbove15h           float64 // % of the log's estimates above 15 h
	modelAbove15h         float64 // % of the model's, mean over seeds
	remedyShare           float64 // % of jobs running more than 50 h, given to E_max
	remedyShort           int     // seeds that still pair illegally with it
	vanl, vanlLegal, shfl outcome
}

// diagnoseKTH runs the diagnosis with seeds seeds of the vanilla model.
func diagnoseKTH(ctx context.Context, seeds int, easy easyFunc) (*kthDiagnosis, error) {
	o := options{seeds: seeds, fSeeds: 1, workers: 2, legal: true}
	lv, err := validateLog(ctx, "kth", o, easy, nil)
	if err != nil {
		return nil, err
	}
	tr, err := loadTrace("kth", 0, false)
	if err != nil {
		return nil, err
	}
	jobs, procs := tr.jobs, tr.procs
	d := &kthDiagnosis{seeds: seeds, jobs: len(jobs), eMax: lv.set.EMax, lv: lv}
	d.vanl, _ = lv.row("model (vanl)")
	d.vanlLegal, _ = lv.row("model (vanl) legal")
	d.shfl, _ = lv.row("shfl")
	above15 := func(e int64) bool { return e > 15*3600 }
	for i := range jobs {
		if jobs[i].ReqTime == d.eMax {
			d.atEMax++
		}
		if above15(jobs[i].ReqTime) {
			d.logAbove15h++
		}
		if jobs[i].RunTime > 59*3600 {
			d.over59h++
		}
		if jobs[i].RunTime > 50*3600 {
			d.over50h++
		}
	}
	d.logAbove15h = 100 * d.logAbove15h / float64(len(jobs))
	fillMissing(jobs, d.eMax)
	// The same draws as the validation's vanilla rows (stream "model (vanl)").
	draw := func(s int, bins []estmodel.UserBin) ([]int64, estmodel.AssignReport, error) {
		w := slices.Clone(jobs)
		rng := rand.New(rand.NewPCG(uint64(s), nameHash("model (vanl)")))
		dist, err := estmodel.Generate(estmodel.ModalConfig{N: len(w), EMax: d.eMax, Bins: bins}, rng)
		if err != nil {
			return nil, estmodel.AssignReport{}, err
		}
		rep, err := dist.Assign(w, estmodel.AssignConfig{}, rng)
		return estimates(w), rep, err
	}
	var clipped []float64
	for s := range seeds {
		est, _, err := draw(s, lv.set.Bins)
		if err != nil {
			return nil, err
		}
		w := slices.Clone(jobs)
		n := 0
		for i := range w {
			w[i].ReqTime = est[i]
			if above15(est[i]) {
				n++
			}
			if w[i].ReqTime > 4*3600 {
				w[i].ReqTime = max(4*3600, w[i].RunTime)
			}
		}
		d.modelAbove15h += 100 * float64(n) / float64(len(w)) / float64(seeds)
		wait, _, err := easy(ctx, w, procs)
		if err != nil {
			return nil, err
		}
		clipped = append(clipped, wait)
	}
	d.clipped, d.clippedMAD = meanMAD(clipped)
	// The reference code's remedy (§7.9 step 4: supply a larger E_max share):
	// the share of the jobs that run more than 50 h, at E_max.
	d.remedyShare = 100 * float64(d.over50h) / float64(len(jobs))
	for s := range seeds {
		if _, rep, err := draw(s, []estmodel.UserBin{{Time: d.eMax, Percent: d.remedyShare}}); err != nil {
			return nil, err
		} else if rep.Short > 0 {
			d.remedyShort++
		}
	}
	return d, nil
}

func (d *kthDiagnosis) write(w io.Writer) {
	pct := func(n int) string { return fmt.Sprintf("%d (%.2f%%)", n, 100*float64(n)/float64(d.jobs)) }
	rel := func(x float64) string { return fmt.Sprintf("%.1f min (%+.0f%% vs real)", x, 100*(x/d.lv.real.wait-1)) }
	fmt.Fprintf(w, "The whole KTH log, %d sane jobs, E_max %s; %d seeds of the vanilla model (the validation's first %d draws).\n\n", d.jobs, hms(d.eMax), d.seeds, d.seeds)
	fmt.Fprintln(w, "| quantity | value |")
	fmt.Fprintln(w, "|---|---|")
	fmt.Fprintf(w, "| jobs with estimate exactly E_max | %s |\n", pct(d.atEMax))
	fmt.Fprintf(w, "| jobs running longer than 59 h / 50 h | %d / %d |\n", d.over59h, d.over50h)
	fmt.Fprintf(w, "| EASY wait, real estimates | %.1f min |\n", d.lv.real.wait)
	fmt.Fprintf(w, "| vanilla model: runs pairing some job illegally | %d of %d, %.1f jobs per run, overrun up to %.1f h |\n", d.vanl.shortRuns, d.seeds, d.vanl.shortJobs, float64(d.vanl.maxOverrun)/3600)
	fmt.Fprintf(w, "| vanilla model: EASY wait ± MAD | %s ± %.1f |\n", rel(d.vanl.wait), d.vanl.waitMAD)
	fmt.Fprintf(w, "| the same draws, short jobs given e = r (legal) | %s ± %.1f |\n", rel(d.vanlLegal.wait), d.vanlLegal.waitMAD)
	fmt.Fprintf(w, "| shfl | %s ± %.1f |\n", rel(d.shfl.wait), d.shfl.waitMAD)
	fmt.Fprintf(w, "| the same draws, every estimate above 4 h clipped to max(4 h, r) | %s ± %.1f |\n", rel(d.clipped), d.clippedMAD)
	fmt.Fprintf(w, "| estimates above 15 h: log / model | %.1f%% / %.1f%% |\n", d.logAbove15h, d.modelAbove15h)
	fmt.Fprintf(w, "| E_max share raised to the jobs running > 50 h (%.2f%%): runs pairing illegally | %d of %d |\n", d.remedyShare, d.remedyShort, d.seeds)
}
