package sched

import (
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// TestConservativeNodesOldPathsRapid checks the shortcuts of
// conservative backfilling on nodes that cut its constant costs (dropOn's
// drop at the two instants a reservation was held at, heldMarks' marks
// of a job's nodes, windowOn's path for cores and memory alone, and the
// early stop of reachesOn's scans) against the paths they replace
// (oldPaths): job for job the same record and shares, on random
// machines and demands (TestConservativeNodesPlanRapid's and its deep
// queues') and on wide machines of one-core nodes with deep queues of
// spread jobs and loose estimates (CTC-SP2 on 338 such nodes, where
// they were measured), with kills, predictors, cancellations and both
// placements. The drops at the two instants and the early stops must
// each happen (20 checks under -short).
//
// Checked 2026-12-01 with each shortcut made wrong on purpose (plain
// run, 100 checks): the window's minimum taken over one segment too many
// (T[k] <= t+d in windowOn's path for cores and memory), the marks of a
// job's nodes made for its first share only, and a scan stopped one short
// of what the job lacks (g >= stop-1) each fail this test; a drop at the
// two instants that also removes the job's events as a running job fails
// TestDropOnRapid. (Marks never made anew only mark more nodes held: the
// job is then placed again where it stays, the same schedule, slower.)
func TestConservativeNodesOldPathsRapid(t *testing.T) {
	cuts, stops := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		var nodes []swf.Node
		var jobs []swf.Job
		// The wide one-core case twice as often: it makes most of the
		// scans that stop early (with one in three, a -short run of 20
		// checks had none about once in 2,000).
		switch rapid.IntRange(0, 3).Draw(t, "case") {
		case 0:
			nodes, jobs = drawNodeCase(t)
		case 1:
			nodes, jobs = drawDeepNodeCase(t)
		default:
			nodes, jobs = drawWideOneCore(t)
		}
		pred := rapid.IntRange(0, 3).Draw(t, "predictor")
		kill := rapid.Bool().Draw(t, "kill")
		perEvent := rapid.Bool().Draw(t, "perEvent")
		best := rapid.IntRange(0, 3).Draw(t, "best") == 0
		cancels := drawCancels(t, 3, jobs[len(jobs)-1].Submit+60, len(jobs))
		run := func(old bool) (*Result, *consNodes) {
			cfg := Config{Nodes: nodes, Scheduler: conservativeScheduler{}, KeepShares: true, KillAtEstimate: kill, PerEventPass: perEvent}
			if best {
				cfg.Placement = BestFit
			}
			withPredictor(t, &cfg, pred)
			var sim *Sim
			res := runCancelled(t, cfg, jobs, cancels, func(s *Sim) {
				sim = s
				s.cons = s.newConsNodes()
				s.cons.oldPaths = old
			})
			return res, sim.cons
		}
		want, _ := run(true)
		got, c := run(false)
		if err := got.Check(); err != nil {
			t.Fatal(err)
		}
		sameNodeSchedule(t, want, got)
		cuts, stops = cuts+c.cuts, stops+c.stops
	})
	if cuts == 0 || stops == 0 {
		t.Fatalf("%d drops at the two instants, %d scans stopped early: the test checks nothing of them", cuts, stops)
	}
}

// drawWideOneCore draws a machine of 8 to 40 one-core nodes and a deep
// queue of spread jobs (no demand) of up to its size, with loose
// estimates: many reservations a node, many early ends, the shape of
// CTC-SP2 on 338 one-core nodes.
func drawWideOneCore(t *rapid.T) ([]swf.Node, []swf.Job) {
	n := rapid.Int64Range(8, 40).Draw(t, "nodes")
	var jobs []swf.Job
	var sub int64
	for id := range int64(rapid.IntRange(1, 120).Draw(t, "jobs")) {
		sub += rapid.SampledFrom([]int64{0, 0, 1, 2, 5, 10}).Draw(t, "gap")
		run := rapid.SampledFrom([]int64{0, 1, 3, 8, 20, 40, 90}).Draw(t, "run")
		est := max(run*rapid.Int64Range(1, 6).Draw(t, "loose")+rapid.SampledFrom([]int64{-5, 0, 0, 3, 10}).Draw(t, "slack"), 1)
		j := swf.NewJob()
		j.ID, j.Submit, j.RunTime, j.ReqTime = id+1, sub, run, est
		j.AllocProcs = rapid.Int64Range(1, n).Draw(t, "size")
		if rapid.Bool().Draw(t, "small") {
			j.AllocProcs = rapid.Int64Range(1, 4).Draw(t, "smallSize")
		}
		j.ReqProcs, j.User = j.AllocProcs, rapid.Int64Range(1, 3).Draw(t, "user")
		jobs = append(jobs, j)
	}
	return []swf.Node{{Count: n, Cores: 1}}, jobs
}

// TestDropOnRapid checks dropOn against the whole-list test it replaced
// (oldPaths): on a node's list of random events of a few jobs, running
// (held, not a reservation) and reserved, at random times, each job's
// reservation dropped as hold made it or after its time or prediction
// changed (the whole list is then tested), the list left and the times
// reported are the same.
func TestDropOnRapid(t *testing.T) {
	cuts, falls := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "jobs")
		build := func() (*consNodes, []*Job) {
			c := &consNodes{ev: make([][]nodeEv, 1), listed: make([]bool, 1), stale: make([]bool, 1)}
			var jobs []*Job
			for range n {
				jobs = append(jobs, &Job{})
			}
			return c, jobs
		}
		// the same draws for both lists
		type evDraw struct {
			job       int
			t, p      int64
			res, twin bool
		}
		var draws []evDraw
		for range rapid.IntRange(0, 12).Draw(t, "holds") {
			draws = append(draws, evDraw{rapid.IntRange(0, 5).Draw(t, "job"), rapid.Int64Range(0, 6).Draw(t, "t"), rapid.Int64Range(0, 4).Draw(t, "p"),
				rapid.Bool().Draw(t, "res"), rapid.IntRange(0, 5).Draw(t, "twin") == 0})
		}
		// the victim is a job with a reservation when there is one,
		// dropped as held and again after a move of its time or
		// prediction (a victim drawn among all jobs and moved in eight
		// cases of nine left the test without a drop at the two instants
		// in 81 runs of 200 under -short)
		var reserved []int
		for _, dr := range draws {
			if dr.res && dr.job < n && !slices.Contains(reserved, dr.job) {
				reserved = append(reserved, dr.job)
			}
		}
		victim := 0
		if len(reserved) > 0 {
			victim = reserved[rapid.IntRange(0, len(reserved)-1).Draw(t, "victim")]
		}
		move := rapid.SampledFrom([][2]int64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}).Draw(t, "move")
		for _, mv := range [][2]int64{{0, 0}, move} {
			lists := [2][]nodeEv{}
			var all [2][]*Job
			var got [2][2]int64
			for v, old := range []bool{false, true} {
				c, jobs := build()
				c.oldPaths = old
				held := map[int]bool{}
				for _, dr := range draws {
					if dr.job >= len(jobs) {
						continue
					}
					j, d := jobs[dr.job], max(dr.p, 1)
					if dr.res {
						if held[dr.job] {
							continue // one reservation a job
						}
						held[dr.job] = true
						j.res, j.p = dr.t, dr.p
					}
					for range 1 + btoi(dr.twin) { // two shares of it on the node
						c.add(0, nodeEv{t: dr.t, jb: j, k: 0, sign: -1, res: dr.res})
						c.add(0, nodeEv{t: dr.t + d, jb: j, k: 0, sign: 1, res: dr.res})
					}
				}
				j := jobs[victim]
				j.res += mv[0]
				j.p += mv[1]
				got[v][0], got[v][1] = c.dropOn(0, j)
				lists[v] = slices.Clone(c.ev[0])
				all[v] = jobs
				cuts += c.cuts
				if !old && mv != [2]int64{} && len(reserved) > 0 && c.cuts == 0 {
					falls++ // (the whole list tested)
				}
			}
			if got[0] != got[1] {
				t.Fatalf("move %v: dropOn reported %v, the whole-list test %v", mv, got[0], got[1])
			}
			if len(lists[0]) != len(lists[1]) {
				t.Fatalf("move %v: dropOn left %d events, the whole-list test %d", mv, len(lists[0]), len(lists[1]))
			}
			for k := range lists[0] {
				a, b := lists[0][k], lists[1][k]
				ja, jb := slices.Index(all[0], a.jb), slices.Index(all[1], b.jb)
				if a.t != b.t || a.sign != b.sign || a.res != b.res || a.k != b.k || ja != jb {
					t.Fatalf("move %v: event %d: dropOn left %+v, the whole-list test %+v", mv, k, a, b)
				}
			}
		}
	})
	if cuts == 0 || falls == 0 {
		t.Fatalf("%d drops at the two instants, %d of a moved reservation (the whole list tested): the test checks nothing of one of them", cuts, falls)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
