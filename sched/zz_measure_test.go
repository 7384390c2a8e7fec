package sched_test

import (
	"context"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func TestZZMeasure(t *testing.T) {
	for _, tc := range []struct {
		trace, short string
	}{{tracetest.KTH, "KTH-SP2-1996-2.1-cln"}, {tracetest.SDSCSP2, "SDSC-SP2-1998-4.2-cln"},
		{tracetest.NASA, "NASA-iPSC-1993-3.1-cln"}, {tracetest.SDSCPar, "SDSC-Par-1996-3.1-cln"},
		{tracetest.OSC, "OSC-Clust-2000-3.1-cln"}, {tracetest.LLNL, "LLNL-Atlas-2006-2.1-cln"},
		{tracetest.LANLCM5, "LANL-CM5-1994-4.1-cln"}} {
		h, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
		if err != nil {
			t.Fatal(err)
		}
		P, _ := h.MachineSize()
		_, rj, err := swf.ReadFile(tracetest.ReferencePath(t, "predictsim-easy-"+tc.short+".swf.gz"))
		if err != nil {
			t.Fatal(err)
		}
		ref := map[int64]swf.Job{}
		for _, j := range rj {
			ref[j.ID] = j
		}
		t0 := time.Now()
		res, err := sched.Run(context.Background(), sched.EASY(P).WithPeer(sched.PeerPredictsim), jobs)
		if err != nil {
			t.Fatal(err)
		}
		var wait, run, est, procs, sub, all, missing int
		shown := 0
		for _, r := range res.Records {
			p, ok := ref[r.Job.ID]
			if !ok {
				missing++
				continue
			}
			a, b, c, d, e := p.Wait == r.Wait, p.RunTime == r.RunTime, p.ReqTime == r.Estimate, p.AllocProcs == r.Size, p.Submit == r.Job.Submit
			if a {
				wait++
			}
			if b {
				run++
			}
			if c {
				est++
			}
			if d {
				procs++
			}
			if e {
				sub++
			}
			if a && b && c && d && e {
				all++
			} else if shown < 3 {
				shown++
				t.Logf("  job %d: ours submit %d wait %d run %d est %d procs %d; peer %d %d %d %d %d; line %v", r.Job.ID, r.Job.Submit, r.Wait, r.RunTime, r.Estimate, r.Size, p.Submit, p.Wait, p.RunTime, p.ReqTime, p.AllocProcs, *r.Job)
			}
		}
		n := float64(len(ref)) / 100
		t.Logf("%s P=%d: ref %d, lines %d, ours %d (missing in ref %d) %v: all %.4f%% wait %.4f%% run %.4f%% est %.4f%% procs %.4f%% submit %.4f%%",
			tc.short, P, len(ref), len(jobs), len(res.Records), missing, time.Since(t0), float64(all)/n, float64(wait)/n, float64(run)/n, float64(est)/n, float64(procs)/n, float64(sub)/n)
	}
}
