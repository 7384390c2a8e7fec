package synth

import (
	"fmt"
	"math"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// traceStats are the statistics the spec's §10.2 reports for the anchor.
type traceStats struct {
	n                            int
	serial, pow2                 float64 // shares of all jobs (pow2: size ≥ 2)
	size, run, ia, load          float64 // means; load on the header's machine
	sizeSD, runSD, iaSD, maxSize float64
}

func statsOf(jobs []swf.Job, machine int64) traceStats {
	var s traceStats
	s.n = len(jobs)
	var sz, sz2, rn, rn2, ia2, work float64
	for i, j := range jobs {
		n, r := float64(j.AllocProcs), float64(j.RunTime)
		if j.AllocProcs == 1 {
			s.serial++
		} else if j.AllocProcs&(j.AllocProcs-1) == 0 {
			s.pow2++
		}
		sz, sz2, rn, rn2, work = sz+n, sz2+n*n, rn+r, rn2+r*r, work+n*r
		s.maxSize = max(s.maxSize, n)
		if i > 0 {
			d := float64(j.Submit - jobs[i-1].Submit)
			ia2 += d * d
		}
	}
	f := float64(s.n)
	s.serial, s.pow2 = s.serial/f, s.pow2/f
	s.size, s.run = sz/f, rn/f
	s.sizeSD, s.runSD = math.Sqrt(sz2/f-s.size*s.size), math.Sqrt(rn2/f-s.run*s.run)
	span := float64(jobs[len(jobs)-1].Submit - jobs[0].Submit)
	s.ia = span / (f - 1)
	s.iaSD = math.Sqrt(ia2/(f-1) - s.ia*s.ia)
	s.load = work / (float64(machine) * float64(jobs[len(jobs)-1].Submit))
	return s
}

// The Lublin 256-node log made by the C (typeless mode, UHI 8, UMED 5.5)
// against 10^6 jobs of ours with the same setting (Machine 256, Typeless).
// The anchor has 10^4 jobs, so its statistics carry sampling error: each is
// required within 3 standard errors of ours (SE = our SD/√10^4); the mean
// inter-arrival and the load are logged only (heavy tail, and the spec finds
// the anchor's IA ~2 SE low).
func TestLublinAnchor(t *testing.T) {
	path := tracetest.Path(t, tracetest.Lublin)
	_, anchorJobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := statsOf(anchorJobs, 256)
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	g, err := New(Config{Machine: 256, Typeless: true, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	jobs, _ := g.Jobs(n)
	o := statsOf(jobs, 256)
	k := math.Sqrt(float64(a.n))
	check := func(name string, anchor, ours, se float64, assert bool) {
		line := fmt.Sprintf("%-22s anchor %10.4g  ours %10.4g  (anchor SE %.3g)", name, anchor, ours, se)
		if assert && math.Abs(anchor-ours) > 3*se {
			t.Errorf("%s: beyond 3 SE", line)
		} else {
			t.Log(line)
		}
	}
	check("serial share", a.serial, o.serial, math.Sqrt(o.serial*(1-o.serial))/k, true)
	check("pow2 (≥2) share", a.pow2, o.pow2, math.Sqrt(o.pow2*(1-o.pow2))/k, true)
	check("mean size", a.size, o.size, o.sizeSD/k, true)
	check("max size", a.maxSize, o.maxSize, 0, true)
	check("mean run time, s", a.run, o.run, o.runSD/k, true)
	check("mean inter-arrival, s", a.ia, o.ia, o.iaSD/k, false)
	check("load on 256", a.load, o.load, 0, false)
}
