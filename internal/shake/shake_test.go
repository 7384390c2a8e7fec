package shake

import (
	"reflect"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
)

func TestShake(t *testing.T) {
	jobs := make([]swf.Job, 1000)
	for i := range jobs {
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: int64(i) * 100}
	}
	jobs[0].Submit = 10
	a, rep, err := Shake(jobs, Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Shake(jobs, Config{Seed: 7})
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different result")
	}
	c, _, _ := Shake(jobs, Config{Seed: 8})
	if reflect.DeepEqual(a, c) {
		t.Error("different seeds, same result")
	}
	if rep.Shifted != 100 {
		t.Errorf("shifted %d, want 10%% of 1000", rep.Shifted)
	}
	if !slices.IsSortedFunc(a, func(x, y swf.Job) int { return int(x.Submit - y.Submit) }) {
		t.Error("not sorted by submit")
	}
	orig := map[int64]int64{}
	for _, j := range jobs {
		orig[j.ID] = j.Submit
	}
	moved := 0
	for _, j := range a {
		d := j.Submit - orig[j.ID]
		if d < -60 || d > 60 {
			t.Fatalf("job %d moved by %d s", j.ID, d)
		}
		if d != 0 {
			moved++
		}
	}
	if moved > 100 || moved < 90 {
		t.Errorf("%d jobs moved, want about 100 (a draw of 0 does not move)", moved)
	}
	for _, bad := range []Config{{Share: 1.5}, {Share: -0.1}, {MaxShift: -1}} {
		if _, _, err := Shake(jobs, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	all, rep, _ := Shake(jobs, Config{Share: 1, MaxShift: 1000})
	if rep.Shifted != 1000 || rep.Clamped == 0 || all[0].Submit < 0 {
		t.Errorf("share 1: %+v, first submit %d", rep, all[0].Submit)
	}
}
