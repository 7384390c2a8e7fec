package karnak

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

// The conditional answer for a queued job, against a replay of a shipped
// log (KTH-SP2, its 28,000 jobs fed to the service as live events): at
// 400 random instants every waiting job (up to 20) is asked about at its
// age then, and when it starts the rest of its wait is compared with
// the answer. The bound on the rest of the wait is compared with the
// old reading (the bound on the total wait, minus the wait so far), and
// the probability of starting within an hour more with how many did.
// Issue 30's example: a job that had waited 83 h was told "at most
// 00:00:00" and "96%" within an hour.
func TestConditionalWaitReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("replays KTH through the service (8 s; a minute under -race); not in -short")
	}
	h, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := TraceEvents(h, jobs, "kth")
	var now int64
	s, err := NewServiceWith(nil, func() int64 { return now }, Config{Levels: []Level{{95, 90}}, NoCache: true, Rate: -1, PruneEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(30, 31))
	const checkpoints = 400
	at := make([]int, checkpoints) // event indices after which to ask
	for i := range at {
		at[i] = 1 + rng.IntN(len(evs)-1)
	}
	slices.Sort(at)
	type ask struct {
		now, waited   int64
		cond, old     int64 // bounds on the rest of the wait; -1: none
		prob, oldProb float64
		hasProb       bool
	}
	asked := map[int64][]ask{}
	started := map[int64]int64{}
	t0 := time.Now()
	done := 0
	for _, k := range append(at, len(evs)) {
		for done < k {
			n := min(k, done+5000)
			now = evs[n-1].Time
			if err := s.Ingest(evs[done:n]); err != nil {
				t.Fatal(err)
			}
			for _, e := range evs[done:n] {
				if e.Kind == "start" {
					started[e.Job] = e.Time
				}
			}
			done = n
		}
		if k == len(evs) {
			break
		}
		sys, _ := s.lookup("kth")
		sys.mu.RLock()
		var waiting []int64
		for id, j := range sys.jobs {
			if j.start < 0 {
				waiting = append(waiting, id)
			}
		}
		sys.mu.RUnlock()
		slices.Sort(waiting)
		rng.Shuffle(len(waiting), func(i, j int) { waiting[i], waiting[j] = waiting[j], waiting[i] })
		for _, id := range waiting[:min(len(waiting), 20)] {
			p, err := s.PredictJob("kth", id, 95, 90, 3600)
			if err != nil {
				t.Fatal(err)
			}
			a := ask{now: p.Now, waited: p.Waited, cond: -1, old: -1}
			if !p.Conditional || p.Waited != p.Now-p.Submit {
				t.Fatalf("job %d: not labelled conditional: %+v", id, p)
			}
			if p.QBETS != nil {
				a.cond = p.QBETS.Wait
			}
			if p.ProbWithin != nil {
				a.prob, a.hasProb = *p.ProbWithin, true
			}
			// The old reading, from the same predictor.
			sys.mu.RLock()
			q := sys.queues[p.Queue]
			f := q.pred.Forecast(qbets.Request{Nodes: int(p.Cores), Walltime: p.WallTime, At: p.Now, Quantile: 0.95, Confidence: 0.9})
			if f.OK {
				a.old = max(p.Submit+f.Upper-p.Now, 0)
				a.oldProb, _ = q.pred.ProbWithin(int(p.Cores), p.WallTime, p.Waited+3600)
			}
			sys.mu.RUnlock()
			asked[id] = append(asked[id], a)
		}
	}
	// Score by the age at the question.
	type score struct {
		n, condIn, condN, oldIn, oldN, hour int
		prob, oldProb                       float64
	}
	buckets := []int64{3600, 10 * 3600, 1 << 62}
	names := []string{"< 1 h", "1–10 h", "≥ 10 h"}
	sc := make([]score, len(buckets))
	for _, id := range slices.Sorted(maps.Keys(asked)) { // the sums in one order: the README's means to the last bit
		as := asked[id]
		st, ok := started[id]
		if !ok {
			continue // cancelled while waiting, or beyond the replay
		}
		for _, a := range as {
			b := &sc[slices.IndexFunc(buckets, func(x int64) bool { return a.waited < x })]
			rest := st - a.now
			if a.cond >= 0 {
				b.condN++
				if rest <= a.cond {
					b.condIn++
				}
			}
			if a.old >= 0 {
				b.oldN++
				if rest <= a.old {
					b.oldIn++
				}
			}
			if a.hasProb {
				b.n++
				b.prob += a.prob
				b.oldProb += a.oldProb
				if rest <= 3600 {
					b.hour++
				}
			}
		}
	}
	t.Logf("KTH replay, %d events, %d checkpoints, in %v", len(evs), checkpoints, time.Since(t0).Round(time.Millisecond))
	var table bytes.Buffer
	table.WriteString("| waited | conditional bound covers the rest | total-wait bound, minus the wait so far | started within 1 h more | mean P (conditional) | mean P (total-wait reading) |\n|---|---|---|---|---|---|\n")
	for i, b := range sc {
		fmt.Fprintf(&table, "| %s | %.3f (%s asked) | %.3f | %.3f | %.3f | %.3f |\n", names[i], frac(b.condIn, b.condN), thousands(b.condN),
			frac(b.oldIn, b.oldN), frac(b.hour, b.n), b.prob/float64(max(b.n, 1)), b.oldProb/float64(max(b.n, 1)))
	}
	checkReadme(t, "../../examples/qserve/README.md", "conditional", table.Bytes())
	for i, b := range sc {
		t.Logf("waited %-6s: conditional bound covers %d/%d = %.3f (old reading %d/%d = %.3f); started within 1 h more: %.3f, mean P %.3f (old reading %.3f) over %d",
			names[i], b.condIn, b.condN, frac(b.condIn, b.condN), b.oldIn, b.oldN, frac(b.oldIn, b.oldN),
			frac(b.hour, b.n), b.prob/float64(max(b.n, 1)), b.oldProb/float64(max(b.n, 1)), b.n)
		// The bound promises 95% at 90% confidence on i.i.d. waits; a
		// queue's waits are not, and trimming keeps the recent ones:
		// 0.90 is the floor asked of it here.
		if b.condN >= 30 && frac(b.condIn, b.condN) < 0.90 {
			t.Errorf("waited %s: the conditional bound covers %.3f of %d", names[i], frac(b.condIn, b.condN), b.condN)
		}
		// The probability inverts a level-C upper bound (§2.7): it is a
		// lower confidence bound on P(start within 1 h more), so it
		// must not promise more than happened (the old reading promised
		// 0.86 to the jobs that had waited 10 h, of which 0.06 started).
		if b.n >= 100 && b.prob/float64(b.n) > frac(b.hour, b.n)+0.05 {
			t.Errorf("waited %s: mean P(start within 1 h more) %.3f, observed %.3f", names[i], b.prob/float64(b.n), frac(b.hour, b.n))
		}
	}
}

// checkReadme compares a generated region of a README (between
// <!-- generated:name --> and <!-- /generated:name -->) with text, or
// rewrites it with BATCHQ_UPDATE_README=1, as examples/internal/readme
// does for the examples' own tables (this package cannot import it).
func checkReadme(t *testing.T, path, name string, text []byte) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s: %v (not in a full checkout)", path, err)
	}
	begin, end := []byte("<!-- generated:"+name+" -->\n"), []byte("<!-- /generated:"+name+" -->")
	i, j := bytes.Index(doc, begin), bytes.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no region %s", path, name)
	}
	i += len(begin)
	if bytes.Equal(doc[i:j], text) {
		return
	}
	if os.Getenv("BATCHQ_UPDATE_README") == "1" {
		if err := os.WriteFile(path, slices.Concat(doc[:i], text, doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: region %s is not what the replay prints; regenerate with BATCHQ_UPDATE_README=1 go test ./qbets/karnak -run TestConditionalWaitReplay\n%s", path, name, text)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func frac(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
