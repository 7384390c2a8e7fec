package varq

import "testing"

// BenchmarkTrajectory12hCrowd is BenchmarkTrajectory12h through the
// crowd-aware wrapper in CrowdPlanned mode, with 64 queued nodes and 20
// other accepted requests for the same start time (a busy 10 % period has
// a few; 95 % has up to about 180): each forecast finds the crowd by a
// binary search over them (a scan before).
func BenchmarkTrajectory12hCrowd(b *testing.B) {
	r := Request{Nodes: 4, Walltime: 3600, Start: 43200}
	c := newCrowd(CrowdPlanned)
	self := &simRequest{req: r}
	c.group(r.Start).queued = 64
	for i := range int64(20) {
		c.accepted(&simRequest{req: Request{Nodes: 8, Walltime: 600, Start: r.Start},
			rp: &Replanner{plan: Plan{Possible: true, Submit: i * 2000}}})
	}
	f := &crowdForecaster{f: &shiftingForecaster{cut: 21600, hi: 0.7, lo: 0.3}, c: c, self: self}
	benchTrajectory(b, f, r, 0)
}
