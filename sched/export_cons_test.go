package sched

// Held is a record's node shares on a machine of nodes, as (node, GPUs
// bit set, thousandths held of each of those GPUs), for the tests.
func Held(res *Result, k int) [][3]int64 {
	var out [][3]int64
	for _, sh := range perNode(res.sharesOf(k)) {
		out = append(out, [3]int64{int64(sh.node), int64(sh.gpus), int64(sh.gpuPart)})
	}
	return out
}
