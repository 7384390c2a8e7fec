package sched_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// sameFolded fails unless a SummaryOnly result tells what the records
// tell: the Summary bit for bit, the rejections, the jobs per rule.
func sameFolded(t interface {
	Helper()
	Fatalf(string, ...any)
}, what string, full, folded *sched.Result) {
	t.Helper()
	if folded.Records != nil {
		t.Fatalf("%s: SummaryOnly kept %d records", what, len(folded.Records))
	}
	if full.Summary != folded.Summary {
		t.Fatalf("%s: Summary\nrecords     %+v\nSummaryOnly %+v", what, full.Summary, folded.Summary)
	}
	if !reflect.DeepEqual(full.Rejected, folded.Rejected) || full.Rejected.Kept != len(full.Records) {
		t.Fatalf("%s: Rejected %+v (%d records), SummaryOnly %+v", what, full.Rejected, len(full.Records), folded.Rejected)
	}
	if a, b := full.Changed(), folded.Changed(); !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: Changed %v, SummaryOnly %v", what, a, b)
	}
}

// TestSummaryOnlyTraces runs the presets and options over KTH and
// SDSC-SP2 (which has jobs without estimates) both ways, and KTH loaded
// piece by piece as examples/simulate streams it.
func TestSummaryOnlyTraces(t *testing.T) {
	for _, name := range []string{tracetest.KTH, tracetest.SDSCSP2} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		// Configs are made anew for each run: a predictor learns.
		var cfgs []func() sched.Config
		for _, p := range sched.Presets() {
			if name == tracetest.SDSCSP2 && p.Name != "EASY" && p.Name != "EASY++" {
				continue // (their cost; KTH runs them all)
			}
			cfgs = append(cfgs, func() sched.Config { return p.New(128) })
		}
		cfgs = append(cfgs, func() sched.Config {
			c := sched.EASY(128)
			c.KillAtEstimate, c.ShadowTies = true, true
			return c
		}, func() sched.Config { return sched.EASY(128).WithPeer(sched.PeerPyss) },
			func() sched.Config { return sched.EASY(128).WithPeer(sched.PeerPredictsim) })
		for i, mk := range cfgs {
			full, err := sched.Run(context.Background(), mk(), jobs)
			if err != nil {
				t.Fatal(err)
			}
			cfg := mk()
			cfg.SummaryOnly = true
			folded, err := sched.Run(context.Background(), cfg, jobs)
			if err != nil {
				t.Fatal(err)
			}
			sameFolded(t, fmt.Sprintf("%s config %d", name, i), full, folded)
			if name == tracetest.KTH && i == 0 {
				cfg := mk()
				cfg.SummaryOnly = true
				pieces := streamed(t, cfg, jobs, 1000)
				for i := range pieces.Rejected.Excluded { // (Index is the line's in its Load)
					pieces.Rejected.Excluded[i].Index = full.Rejected.Excluded[i].Index
				}
				sameFolded(t, "KTH loaded in pieces", full, pieces)
			}
		}
	}
}

// streamed loads jobs (sorted, with rising IDs) in pieces of n, running
// the simulation up to just before the next piece's first arrival; a piece
// whose jobs have all arrived is spoilt, to check that the simulation
// holds no reference to it.
func streamed(t testing.TB, cfg sched.Config, jobs []swf.Job, n int) *sched.Result {
	s, err := sched.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var loaded [][]swf.Job
	for i := 0; i < len(jobs); i += n {
		piece := append([]swf.Job(nil), jobs[i:min(i+n, len(jobs))]...)
		if err := s.Load(piece); err != nil {
			t.Fatal(err)
		}
		loaded = append(loaded, piece)
		if i+n < len(jobs) {
			now := jobs[i+n].Submit - 1
			if err := s.RunUntil(now); err != nil {
				t.Fatal(err)
			}
			for len(loaded) > 0 && loaded[0][len(loaded[0])-1].Submit <= now {
				for k := range loaded[0] {
					loaded[0][k] = swf.NewJob() // arrived: no longer read
				}
				loaded = loaded[1:]
			}
		}
	}
	res, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSummaryOnlyRapid compares both ways on random workloads: unsorted
// submits, duplicate IDs, missing estimates, jobs too large, cancellations
// of waiting and running jobs, every option.
func TestSummaryOnlyRapid(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		P := rapid.Int64Range(1, 64).Draw(rt, "P")
		n := rapid.IntRange(0, 300).Draw(rt, "jobs")
		jobs := make([]swf.Job, n)
		for i := range jobs {
			j := swf.NewJob()
			j.ID = int64(i + 1)
			if rapid.IntRange(0, 20).Draw(rt, "dup") == 0 {
				j.ID = rapid.Int64Range(1, int64(i+1)).Draw(rt, "id")
			}
			j.Submit = rapid.Int64Range(-1, 5000).Draw(rt, "submit")
			j.RunTime = rapid.Int64Range(-1, 2000).Draw(rt, "run")
			j.AllocProcs = rapid.Int64Range(-1, P+2).Draw(rt, "procs")
			j.ReqProcs = rapid.Int64Range(-1, P).Draw(rt, "req")
			j.ReqTime = rapid.Int64Range(-1, 4000).Draw(rt, "estimate")
			j.User = rapid.Int64Range(1, 4).Draw(rt, "user")
			jobs[i] = j
		}
		ps := sched.Presets()
		preset := ps[rapid.IntRange(0, len(ps)-1).Draw(rt, "preset")]
		kill, ties, perEvent := rapid.Bool().Draw(rt, "kill"), rapid.Bool().Draw(rt, "ties"), rapid.Bool().Draw(rt, "perEvent")
		tau := rapid.Int64Range(0, 60).Draw(rt, "tau")
		peer := sched.Peer(rapid.IntRange(0, 2).Draw(rt, "peer"))
		mk := func() sched.Config { // anew for each run: a predictor learns
			cfg := preset.New(P)
			if peer != sched.PeerNone {
				cfg = cfg.WithPeer(peer)
			}
			cfg.KillAtEstimate, cfg.ShadowTies, cfg.PerEventPass = kill, ties, perEvent
			cfg.BoundedSlowdownThreshold = tau
			return cfg
		}
		type cancel struct{ at, id int64 }
		cancels := make([]cancel, rapid.IntRange(0, 10).Draw(rt, "cancels"))
		for i := range cancels {
			cancels[i] = cancel{rapid.Int64Range(0, 6000).Draw(rt, "cancelAt"), rapid.Int64Range(1, int64(n+1)).Draw(rt, "cancelID")}
		}
		run := func(cfg sched.Config) *sched.Result {
			s, err := sched.New(cfg)
			if err != nil {
				rt.Fatal(err)
			}
			if err := s.Load(jobs); err != nil {
				rt.Fatal(err)
			}
			for _, c := range cancels {
				s.At(c.at, func(int64) { s.Cancel(c.id) })
			}
			res, err := s.Finish()
			if err != nil {
				rt.Fatal(err)
			}
			return res
		}
		full := run(mk())
		cfg := mk()
		cfg.SummaryOnly = true
		sameFolded(rt, "random", full, run(cfg))
	})
}

// oneSecond predicts 1 s for every job; plusOne corrects by 1 s: a job of
// r seconds has r−1 corrections.
type oneSecond struct{}

func (oneSecond) Predict(*swf.Job, int64) int64 { return 1 }
func (oneSecond) Terminated(*swf.Job, int64)    {}

type plusOne struct{}

func (plusOne) Correct(p, _ int64, _, _ int) int64 { return p + 1 }

// TestSummaryOnlyManyCorrections: the SD of the corrections from a fold
// whose jobs have from 0 to over 255 corrections (the fold keeps counts
// from 255 up apart) is summarize's, bit for bit.
func TestSummaryOnlyManyCorrections(t *testing.T) {
	var jobs []swf.Job
	for i, run := range []int64{1, 300, 2, 254, 255, 256, 1000, 1, 700, 3, 400, 1} {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.User = int64(i+1), int64(10*i), run, 2000, 1, 1
		jobs = append(jobs, j)
	}
	last := swf.NewJob() // so that the others end before the last arrival (S7)
	last.ID, last.Submit, last.RunTime, last.ReqTime, last.AllocProcs, last.User = 100, 100000, 1, 1, 1, 1
	jobs = append(jobs, last)
	mk := func() sched.Config {
		return sched.Config{MachineSize: 4, Predictor: oneSecond{}, Corrector: plusOne{}}
	}
	full, err := sched.Run(context.Background(), mk(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if full.Summary.Included != len(jobs)-1 || full.Summary.SDCorrections == 0 {
		t.Fatalf("not every job but the last included, or no spread of corrections: %+v", full.Summary)
	}
	cfg := mk()
	cfg.SummaryOnly = true
	folded, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	sameFolded(t, "many corrections", full, folded)
}

// TestSummaryOnlyKilledCancelled: under KillAtEstimate a job that runs
// past its estimate is marked to be killed when it arrives; cancelled
// while it waits it is not Killed, cancelled while it runs it is. The
// random workloads of TestSummaryOnlyRapid seldom cancel such a job
// before it starts: here SummaryOnly's fold from the live job
// (foldLive) must count it as the records do.
func TestSummaryOnlyKilledCancelled(t *testing.T) {
	var jobs []swf.Job
	for i, jr := range [][3]int64{ // submit, run, estimate; one processor each
		{0, 100, 200}, // runs 0–100
		{0, 50, 10},   // waits, cancelled at 5: not killed
		{1, 50, 20},   // runs 100–120, killed at its estimate
		{2, 60, 30},   // runs from 120, cancelled at 130: killed
		{3, 5, 5},     // runs from 130
		{1000, 1, 1},  // so that the others end before the last arrival (S7)
	} {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.User = int64(i+1), jr[0], jr[1], jr[2], 1, 1
		jobs = append(jobs, j)
	}
	run := func(summaryOnly bool) *sched.Result {
		cfg := sched.EASY(1)
		cfg.KillAtEstimate, cfg.SummaryOnly = true, summaryOnly
		s, err := sched.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		s.At(5, func(int64) { s.Cancel(2) })
		s.At(130, func(int64) { s.Cancel(4) })
		res, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	full := run(false)
	if r := full.Records; r[1].Start >= 0 || !r[1].Cancelled || r[1].Killed || !r[2].Killed || r[3].Start < 0 || !r[3].Cancelled || !r[3].Killed {
		t.Fatalf("not the cases meant: %+v", r[:4])
	}
	sameFolded(t, "killed and cancelled", full, run(true))
}

// TestSummaryOnlyWideOffset: a job that starts more than 2^31 s (68
// years) after its first reservation, among jobs with small offsets,
// moves the fold's list of reserved offsets from 32 to 64 bits; the
// summary stays the records' (Predictability's mean, SD and median of
// |start − reservation|).
func TestSummaryOnlyWideOffset(t *testing.T) {
	var jobs []swf.Job
	add := func(submit, run, est, procs int64) {
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs, j.User = int64(len(jobs)+1), submit, run, est, procs, 1
		jobs = append(jobs, j)
	}
	for i := range int64(8) { // small offsets: the holder is planned at its predecessor's estimate
		add(10*i, 50+i, 100, 2)
	}
	add(1000, 1<<32, 1, 2) // runs 2^32 s past its 1 s estimate
	add(1001, 5, 10, 2)    // reserved at 1002, started at its end
	add(1002, 5, 10, 1)
	for i := range int64(8) {
		add(1<<33+10*i, 50+i, 100, 2)
	}
	add(1<<34, 1, 1, 1) // so that the others end before the last arrival (S7)
	mk := func() sched.Config { return sched.EASY(2) }
	full, err := sched.Run(context.Background(), mk(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	wide := false
	for _, r := range full.Records {
		if r.Included && r.FirstReservation >= 0 && r.Start-r.FirstReservation > math.MaxInt32 {
			wide = true
		}
	}
	if !wide {
		t.Fatal("no included job started 2^31 s after its reservation: the log tests nothing")
	}
	cfg := mk()
	cfg.SummaryOnly = true
	folded, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	sameFolded(t, "wide offset", full, folded)
}
