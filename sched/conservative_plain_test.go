package sched

import (
	"reflect"
	"testing"

	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// plainConservative is conservative backfilling without what the last
// pass left: every pass takes every reservation at once and scans every
// job from now (consMemo's default way), so no noStart, no gain span, no
// quiet pass. A user Scheduler, so that its Pass is its own.
type plainConservative struct{}

func (plainConservative) Schedule(p *Pass) {
	s := p.s
	s.prof.memo = nil
	s.conservativePass(p.Profile(), p.Free() == p.MachineSize())
}

// TestConservativeEqualsPlainRapid: the conservative scheduler, with its
// memo (noStart.skip, the gain spans, conservativeQuiet's pass from the
// last final profile), gives the records of the plain computation, job
// for job, on small machines with ties in time: zero-length jobs, jobs
// ending at the instant others arrive, equal ends, overruns (S3), kills at
// the estimate, predictors that correct and re-predict, cancellations
// while waiting and running, and passes per event or per instant. Many
// placements have a gain range and a range of slots given back apart, so
// that the scan of their hull walks the starts between (blocked); it
// fails at once when the hull drops either range's part, and when a move
// into an overlapping slot records less than [t+d, r+d) as gained.
func TestConservativeEqualsPlainRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		P := rapid.Int64Range(1, 12).Draw(t, "P")
		n := rapid.IntRange(1, 50).Draw(t, "n")
		jobs := make([]swf.Job, n)
		var sub int64
		for i := range jobs {
			sub += rapid.SampledFrom([]int64{0, 0, 1, 5, 10, 20}).Draw(t, "gap")
			r := rapid.SampledFrom([]int64{0, 1, 5, 10, 20, 30, 60}).Draw(t, "run")
			e := max(r+rapid.SampledFrom([]int64{-10, 0, 0, 5, 20, 60}).Draw(t, "slack"), 1)
			j := swf.NewJob()
			j.ID, j.Submit, j.RunTime, j.ReqTime = int64(i+1), sub, r, e
			j.AllocProcs = rapid.Int64Range(1, P).Draw(t, "size")
			j.ReqProcs, j.User = j.AllocProcs, rapid.Int64Range(1, 3).Draw(t, "user")
			jobs[i] = j
		}
		consSamePlain(t, P, jobs, 4, sub+60)
	})
}

// consSamePlain runs jobs on a machine of P processors with a predictor,
// kills at the estimate and a pass per event or per instant drawn, and
// up to most cancellations before until, under the plain pass and the
// conservative scheduler, and fails t at the first record that differs.
func consSamePlain(t *rapid.T, P int64, jobs []swf.Job, most int, until int64) {
	pred := rapid.IntRange(0, 3).Draw(t, "predictor")
	kill := rapid.Bool().Draw(t, "kill")
	perEvent := rapid.Bool().Draw(t, "perEvent")
	cancels := drawCancels(t, most, until, len(jobs))
	run := func(s Scheduler) *Result {
		cfg := Config{MachineSize: P, Scheduler: s, KillAtEstimate: kill, PerEventPass: perEvent}
		withPredictor(t, &cfg, pred)
		return runCancelled(t, cfg, jobs, cancels, nil)
	}
	samePlainRecords(t, run(plainConservative{}), run(conservativeScheduler{}))
}

// consCancel is a cancellation of the job of ID id at time at.
type consCancel struct{ at, id int64 }

// drawCancels draws up to most cancellations, before until, of the
// jobs of IDs 1 to n.
func drawCancels(t *rapid.T, most int, until int64, n int) []consCancel {
	var cancels []consCancel
	for range rapid.IntRange(0, most).Draw(t, "cancels") {
		cancels = append(cancels, consCancel{rapid.Int64Range(0, until).Draw(t, "cancelAt"), rapid.Int64Range(1, int64(n)).Draw(t, "cancelID")})
	}
	return cancels
}

// runCancelled simulates jobs under cfg with cancels, after setup (if
// not nil) has its way with the Sim.
func runCancelled(t interface{ Fatal(...any) }, cfg Config, jobs []swf.Job, cancels []consCancel, setup func(*Sim)) *Result {
	sim, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Load(jobs); err != nil {
		t.Fatal(err)
	}
	for _, c := range cancels {
		sim.At(c.at, func(int64) { sim.Cancel(c.id) })
	}
	if setup != nil {
		setup(sim)
	}
	res, err := sim.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// withPredictor gives cfg, by pred, the user estimates (0), user-history
// predictions (1, 2: propagated, partial) or doubled run times (3), each
// corrected when a job outlives it.
func withPredictor(t *rapid.T, cfg *Config, pred int) {
	switch pred {
	case 1:
		cfg.Predictor, cfg.Corrector = history(), EstimateCorrector{}
	case 2:
		h, err := predict.NewUserHistory(predict.HistoryConfig{Propagate: true, Partial: true})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Predictor, cfg.Corrector = h, EstimateCorrector{}
	case 3:
		cfg.Predictor, cfg.Corrector, cfg.CorrectionTarget = predict.X2{P: predict.Perfect{}}, EstimateCorrector{}, 2
	}
}

// samePlainRecords fails t at the first record where conservative's pass
// (got) differs from the plain pass (want).
func samePlainRecords(t interface{ Fatalf(string, ...any) }, want, got *Result) {
	if reflect.DeepEqual(want.Records, got.Records) {
		return
	}
	for k := range min(len(want.Records), len(got.Records)) {
		if w, g := want.Records[k], got.Records[k]; !reflect.DeepEqual(w, g) {
			t.Fatalf("job %d: plain %+v, conservative %+v", w.Job.ID, w, g)
		}
	}
	t.Fatalf("%d records plain, %d conservative", len(want.Records), len(got.Records))
}
