package agent

import (
	"testing"

	"github.com/batchq/batchq/varq"
)

// BenchmarkTrajectory12hCrowd is BenchmarkTrajectory12h through the
// crowd-aware wrapper in crowdPlanned mode, with 64 queued nodes and 20
// other accepted requests for the same start time (a busy 10 % period has
// a few; 95 % has up to about 180): each forecast finds the crowd by a
// binary search over them (a scan before).
func BenchmarkTrajectory12hCrowd(b *testing.B) { benchCrowd(b, 20) }

// BenchmarkTrajectory12hCrowd180 is the same with 180 accepted requests,
// a busy 95 % period: the binary search makes it cost about what 20 do.
func BenchmarkTrajectory12hCrowd180(b *testing.B) { benchCrowd(b, 180) }

func benchCrowd(b *testing.B, pending int64) {
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: 43200}
	c := newCrowd(crowdPlanned)
	self := &simRequest{req: r}
	c.group(r.Start).queued = 64
	for i := range pending {
		c.accepted(&simRequest{req: varq.Request{Nodes: 8, Walltime: 600, Start: r.Start},
			planned: i * 40000 / pending})
	}
	f := &crowdForecaster{f: varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
		if within >= 21600 {
			return 0.7, true
		}
		return 0.3, true
	}), c: c, self: self}
	b.ReportAllocs()
	for b.Loop() {
		buf, err := varq.Trajectory(f, r, 0, 0)
		if err != nil || len(buf) != 1440 {
			b.Fatal(len(buf), err)
		}
		_ = buf.PlanLatest(r, 0.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/trajectory")
}
