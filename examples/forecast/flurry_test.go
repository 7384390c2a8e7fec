package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A flurry of 2,000 jobs in one second on a machine of 32 processors,
// many of which would backfill ahead of the jobs before them, takes
// forecast and estimates past the 128 simulations from Now of one instant
// (sched/forecast.Online.Approximated): their approximate answers are
// counted in the text and in -json (flurry_approximated), never silent.
// One second of 50 such jobs is not, and says nothing.
func TestFlurryApproximatedSaid(t *testing.T) {
	for _, n := range []int{50, 2000} {
		rng := rand.New(rand.NewPCG(3, uint64(n)))
		var b strings.Builder
		b.WriteString("; MaxProcs: 32\n")
		for i := range n {
			size := 1 << rng.IntN(6)
			est := 60 + rng.IntN(36000)
			run := 1 + rng.IntN(est)
			fmt.Fprintf(&b, "%d 1000 %d %d %d -1 -1 %d %d -1 1 %d 1 1 1 -1 -1 -1\n", i+1, 1+rng.IntN(100000), run, size, size, est, 1+rng.IntN(9))
		}
		path := filepath.Join(t.TempDir(), "flurry.swf")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "-json", "-predictors", "estimates", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var r struct {
			Approx int `json:"flurry_approximated"`
		}
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		if (r.Approx > 0) != (n > 128) {
			t.Errorf("a flurry of %d jobs: flurry_approximated %d", n, r.Approx)
		}
		code, stdout, stderr = runCmd(t, "-predictors", "estimates", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		said := strings.Contains(stdout, fmt.Sprintf("%d jobs of flurries (questions at one instant) got approximate forecast and estimates answers", r.Approx))
		if said != (r.Approx > 0) {
			t.Errorf("a flurry of %d jobs: the text says %d approximated: %v:\n%s", n, r.Approx, said, stdout)
		}
		t.Logf("a flurry of %d jobs: %d approximated", n, r.Approx)
	}
}
