package apq

// noise is the dbscan label of a point in no cluster.
const noise = -1

// dbscan clusters the 2-D points (x[i], y[i]) by density (Ester et al.
// 1996) with Euclidean distance and returns one label per point: a cluster
// number from 0, or noise. N_ε(p) includes p; p is a core point when
// |N_ε(p)| ≥ minPts; a border point joins the first cluster that reaches
// it (spec §2.6). It costs O(n²), which is fine for the closest k% of the
// history (a few hundred points).
func dbscan(x, y []float64, eps float64, minPts int) []int {
	n := len(x)
	const unvisited = -2
	labels := make([]int, n)
	for i := range labels {
		labels[i] = unvisited
	}
	eps2 := eps * eps
	neigh := func(p int, dst []int) []int {
		dst = dst[:0]
		for q := range n {
			dx, dy := x[p]-x[q], y[p]-y[q]
			if dx*dx+dy*dy <= eps2 {
				dst = append(dst, q)
			}
		}
		return dst
	}
	var nb, nb2, queue []int
	cluster := 0
	for p := range n {
		if labels[p] != unvisited {
			continue
		}
		nb = neigh(p, nb)
		if len(nb) < minPts {
			labels[p] = noise // may become a border point later
			continue
		}
		labels[p] = cluster
		queue = append(queue[:0], nb...)
		for len(queue) > 0 {
			q := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			if labels[q] == noise {
				labels[q] = cluster // border point
			}
			if labels[q] != unvisited {
				continue
			}
			labels[q] = cluster
			nb2 = neigh(q, nb2)
			if len(nb2) >= minPts {
				queue = append(queue, nb2...)
			}
		}
		cluster++
	}
	return labels
}
