package sched_test

import (
	"runtime"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Every node list Validate refuses gets the error of the first kind at
// fault, in list order, and costs no machine-sized allocation: the
// machine's slices are sized (up to 2^20 nodes, 2^26 GPUs) only once every
// kind has passed.
func TestNodesRejectedBeforeSizing(t *testing.T) {
	big := swf.Node{Name: "big", Count: 1 << 20, Cores: 4, GPUs: 64}
	bad := func(f func(*swf.Node)) swf.Node { n := big; f(&n); return n }
	for _, c := range []struct {
		nodes []swf.Node
		want  string
	}{
		{[]swf.Node{bad(func(n *swf.Node) { n.Cores = -1 })}, `sched: Nodes[0]: swf: node kind "big": amount -1 out of [0, 2^40]`},
		{[]swf.Node{bad(func(n *swf.Node) { n.Memory = -1 })}, `sched: Nodes[0]: swf: node kind "big": amount -1 out of [0, 2^40]`},
		{[]swf.Node{bad(func(n *swf.Node) { n.Named = map[string]int64{"": 1} })}, `sched: Nodes[0]: swf: node kind "big": named resource "" = 1`},
		{[]swf.Node{bad(func(n *swf.Node) { n.GPUs = -1 })}, `sched: Nodes[0]: swf: node kind "big": amount -1 out of [0, 2^40]`},
		{[]swf.Node{bad(func(n *swf.Node) { n.GPUs = 65 })}, `sched: Nodes[0] "big": 65 GPUs per node, above 64`},
		{[]swf.Node{bad(func(n *swf.Node) { n.Count = -1 })}, `sched: Nodes[0]: swf: node kind "big": count -1 out of [1, 2^20]`},
		{[]swf.Node{bad(func(n *swf.Node) { n.Count = 1<<20 + 1 })}, `sched: Nodes[0]: swf: node kind "big": count 1048577 out of [1, 2^20]`},
		// the first kind at fault speaks, whatever follows
		{[]swf.Node{big, {Name: "one", Count: 1}, bad(func(n *swf.Node) { n.Cores = -1 })}, "sched: more than 2^20 nodes"},
		{[]swf.Node{{Name: "half", Count: 1 << 19, GPUs: 64}, bad(func(n *swf.Node) { n.Cores = -1 }), {Name: "x", Count: 1 << 20}}, `sched: Nodes[1]: swf: node kind "big": amount -1 out of [0, 2^40]`},
		{[]swf.Node{{Name: "half", Count: 1 << 19, GPUs: 64}, {Name: "half2", Count: 1<<19 + 1, GPUs: 64}}, "sched: more than 2^20 nodes"},
	} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := sched.Config{Nodes: c.nodes}.Validate()
		runtime.ReadMemStats(&m1)
		if err == nil || err.Error() != c.want {
			t.Errorf("%d kinds: %v, want %q", len(c.nodes), err, c.want)
		}
		if b := m1.TotalAlloc - m0.TotalAlloc; b > 1<<20 {
			t.Errorf("%d kinds, %q: %d bytes allocated before the refusal", len(c.nodes), c.want, b)
		}
	}
}
