package replay

import "github.com/batchq/batchq/qbets"

// mirror runs one method inside the QBETS pipeline of the evaluated
// qbets.Predictor (spec §2.6): the same clusters (read from the Predictor
// after each re-clustering), a queue-level fallback history (A13), the
// same jobs (those the Predictor's availability inference excluded are
// excluded here too), and change-point trimming driven by the method's own
// bound. With one box and no trimming it is the plain Table 4.1 predictor.
type mirror struct {
	m     Method
	env   *env
	boxes []qbets.ClusterInfo
	hists []*hist
	queue *hist // nil when there is one box
	trims int   // change points of cluster histories
}

// newMirror starts with the Predictor's initial boxes (one, or the fixed
// processor ranges); clustered adds the queue-level history from the
// start, as the Predictor keeps one whenever it clusters.
func newMirror(m Method, e *env, boxes []qbets.ClusterInfo, clustered bool) *mirror {
	mi := &mirror{m: m, env: e, boxes: boxes, hists: make([]*hist, len(boxes))}
	for i := range mi.hists {
		mi.hists[i] = newHist(m, e)
	}
	if clustered {
		mi.queue = newHist(m, e)
	}
	return mi
}

func inRange(r qbets.KeyRange, v int64) bool { return r.Lo <= v && v <= r.Hi }

// index is the box holding a job, −1 if none does.
func (mi *mirror) index(nodes int, wall int64) int {
	if len(mi.boxes) == 1 {
		return 0
	}
	ns := qbets.NodeSeconds(nodes, wall)
	for i, b := range mi.boxes {
		if inRange(b.Nodes, int64(nodes)) && inRange(b.Walltime, wall) && (b.NodeSeconds == qbets.Full || inRange(b.NodeSeconds, ns)) {
			return i
		}
	}
	return -1
}

func (mi *mirror) add(j Job) {
	if i := mi.index(j.Nodes, j.Walltime); i >= 0 && mi.hists[i].add(j.Wait) {
		mi.trims++
	}
	if mi.queue != nil {
		mi.queue.add(j.Wait)
	}
}

// predict is the method's bound for a job: its cluster's, else the
// queue-level history's.
func (mi *mirror) predict(nodes int, wall int64) (float64, bool) {
	if i := mi.index(nodes, wall); i >= 0 {
		if b, ok := mi.hists[i].bound(); ok {
			return b, true
		}
	}
	if mi.queue != nil {
		return mi.queue.bound()
	}
	return 0, false
}

// recluster adopts the Predictor's new boxes: a box seen before keeps its
// history and detector state; a new box is rebuilt by replaying the
// detector over its jobs of the full history in release order (A9), as
// the Predictor does.
func (mi *mirror) recluster(boxes []qbets.ClusterInfo, all []Job) {
	old := map[[6]int64]*hist{}
	for i, b := range mi.boxes {
		old[boxKey(b)] = mi.hists[i]
	}
	mi.boxes = boxes
	mi.hists = make([]*hist, len(boxes))
	var fresh []int
	for i, b := range boxes {
		if h, ok := old[boxKey(b)]; ok {
			mi.hists[i] = h
			continue
		}
		mi.hists[i] = newHist(mi.m, mi.env)
		fresh = append(fresh, i)
	}
	if len(fresh) > 0 {
		isFresh := make([]bool, len(boxes))
		for _, i := range fresh {
			isFresh[i] = true
		}
		for _, j := range all {
			if i := mi.index(j.Nodes, j.Walltime); i >= 0 && isFresh[i] {
				mi.hists[i].add(j.Wait)
			}
		}
	}
}

func boxKey(b qbets.ClusterInfo) [6]int64 {
	return [6]int64{b.Nodes.Lo, b.Nodes.Hi, b.Walltime.Lo, b.Walltime.Hi, b.NodeSeconds.Lo, b.NodeSeconds.Hi}
}
