package synth

import (
	"fmt"
	"io"
	"slices"

	"github.com/batchq/batchq/swf"
)

// minEstimateJobs is the fewest jobs Jobs gives a Config.Estimator (the
// parallelworkloads wrapper's limit for the modal model: below it the model
// has no tail).
const minEstimateJobs = 200

// Jobs returns the next n jobs; with a Config.Estimator field 9 holds its
// estimates (jobs whose estimate is below their run time are counted in
// ShortEstimates; the modal model gives one only when it leaves no legal
// estimate).
func (g *Generator) Jobs(n int) ([]swf.Job, error) {
	if n <= 0 || n > maxJobs {
		return nil, fmt.Errorf("synth: %d jobs requested, need 1 to %d (they are held in memory; call Next to stream more)", n, maxJobs)
	}
	if g.cfg.Estimator != nil && n < minEstimateJobs {
		return nil, fmt.Errorf("synth: model estimates need at least %d jobs, asked for %d", minEstimateJobs, n)
	}
	jobs := make([]swf.Job, n)
	for i := range jobs {
		jobs[i] = g.Next()
	}
	if g.cfg.Estimator != nil {
		if err := g.assignEstimates(jobs); err != nil {
			return nil, err
		}
	}
	return jobs, nil
}

func (g *Generator) assignEstimates(jobs []swf.Job) error {
	if err := g.cfg.Estimator.Apply(jobs, g.rng); err != nil {
		return err
	}
	for i := range jobs {
		if jobs[i].ReqTime < jobs[i].RunTime {
			g.ShortEstimates++
		}
	}
	return nil
}

// Header returns the SWF header for n jobs: the reference's lines plus
// MaxProcs and a Note naming the model and its settings.
func (g *Generator) Header(n int) *swf.Header {
	mode := "typed (batch queue 1, interactive queue 0)"
	if g.cfg.Typeless {
		mode = "typeless"
	}
	p := g.s
	note := fmt.Sprintf("Lublin-Feitelson 2003 rigid-job model (Lublin99), %s, seed %d, start hour %d, arrival shape scale %.6g, model offered load %.4f",
		mode, g.cfg.Seed, g.cfg.StartHour, g.scale, offeredLoad([2]TypeParams{p[0].p, p[1].p}, g.cfg.Typeless, g.machine, g.scale))
	notes := []string{note}
	for t, name := range []string{"interactive", "batch"} {
		if g.cfg.Typeless && t == batchType {
			break
		}
		if g.cfg.Typeless {
			name = "whole"
		}
		q := p[t].p
		notes = append(notes, fmt.Sprintf("%s: serial %g pow2 %g ulow %g umed %g uhi %g uprob %g a1 %g b1 %g a2 %g b2 %g pa %g pb %g aarr %g barr %g arar %g anum %g bnum %g",
			name, q.SerialProb, q.Pow2Prob, q.ULow, q.UMed, q.UHi, q.UProb, q.A1, q.B1, q.A2, q.B2, q.PA, q.PB, q.AArr, q.BArr, q.ARAR, q.ANum, q.BNum))
	}
	if e := g.cfg.Estimator; e != nil {
		name := fmt.Sprintf("%T", e)
		if s, ok := e.(fmt.Stringer); ok {
			name = s.String()
		}
		notes = append(notes, "field 9: "+name)
	}
	return &swf.Header{
		Version:     "2",
		Acknowledge: "Uri Lublin, Hebrew University",
		Information: []string{"http://www.cs.huji.ac.il/labs/parallel/workload"},
		MaxJobs:     int64(n), MaxRecords: int64(n),
		MaxNodes: g.machine, MaxProcs: g.machine, MaxRuntime: maxRuntime,
		Note: slices.Clip(notes),
	}
}

// WriteSWF writes a header and the next n jobs to w. Without a
// Config.Estimator the jobs are written as they are drawn, in constant
// memory (the same bytes as Jobs then swf.WriteAll: 10^8 jobs held ~15 GB
// first); an estimator needs them all at once.
func (g *Generator) WriteSWF(w io.Writer, n int) error {
	if g.cfg.Estimator != nil {
		jobs, err := g.Jobs(n)
		if err != nil {
			return err
		}
		return swf.WriteAll(w, g.Header(n), jobs)
	}
	if n <= 0 || n > maxJobs {
		return fmt.Errorf("synth: %d jobs requested, need 1 to %d", n, maxJobs)
	}
	sw := swf.NewWriter(w)
	if err := sw.WriteHeader(g.Header(n)); err != nil {
		return err
	}
	for range n {
		j := g.Next()
		if err := sw.Write(&j); err != nil {
			return err
		}
	}
	return sw.Flush()
}
