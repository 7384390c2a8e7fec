package replay

import "github.com/batchq/batchq/qbets"

// mirror runs one method inside the QBETS pipeline of the evaluated
// qbets.Predictor (spec §2.6): the same clusters (read from the Predictor
// after each re-clustering), a queue-level fallback history (Q13), the
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

// boxIndex is the box holding a job, −1 if none does. Every mirror holds
// the same boxes, so Replay computes it once per job for all of them.
func boxIndex(boxes []qbets.ClusterInfo, nodes int, wall int64) int {
	if len(boxes) == 1 {
		return 0
	}
	for i, b := range boxes {
		if b.Contains(nodes, wall) {
			return i
		}
	}
	return -1
}

// add records a released wait of a job in box i (boxIndex).
func (mi *mirror) add(i int, wait int64) {
	if i >= 0 && mi.hists[i].add(wait) {
		mi.trims++
	}
	if mi.queue != nil {
		mi.queue.add(wait)
	}
}

// predict is the method's bound for a job in box i: its cluster's, else
// the queue-level history's.
func (mi *mirror) predict(i int) (float64, bool) {
	if i >= 0 {
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
// detector over its jobs of the full history in release order (Q9), as
// the Predictor does. of is the box of each job of all under boxes,
// computed on first need (nil until then) and returned for the next
// mirror.
func (mi *mirror) recluster(boxes []qbets.ClusterInfo, all []held, of []int) []int {
	old := map[[6]int64]*hist{}
	for i, b := range mi.boxes {
		old[boxKey(b)] = mi.hists[i]
	}
	mi.boxes = boxes
	mi.hists = make([]*hist, len(boxes))
	isFresh := make([]bool, len(boxes))
	fresh := false
	for i, b := range boxes {
		if h, ok := old[boxKey(b)]; ok {
			mi.hists[i] = h
			continue
		}
		mi.hists[i] = newHist(mi.m, mi.env)
		isFresh[i], fresh = true, true
	}
	if !fresh {
		return of
	}
	if of == nil {
		of = make([]int, len(all))
		for k, j := range all {
			of[k] = boxIndex(boxes, j.nodes, j.wall)
		}
	}
	for k, j := range all {
		if i := of[k]; i >= 0 && isFresh[i] {
			mi.hists[i].add(j.wait)
		}
	}
	return of
}

func boxKey(b qbets.ClusterInfo) [6]int64 {
	return [6]int64{b.Nodes.Lo, b.Nodes.Hi, b.Walltime.Lo, b.Walltime.Hi, b.NodeSeconds.Lo, b.NodeSeconds.Hi}
}
