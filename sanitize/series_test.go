package sanitize

import (
	"reflect"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

func TestActivityAndTotals(t *testing.T) {
	jobs := []swf.Job{
		{Submit: 100, User: 2, AllocProcs: 4},
		{Submit: 100 + Week, User: 1, AllocProcs: 2},
		{Submit: 150, User: 2, ReqProcs: 8, AllocProcs: -1},
		{Submit: 100 + 3*Week, User: 1, AllocProcs: 1},
	}
	got, err := Activity(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	want := []WeekActivity{
		{Week: 0, Start: 100, User: 2, Jobs: 2, Procs: 12},
		{Week: 1, Start: 100 + Week, User: 1, Jobs: 1, Procs: 2},
		{Week: 3, Start: 100 + 3*Week, User: 1, Jobs: 1, Procs: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Activity = %+v, want %+v", got, want)
	}
	tot, err := Totals(jobs, Week)
	if err != nil {
		t.Fatal(err)
	}
	if len(tot) != 4 || tot[2].Jobs != 0 || tot[0].Procs != 12 || tot[3].User != allUsers {
		t.Errorf("Totals = %+v", tot)
	}
	if _, err := Activity(jobs, 0); err == nil {
		t.Error("bin 0 accepted")
	}
	if _, err := Totals(jobs, -1); err == nil {
		t.Error("bin -1 accepted")
	}
}

// Per-user rows sum to the totals, bin by bin, for any bin width.
func TestActivitySumsToTotals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "n")
		jobs := make([]swf.Job, n)
		for i := range jobs {
			jobs[i] = swf.Job{Submit: rapid.Int64Range(0, 10*Week).Draw(t, "s"), User: rapid.Int64Range(1, 5).Draw(t, "u"), AllocProcs: rapid.Int64Range(-1, 64).Draw(t, "p")}
		}
		bin := rapid.Int64Range(hour, 2*Week).Draw(t, "bin") // Totals has one row per bin: keep them few
		per, _ := Activity(jobs, bin)
		tot, _ := Totals(jobs, bin)
		sumJ := make([]int, len(tot))
		sumP := make([]int64, len(tot))
		for _, a := range per {
			sumJ[a.Week] += a.Jobs
			sumP[a.Week] += a.Procs
		}
		for b := range tot {
			if tot[b].Jobs != sumJ[b] || tot[b].Procs != sumP[b] {
				t.Fatalf("bin %d: totals %+v, per-user sums %d/%d", b, tot[b], sumJ[b], sumP[b])
			}
		}
	})
}

func TestReorder(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 10}, {ID: 2, Submit: 5}, {ID: 3, Submit: 10}, {ID: 2, Submit: 20}, {ID: 4, Submit: 1}, {ID: 2, Submit: 30}}
	got, rep := Reorder(jobs)
	ids := []int64{}
	for _, j := range got {
		ids = append(ids, j.ID)
	}
	if !reflect.DeepEqual(ids, []int64{4, 2, 1, 3, 2, 2}) {
		t.Errorf("order %v", ids)
	}
	if rep.OutOfOrder != 2 || rep.Moved != 4 {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Duplicates) != 1 || rep.Duplicates[0].ID != 2 || !reflect.DeepEqual(rep.Duplicates[0].Indices, []int{1, 3, 5}) {
		t.Errorf("duplicates %+v", rep.Duplicates)
	}
	if jobs[1].ID != 2 || jobs[1].Submit != 5 {
		t.Error("input modified")
	}
}

// The cleaned logs are already in submit order with unique job numbers.
func TestReorderRealLog(t *testing.T) {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	got, rep := Reorder(jobs)
	if rep.OutOfOrder != 0 || rep.Moved != 0 || len(rep.Duplicates) != 0 || !reflect.DeepEqual(got, jobs) {
		t.Errorf("KTH cln: %+v", rep)
	}
}

func TestShake(t *testing.T) {
	jobs := make([]swf.Job, 1000)
	for i := range jobs {
		jobs[i] = swf.Job{ID: int64(i + 1), Submit: int64(i) * 100}
	}
	jobs[0].Submit = 10
	a, rep, err := Shake(jobs, ShakeConfig{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Shake(jobs, ShakeConfig{Seed: 7})
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different result")
	}
	c, _, _ := Shake(jobs, ShakeConfig{Seed: 8})
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
	for _, bad := range []ShakeConfig{{Share: 1.5}, {Share: -0.1}, {MaxShift: -1}} {
		if _, _, err := Shake(jobs, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	all, rep, _ := Shake(jobs, ShakeConfig{Share: 1, MaxShift: 1000})
	if rep.Shifted != 1000 || rep.Clamped == 0 || all[0].Submit < 0 {
		t.Errorf("share 1: %+v, first submit %d", rep, all[0].Submit)
	}
}
