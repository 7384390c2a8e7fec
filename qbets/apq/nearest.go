package apq

// nearest returns the indices of the k smallest values of d, ascending by
// (d, index). It keeps a sorted buffer of the best k seen: after the first
// few hundred values most candidates lose against the buffer's worst in one
// comparison, so the cost is close to O(len(d)) for the small k APQ uses.
func nearest(d []float64, k int) []int {
	k = min(k, len(d))
	if k <= 0 {
		return nil
	}
	buf := make([]int, 0, k)
	for i, x := range d {
		if len(buf) == k && !(x < d[buf[k-1]]) {
			continue
		}
		// Insert i keeping buf sorted by d; equal values keep index order
		// because i is larger than every index already in buf.
		pos := len(buf)
		for pos > 0 && x < d[buf[pos-1]] {
			pos--
		}
		if len(buf) < k {
			buf = append(buf, 0)
		}
		copy(buf[pos+1:], buf[pos:len(buf)-1])
		buf[pos] = i
	}
	return buf
}
