package load_test

import (
	"math"
	"testing"

	"github.com/batchq/batchq/sched/load"
	"github.com/batchq/batchq/swf"
)

// A factor that is not finite and positive, or one that pushes a submit
// time past ±2^62, is an error; +Inf and 1e300 used to give submit times
// of −2^63 with a nil error.
func TestScaleRange(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 100}, {ID: 2, Submit: 200}, {ID: 3, Submit: 1 << 40}}
	for _, c := range []float64{math.Inf(1), 1e300, 1e30, math.NaN(), 0, -1, math.Inf(-1)} {
		out, err := load.Scale(jobs, c)
		if err == nil {
			t.Errorf("Scale(c = %v) = %v, nil error", c, out)
		}
	}
	far := []swf.Job{{ID: 1, Submit: math.MinInt64 + 5}, {ID: 2, Submit: math.MaxInt64 - 5}}
	if out, err := load.Scale(far, 1); err == nil {
		t.Errorf("a span beyond int64: %v, nil error", out)
	}
	for _, c := range []float64{1e-300, 0.5, 1, 3, 4096} {
		out, err := load.Scale(jobs, c)
		if err != nil {
			t.Fatalf("c = %v: %v", c, err)
		}
		for i, j := range out {
			want := 100 + int64(math.Floor(float64(jobs[i].Submit-100)*c+0.5))
			if j.Submit != want || j.Submit < 100 {
				t.Errorf("c = %v: job %d submit %d, want %d", c, j.ID, j.Submit, want)
			}
		}
	}
}

func TestScale(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 100}, {ID: 2, Submit: 200}, {ID: 3, Submit: 400}}
	got, err := load.Scale(jobs, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{100, 150, 250} {
		if got[i].Submit != want {
			t.Errorf("job %d submit %d, want %d", i+1, got[i].Submit, want)
		}
	}
	if jobs[1].Submit != 200 {
		t.Error("input modified")
	}
	if _, err := load.Scale(jobs, 0); err == nil {
		t.Error("zero factor accepted")
	}
}

// An unknown submit time (−1) is not the first arrival: it was taken as
// t0, and c = 0.5 made 1000 and 2000 into 500 and 1000 instead of 1000
// and 1500. It stays unknown.
func TestScaleUnknownSubmit(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: -1}, {ID: 2, Submit: 1000}, {ID: 3, Submit: 2000}, {ID: 4, Submit: -1}}
	got, err := load.Scale(jobs, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{-1, 1000, 1500, -1} {
		if got[i].Submit != want {
			t.Errorf("job %d: submit %d, want %d", got[i].ID, got[i].Submit, want)
		}
	}
	if got, err := load.Scale([]swf.Job{{ID: 1, Submit: -1}}, 2); err != nil || got[0].Submit != -1 {
		t.Errorf("only unknown submit times: %v, %v", got, err)
	}
}
