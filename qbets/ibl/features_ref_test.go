package ibl

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// refSystem is System as it was before the waiting list kept empty
// slots: a slice of the waiting jobs in submit order, searched and
// shifted on every start and end (O(n) each). It is the model the
// tests hold System to, and the "old" of BenchmarkSystemLeave.
type refSystem struct {
	waiting []*tracked
	running map[int64]*tracked
	byID    map[int64]*tracked
}

func (s *refSystem) Submit(j Job) error {
	if s.byID == nil {
		s.byID, s.running = map[int64]*tracked{}, map[int64]*tracked{}
	}
	if _, dup := s.byID[j.ID]; dup {
		return fmt.Errorf("ibl: job %d submitted twice", j.ID)
	}
	t := &tracked{Job: j, start: -1}
	s.byID[j.ID] = t
	i := len(s.waiting)
	for i > 0 && after(s.waiting[i-1], t) {
		i--
	}
	s.waiting = slices.Insert(s.waiting, i, t)
	return nil
}

func after(a, b *tracked) bool {
	return a.Submit > b.Submit || (a.Submit == b.Submit && a.ID > b.ID)
}

func (s *refSystem) Start(id, t int64) error {
	j, ok := s.byID[id]
	if !ok || j.start >= 0 {
		return fmt.Errorf("ibl: job %d started but not waiting", id)
	}
	i := slices.Index(s.waiting, j)
	s.waiting = slices.Delete(s.waiting, i, i+1)
	j.start = t
	s.running[id] = j
	return nil
}

func (s *refSystem) End(id int64) error {
	j, ok := s.byID[id]
	if !ok {
		return fmt.Errorf("ibl: job %d ended but unknown", id)
	}
	delete(s.byID, id)
	if j.start >= 0 {
		delete(s.running, id)
		return nil
	}
	i := slices.Index(s.waiting, j)
	s.waiting = slices.Delete(s.waiting, i, i+1)
	return nil
}

// ahead, NotQueued and Queued are System's before the change, copied
// rather than shared: the model must not change when System does.
func (s *refSystem) ahead(stop int, user string, now int64) ahead {
	var a ahead
	add := func(t *tracked, remaining int64) {
		w := float64(t.Cores) * float64(max(remaining, 0))
		a.count++
		a.work += w
		if user != "" && t.User == user {
			a.userCount++
			a.userWork += w
		}
	}
	for _, t := range s.running {
		req := max(t.ReqTime, 0)
		var ran int64
		if now > t.start {
			ran = now - t.start
		}
		add(t, req-min(ran, req))
	}
	for _, t := range s.waiting[:stop] {
		add(t, t.ReqTime)
	}
	a.work, a.userWork = min(a.work, maxMagnitude), min(a.userWork, maxMagnitude)
	return a
}

func (s *refSystem) NotQueued(j Job, now int64) []Value {
	a := s.ahead(len(s.waiting), "", now)
	return []Value{
		str(j.Queue), num(float64(j.Cores)), reqTime(j.ReqTime),
		num(a.count), num(a.work), flag(len(s.running) > 0), num(float64(now)),
	}
}

func (s *refSystem) Queued(id, now int64) ([]Value, bool) {
	t, ok := s.byID[id]
	if !ok || t.start >= 0 {
		return nil, false
	}
	a := s.ahead(slices.Index(s.waiting, t), t.User, now)
	return []Value{
		opt(t.Name), opt(t.User), opt(t.Project), str(t.Queue),
		num(float64(t.Cores)), reqTime(t.ReqTime), num(a.count), num(a.work),
		num(a.userCount), num(a.userWork), flag(len(s.running) > 0), num(float64(now)),
	}, true
}

// TestSystemMatchesReference drives System and refSystem through the
// same random submits (out of order, equal submit times, ids reused
// after an end), starts and ends, and compares after each step the
// waiting list, a page of it and every job's Table IV query: they
// must be identical, in the same order and bit for bit. (The sums range
// over the running jobs in map order; they are exact all the same: whole
// non-negative terms, saturated at 2^53, the largest whole number below
// which every float64 sum of whole numbers is exact.)
func TestSystemMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s System
		var ref refSystem
		big := rapid.Bool().Draw(t, "big") // sums past 2^53, or exact
		size := int64(1 << 20)
		if big {
			size = 1 << 40
		}
		steps := rapid.IntRange(1, 300).Draw(t, "steps")
		for range steps {
			id := rapid.Int64Range(1, 40).Draw(t, "id")
			now := rapid.Int64Range(0, 40).Draw(t, "now")
			var err, rerr error
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				j := Job{ID: id, User: rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "user"),
					Cores: rapid.Int64Range(0, size).Draw(t, "cores"), Submit: rapid.Int64Range(0, 20).Draw(t, "submit"),
					ReqTime: rapid.Int64Range(-1, size).Draw(t, "req")}
				err, rerr = s.Submit(j), ref.Submit(j)
			case 1:
				err, rerr = s.Start(id, now), ref.Start(id, now)
			case 2:
				err, rerr = s.End(id), ref.End(id)
			}
			if (err == nil) != (rerr == nil) {
				t.Fatalf("job %d: error %v, reference %v", id, err, rerr)
			}
			got, want := s.Waiting(), ref.waiting
			if len(got) != len(want) {
				t.Fatalf("%d waiting, reference %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i].Job {
					t.Fatalf("waiting[%d] = %+v, reference %+v", i, got[i], want[i].Job)
				}
			}
			off, lim := rapid.IntRange(-1, 45).Draw(t, "offset"), rapid.IntRange(-1, 45).Draw(t, "limit")
			page, total := s.WaitingPage(off, lim)
			var wantPage []Job
			for i := max(off, 0); off >= 0 && i < len(want) && len(wantPage) < lim; i++ {
				wantPage = append(wantPage, want[i].Job)
			}
			if total != len(want) || !slices.Equal(page, wantPage) {
				t.Fatalf("WaitingPage(%d, %d) = %+v of %d, reference %+v of %d", off, lim, page, total, wantPage, len(want))
			}
			sub, aid := rapid.Int64Range(0, 21).Draw(t, "after submit"), rapid.Int64Range(0, 41).Draw(t, "after id")
			apage, aoff, atotal := s.WaitingAfter(sub, aid, lim)
			var wantAfter []Job
			wantOff := 0
			for _, w := range want {
				switch {
				case !after(w, &tracked{Job: Job{ID: aid, Submit: sub}}):
					wantOff++
				case len(wantAfter) < lim:
					wantAfter = append(wantAfter, w.Job)
				}
			}
			if atotal != len(want) || aoff != wantOff || !slices.Equal(apage, wantAfter) {
				t.Fatalf("WaitingAfter(%d, %d, %d) = %+v at %d of %d, reference %+v at %d", sub, aid, lim, apage, aoff, atotal, wantAfter, wantOff)
			}
			at := now + 10
			j := Job{Queue: "q", Cores: 3, ReqTime: 60}
			if a, b := s.NotQueued(j, at), ref.NotQueued(j, at); !reflect.DeepEqual(a, b) {
				t.Fatalf("NotQueued %v, reference %v", a, b)
			}
			for id := range int64(42) {
				a, aok := s.Queued(id, at)
				b, bok := ref.Queued(id, at)
				if aok != bok || !reflect.DeepEqual(a, b) {
					t.Fatalf("Queued(%d) %v %v, reference %v %v", id, a, aok, b, bok)
				}
			}
		}
	})
}

// pageBlock is a size of page that crosses the Fenwick tree's ranges of
// slots (powers of two) at every offset below.
const pageBlock = 512

// WaitingPage finds its first job by the jobs counted in the Fenwick
// tree's ranges of slots, which TestSystemMatchesReference's few jobs
// never make deep: here thousands of jobs arrive out of order (inserts
// that move slots and rebuild the tree), leave (empty slots, sweeps) and
// come back, and pages from every kind of offset must be the reference's.
func TestWaitingPageBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s System
	var ref refSystem
	for step := range 40_000 {
		id := r.Int64N(4 * pageBlock)
		var err, rerr error
		switch r.IntN(3) {
		case 0:
			j := Job{ID: id, Submit: r.Int64N(1000)}
			err, rerr = s.Submit(j), ref.Submit(j)
		case 1:
			err, rerr = s.Start(id, 5), ref.Start(id, 5)
		default:
			err, rerr = s.End(id), ref.End(id)
		}
		if (err == nil) != (rerr == nil) {
			t.Fatalf("step %d, job %d: error %v, reference %v", step, id, err, rerr)
		}
		if step%97 != 0 {
			continue
		}
		total := len(ref.waiting)
		for _, off := range []int{0, r.IntN(total + 1), total - 1, total - pageBlock, pageBlock - 1, pageBlock, 2*pageBlock + 1} {
			lim := r.IntN(2*pageBlock) + 1
			page, n := s.WaitingPage(off, lim)
			var want []Job
			for i := max(off, 0); off >= 0 && i < total && len(want) < lim; i++ {
				want = append(want, ref.waiting[i].Job)
			}
			if n != total || !slices.Equal(page, want) {
				t.Fatalf("step %d: WaitingPage(%d, %d): %d jobs of %d, reference %d of %d", step, off, lim, len(page), n, len(want), total)
			}
		}
	}
}

// leaver is what BenchmarkSystemLeave drives: System, or the reference.
type leaver interface {
	Submit(Job) error
	Start(id, t int64) error
	End(id int64) error
}

// BenchmarkSystemLeave is one job leaving a queue of n waiting jobs and
// one arriving (so n stays put): "start" starts the oldest (and ends
// it, which costs O(1) either way), "cancel"
// ends one drawn at random. "old" is the System before the change
// (refSystem), "new" the current one. Karnak does this under its write
// lock at every start and end event.
func BenchmarkSystemLeave(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		for _, op := range []string{"start", "cancel"} {
			for _, impl := range []string{"old", "new"} {
				b.Run(fmt.Sprintf("%s/%s/waiting=%d", op, impl, n), func(b *testing.B) {
					var s leaver = new(System)
					if impl == "old" {
						s = new(refSystem)
					}
					ids := make([]int64, 0, n) // waiting ids, any order
					next := int64(0)
					submit := func() {
						if err := s.Submit(Job{ID: next, Cores: 1, ReqTime: 60, Submit: next}); err != nil {
							b.Fatal(err)
						}
						ids = append(ids, next)
						next++
					}
					for range n {
						submit()
					}
					r := rand.New(rand.NewPCG(1, 2))
					oldest := 0
					for b.Loop() {
						var err error
						if op == "start" {
							if err = s.Start(ids[oldest], next); err == nil {
								err = s.End(ids[oldest]) // keeps the running set small
							}
							oldest++
						} else {
							i := oldest + r.IntN(len(ids)-oldest)
							err = s.End(ids[i])
							ids[i] = ids[len(ids)-1]
							ids = ids[:len(ids)-1]
						}
						if err != nil {
							b.Fatal(err)
						}
						submit()
					}
				})
			}
		}
	}
}

// BenchmarkWaitingPage is the last page of 1,000 of 262,144 waiting jobs
// (karnak's MaxLiveJobs), found past the most empty slots the list keeps
// (as many as jobs), and with none.
func BenchmarkWaitingPage(b *testing.B) {
	const n = 1 << 18
	for _, gaps := range []bool{false, true} {
		b.Run(fmt.Sprintf("empty-slots=%v", gaps), func(b *testing.B) {
			var s System
			total := int64(n)
			if gaps {
				total = 2 * n
			}
			for i := range total {
				if err := s.Submit(Job{ID: i, Cores: 1, Submit: i}); err != nil {
					b.Fatal(err)
				}
			}
			for i := int64(0); gaps && i < total; i += 2 {
				if err := s.End(i); err != nil {
					b.Fatal(err)
				}
			}
			b.Logf("%d waiting, %d nodes", s.nWaiting(), len(s.waiting.nodes))
			for b.Loop() {
				if page, _ := s.WaitingPage(n-1000, 1000); len(page) != 1000 {
					b.Fatal(len(page))
				}
			}
		})
	}
}

// fastQueries counts, over TestSystemFeaturesInOrder's checks, the
// queries that read the kept running sums and had to leave out a job
// whose requested time ran out after the clock: the case the test is for.
var fastQueries int

// TestSystemFeaturesInOrder is TestSystemMatchesReference with time
// going forward, as karnak's and replay's events do: the queries then
// read the running jobs' kept sums (running.go) instead of summing the
// jobs, and must give the reference's features bit for bit, at the
// clock and after it, past running jobs' deadlines, for every user.
func TestSystemFeaturesInOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s System
		var ref refSystem
		size := int64(1 << 20)
		if rapid.Bool().Draw(t, "big") {
			size = 1 << 40
		}
		clock := int64(0)
		for range rapid.IntRange(1, 300).Draw(t, "steps") {
			id := rapid.Int64Range(1, 40).Draw(t, "id")
			clock += rapid.Int64Range(0, 30).Draw(t, "dt")
			var err, rerr error
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				// Submit times up to 20 s back: out of submit order.
				j := Job{ID: id, User: rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "user"),
					Cores: rapid.Int64Range(0, size).Draw(t, "cores"), Submit: max(clock-rapid.Int64Range(0, 20).Draw(t, "back"), 0),
					ReqTime: rapid.Int64Range(-1, 100).Draw(t, "req")}
				if rapid.Bool().Draw(t, "long") {
					j.ReqTime = rapid.Int64Range(-1, size).Draw(t, "req")
				}
				err, rerr = s.Submit(j), ref.Submit(j)
			case 1:
				err, rerr = s.Start(id, clock), ref.Start(id, clock)
			case 2:
				err, rerr = s.End(id), ref.End(id)
			}
			if (err == nil) != (rerr == nil) {
				t.Fatalf("job %d: error %v, reference %v", id, err, rerr)
			}
			at := clock + rapid.Int64Range(0, 60).Draw(t, "ahead")
			for _, a := range s.active {
				if a.deadline <= uint64(at) && at >= s.clock {
					fastQueries++
					break
				}
			}
			j := Job{Queue: "q", Cores: 3, ReqTime: 60}
			if a, b := s.NotQueued(j, at), ref.NotQueued(j, at); !reflect.DeepEqual(a, b) {
				t.Fatalf("NotQueued at %d: %v, reference %v", at, a, b)
			}
			// The list and the predictions agree on the order, jobs
			// submitted out of order included: the k-th waiting job has
			// the running jobs and k waiting jobs ahead of it.
			for k, w := range s.Waiting() {
				if q, _ := s.Queued(w.ID, at); q[6].F != float64(len(s.running)+k) {
					t.Fatalf("waiting job %d (%d-th) counts %v jobs ahead, want %d running + %d", w.ID, k, q[6].F, len(s.running), k)
				}
			}
			for id := range int64(42) {
				a, aok := s.Queued(id, at)
				b, bok := ref.Queued(id, at)
				if aok != bok || !reflect.DeepEqual(a, b) {
					t.Fatalf("Queued(%d) at %d: %v %v, reference %v %v", id, at, a, aok, b, bok)
				}
			}
		}
	})
	if fastQueries == 0 {
		t.Fatal("no query left out a running job past its deadline: the test is vacuous")
	}
	t.Logf("%d queries left out running jobs past their deadline", fastQueries)
}

// submitter is what BenchmarkSystemSubmit drives: System, or the reference.
type submitter interface {
	leaver
	NotQueued(j Job, now int64) []Value
	Queued(id, now int64) ([]Value, bool)
}

// BenchmarkSystemSubmit is karnak's work for one submitted job under its
// write lock, with 10,000 jobs waiting and 500 running, four users: the
// Table III query at the submit, the submit, the Table IV query of its
// first snapshot, and, to keep the numbers put, the oldest waiting job
// starting and a running one ending. "old" is the System that summed
// every job at each query (refSystem), "new" the current one.
func BenchmarkSystemSubmit(b *testing.B) {
	const n, running = 10_000, 500
	for _, impl := range []string{"old", "new"} {
		b.Run(fmt.Sprintf("%s/waiting=%d", impl, n), func(b *testing.B) {
			var s submitter = new(System)
			if impl == "old" {
				s = new(refSystem)
			}
			users := []string{"a", "b", "c", "d"}
			job := func(id int64) Job {
				return Job{ID: id, User: users[id%4], Cores: 4, ReqTime: 3600, Submit: id}
			}
			next := int64(0)
			for ; next < n+running; next++ {
				if err := s.Submit(job(next)); err != nil {
					b.Fatal(err)
				}
			}
			for id := range int64(running) {
				if err := s.Start(id, next); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				j := job(next)
				s.NotQueued(j, next)
				err := s.Submit(j)
				if _, ok := s.Queued(next, next); !ok {
					b.Fatal("not waiting")
				}
				if err == nil {
					err = s.Start(next-n, next)
				}
				if err == nil {
					err = s.End(next - n - running)
				}
				if err != nil {
					b.Fatal(err)
				}
				next++
			}
		})
	}
}
