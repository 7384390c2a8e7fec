package figures

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// checkFiles asserts that paths are a non-empty PNG and a non-empty SVG.
func checkFiles(t *testing.T, paths []string) {
	t.Helper()
	if len(paths) != 2 {
		t.Fatalf("got %d files, want png and svg: %v", len(paths), paths)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(p, ".png"):
			if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 2000 {
				t.Errorf("%s: not a PNG or nearly empty (%d bytes)", p, len(b))
			}
		case strings.HasSuffix(p, ".svg"):
			if !bytes.Contains(b[:min(len(b), 200)], []byte("<svg")) || !bytes.Contains(b, []byte("</svg>")) || len(b) < 2000 {
				t.Errorf("%s: not an SVG or nearly empty (%d bytes)", p, len(b))
			}
		default:
			t.Errorf("unexpected file %s", p)
		}
	}
}

// out is where the tests write; BATCHQ_FIGURES_DIR keeps the files for a
// look.
func out(t *testing.T) string {
	if d := os.Getenv("BATCHQ_FIGURES_DIR"); d != "" {
		return d
	}
	return t.TempDir()
}

func TestWaits(t *testing.T) {
	s := WaitSeries{Title: "test queue", Submit: []int64{0, 3600, 7200, 86400, 90000}, Wait: []int64{0, 30, 4000, 100, 90000},
		Bounds: []Bounds{{Name: "trimmed", Bound: []int64{-1, 600, 600, 5000, 5000}}, {Name: "full", Bound: []int64{-1, -1, 900, 900, 1200}}}}
	paths, err := Waits(out(t), "waits", s)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, paths)

	bad := s
	bad.Bounds = []Bounds{{Name: "short", Bound: []int64{1}}}
	if _, err := Waits(t.TempDir(), "w", bad); err == nil || !strings.Contains(err.Error(), "short") {
		t.Errorf("mismatched bounds: err = %v", err)
	}
	bad = s
	bad.Submit = []int64{5, 4, 3, 2, 1}
	if _, err := Waits(t.TempDir(), "w", bad); err == nil || !strings.Contains(err.Error(), "Submit[1]") {
		t.Errorf("unsorted submits: err = %v", err)
	}
	if _, err := Waits(t.TempDir(), "../escape", s); err == nil {
		t.Error("a name with a directory was accepted")
	}
}

// A whole multi-year queue (60,000 jobs, bounds moving at every job) stays
// within the 300 KB SVG budget of docs/figures.
func TestWaitsLongQueueSVGSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 60000
	s := WaitSeries{Title: "long queue", Submit: make([]int64, n), Wait: make([]int64, n),
		Bounds: []Bounds{{Name: "slow", Bound: make([]int64, n)}, {Name: "jumpy", Bound: make([]int64, n)}}}
	slow, jumpy := 3600.0, 3600.0
	for i := range n {
		s.Submit[i] = int64(i) * 1500
		s.Wait[i] = int64(rng.ExpFloat64() * 20000 * (1 + float64(i%5000)/1000))
		slow *= 1 + 0.00005*rng.NormFloat64()
		jumpy *= 1 + 0.01*rng.NormFloat64()
		s.Bounds[0].Bound[i], s.Bounds[1].Bound[i] = int64(slow), int64(jumpy)
	}
	paths, err := Waits(out(t), "waits-long", s)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, paths)
	st, err := os.Stat(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 300<<10 {
		t.Errorf("%s: %d bytes, over 300 KB", paths[1], st.Size())
	}
}

// Many points in one column reduce to first, lowest, highest, last, in
// order; sparse points are kept as they are.
func TestDecimate(t *testing.T) {
	var line plotter.XYs
	for i := range 100 {
		line = append(line, plotter.XY{X: float64(i) / 1e6, Y: float64(50 + (i*37+13)%100)})
	}
	line = append(line, plotter.XY{X: 0.5, Y: 7}, plotter.XY{X: 1, Y: 8})
	got := decimate(line, 0, 1)
	want := plotter.XYs{line[0], line[51], line[78], line[99], {X: 0.5, Y: 7}, {X: 1, Y: 8}}
	if !slices.Equal(got, want) {
		t.Errorf("decimate = %v, want %v", got, want)
	}
}

func TestSteps(t *testing.T) {
	x := func(v int64) float64 { return float64(v) }
	got := steps([]int64{0, 1, 2, 3, 4, 5, 6}, []int64{-1, 5, 5, 7, -1, 2, 2}, x)
	// Runs [1,3] and [5,6]; each keeps its change points and its last point.
	if len(got) != 2 || len(got[0]) != 3 || len(got[1]) != 2 {
		t.Fatalf("steps = %v", got)
	}
	if got[0][0].X != 1 || got[0][1].X != 3 || got[0][2].X != 3 || got[1][0].Y != 2 {
		t.Errorf("steps = %v", got)
	}
	// A bound creeping up by 1 s per job keeps a point only when it has
	// moved stepTol decades, and the drawn step never strays further.
	submit, bound := make([]int64, 2000), make([]int64, 2000)
	for i := range submit {
		submit[i], bound[i] = int64(i), int64(1000+i)
	}
	got = steps(submit, bound, x)
	if len(got) != 1 || len(got[0]) > 200 {
		t.Fatalf("creeping bound: %d runs, %d points", len(got), len(got[0]))
	}
	k := 0
	for i, b := range bound {
		for k+1 < len(got[0]) && got[0][k+1].X <= float64(submit[i]) {
			k++
		}
		if d := math.Abs(math.Log10(float64(b) / got[0][k].Y)); d > stepTol+1e-12 && i != len(bound)-1 {
			t.Fatalf("job %d: bound %d drawn at %v (%.4f decades off)", i, b, got[0][k].Y, d)
		}
	}
}

func TestSchedulers(t *testing.T) {
	var rs []SchedResult
	for i, log := range []string{"SDSC", "KTH"} {
		for j, v := range []string{"EASY", "EASY+", "EASY++", "PERFECT++"} {
			rs = append(rs, SchedResult{Log: log, Variant: v, MeanWait: float64(6000 * (4 - j) * (i + 1)), MeanBSLD: float64(20 * (5 - j)), PaperWait: 5000, PaperBSLD: 40})
		}
	}
	paths, err := Schedulers(out(t), "sched", "Table 4.3", rs)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, paths)
	if _, err := Schedulers(t.TempDir(), "s", "", []SchedResult{{Log: "x", Variant: "y", MeanWait: -1}}); err == nil {
		t.Error("a negative wait was accepted")
	}
	if _, err := Schedulers(t.TempDir(), "s", "", nil); err == nil {
		t.Error("no results was accepted")
	}
}

func TestTrajectories(t *testing.T) {
	tr := Trajectory{Title: "4 nodes, 1 h, 12 h ahead", Now: 1000, Start: 1000 + 43200, Target: 0.5, Chosen: 1000 + 40470, Method: "latest ≥ target"}
	for s := tr.Now; s < tr.Start; s += 30 {
		tr.At = append(tr.At, s)
		tr.Prob = append(tr.Prob, 0.9*float64(tr.Start-s)/43200)
	}
	paths, err := Trajectories(out(t), "traj", tr)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, paths)
	refused := tr
	refused.Chosen = -1
	paths, err = Trajectories(out(t), "traj-refused", refused)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, paths)
	tr.Prob[3] = 1.5
	if _, err := Trajectories(t.TempDir(), "traj", tr); err == nil || !strings.Contains(err.Error(), "Prob[3]") {
		t.Errorf("probability 1.5: err = %v", err)
	}
}

func TestActivities(t *testing.T) {
	a := Activity{Title: "weekly arrivals", Jobs: []float64{100, 120, 900, 110, 90}, Procs: []float64{800, 900, 1200, 5000, 700},
		Users:    []UserWeeks{{User: "374", Jobs: []float64{0, 5, 800, 0, 0}, Procs: []float64{0, 5, 800, 0, 0}}},
		Flurries: []Flurry{{User: "374", From: 2, To: 2}, {User: "9", From: 3, To: 3, Procs: true}}}
	paths, err := Activities(out(t), "activity", a)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, paths)
	// User 9 has a flurry but no line: its grey band is in the legend.
	if b, err := os.ReadFile(paths[1]); err != nil || !bytes.Contains(b, []byte("flurry of another user")) {
		t.Errorf("%s lacks the legend of other users' flurries (err %v)", paths[1], err)
	}
	a.Flurries = append(a.Flurries, Flurry{User: "1", From: 4, To: 5})
	if _, err := Activities(t.TempDir(), "activity", a); err == nil || !strings.Contains(err.Error(), "Flurries[2]") {
		t.Errorf("flurry beyond the weeks: err = %v", err)
	}
}

func TestDedupe(t *testing.T) {
	x := func(v int64) float64 { return float64(v) }
	// Three zero waits at nearly the same time collapse into one dot; a
	// different wait or a distant time keeps its own.
	got, every := dedupe([]int64{0, 0, 1, 1000, 100000}, []int64{0, 0, 0, 0, 3600}, x)
	if len(got) != 3 || every != 1 {
		t.Errorf("dedupe kept %d dots (every %d), want 3 (every 1): %v", len(got), every, got)
	}
	// Beyond maxDots distinct dots, a systematic sample of the jobs.
	n := 3 * maxDots
	submit, wait := make([]int64, n), make([]int64, n)
	for i := range n {
		submit[i], wait[i] = int64(i), int64(1+i%1000)*int64(1+i%7)
	}
	got, every = dedupe(submit, wait, x)
	if len(got) > maxDots || every < 2 || got[1].X != float64(every) {
		t.Errorf("dedupe of %d distinct dots: %d dots, every %d, second at x = %v", n, len(got), every, got[1].X)
	}
}

func TestTrimGain(t *testing.T) {
	for _, c := range []struct {
		wait, full, trimmed int64
		want                int
	}{
		{10, 5, 20, 1},  // trimmed held, full missed
		{10, 20, 5, -1}, // the reverse
		{10, 20, 20, 0}, // both held
		{10, 5, 5, 0},   // both missed
		{10, -1, 20, 1}, // no full bound: it did not hold
		{10, 20, -1, -1},
	} {
		if got := TrimGain(c.wait, c.full, c.trimmed); got != c.want {
			t.Errorf("TrimGain(%d, %d, %d) = %d, want %d", c.wait, c.full, c.trimmed, got, c.want)
		}
	}
}
