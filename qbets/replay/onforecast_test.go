package replay

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

// OnForecast is called exactly once per job, in submit order, and its
// forecasts are the ones scored: recounting the scored part from the hook
// gives the Result's counts, and the Result is the same as without the hook.
func TestOnForecast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	jobs := make([]swf.Job, 3000)
	for i := range jobs {
		// Shuffled submits (Replay sorts them) and a regime shift half way,
		// so that trimming and misses both happen.
		wait := int64(rng.ExpFloat64() * 600)
		if i > len(jobs)/2 {
			wait *= 20
		}
		jobs[i] = swf.Job{Submit: int64(rng.IntN(30 * 86400)), Wait: wait, AllocProcs: 1 + rng.Int64N(64), ReqTime: 3600}
	}
	for _, plain := range []bool{true, false} {
		exp := map[bool]string{true: "plain", false: "QBETS"}[plain]
		cfg := Config{Plain: plain}
		want, err := Replay(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var (
			calls, predicted, correct, refused int
			last                               int64 = -1
		)
		train := int(float64(len(jobs)) * 0.10)
		cfg.OnForecast = func(j *swf.Job, f qbets.Forecast) {
			if j.Submit < last {
				t.Fatalf("%v: call %d: submit %d after %d (not in submit order)", exp, calls, j.Submit, last)
			}
			last = j.Submit
			if calls >= train {
				switch {
				case !f.OK:
					refused++
				case j.Wait <= f.Upper:
					predicted++
					correct++
				default:
					predicted++
				}
			}
			calls++
		}
		got, err := Replay(jobs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Answered() == 0 || got.Correct() == got.Answered() {
			t.Errorf("%v: vacuous workload: %d predicted, %d correct", exp, got.Answered(), got.Correct())
		}
		if calls != len(jobs) {
			t.Errorf("%v: OnForecast called %d times for %d jobs", exp, calls, len(jobs))
		}
		if predicted != got.Answered() || correct != got.Correct() || refused != got.Declined() {
			t.Errorf("%v: hook recount predicted %d correct %d refused %d; Result %d %d %d",
				exp, predicted, correct, refused, got.Answered(), got.Correct(), got.Declined())
		}
		if !same(got, want) {
			t.Errorf("%v: the hook changed the result", exp)
		}
	}
}

// BeforeArrival sees the live Predictor at each arrival, before the job is
// submitted and after every wait released by then, in submit order; it
// does not change the result, and its error ends the replay.
func TestBeforeArrival(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	jobs := make([]swf.Job, 500)
	for i := range jobs {
		jobs[i] = swf.Job{Submit: int64(i * 60), Wait: int64(rng.ExpFloat64() * 900), AllocProcs: 1 + rng.Int64N(8), ReqTime: 3600}
	}
	want, err := Replay(jobs, Config{})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	got, err := Replay(jobs, Config{BeforeArrival: func(p *qbets.Predictor, j *swf.Job) error {
		st := p.Stats()
		released := 0
		for _, o := range jobs {
			if o.Submit+o.Wait <= j.Submit && o.Submit < j.Submit {
				released++
			}
		}
		if st.Arrivals != calls || st.Releases != released {
			t.Fatalf("job %d (submit %d): predictor has %d arrivals, %d releases; want %d, %d",
				calls, j.Submit, st.Arrivals, st.Releases, calls, released)
		}
		calls++
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(jobs) || !same(got, want) {
		t.Fatalf("%d calls for %d jobs; result changed: %v", calls, len(jobs), !same(got, want))
	}
	stop := errors.New("stop")
	if _, err := Replay(jobs, Config{BeforeArrival: func(*qbets.Predictor, *swf.Job) error { return stop }}); !errors.Is(err, stop) {
		t.Fatalf("error %v, want the hook's", err)
	}
}

// same compares two results field by field (NaN equal to NaN).
func same(a, b Result) bool { return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b) }
