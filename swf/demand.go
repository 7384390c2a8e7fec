package swf

import (
	"errors"
	"fmt"
	"slices"
)

// Demand is what a job asks of a machine of nodes (Node) beyond SWF's
// processor count: nodes, cores, memory, GPUs or a share of one GPU, the
// GPU models it accepts, named resources, whole nodes. It is the Slurm
// shape (--nodes, --cpus, --mem, --gres=gpu:k, --exclusive) and the
// Kubernetes one (one node, milli-cores, a GPU share).
//
// Amounts are in the machine's own units, the same as its Node kinds:
// swf/convert's Slurm and PBS readers use cores and MiB, its Alibaba
// reader thousandths of a core and MiB. GPUs are always in thousandths of
// one GPU: 1000 is one GPU, 4000 four, 460 a 46% share of one GPU, which
// shares that GPU with other jobs up to 1000.
//
// A job without a Demand (Job.Demand nil) asks for Size() cores spread
// over as many nodes as it takes, and nothing else.
//
// # Demand lines
//
// SWF has no field for a Demand: it goes on a demand line, a comment line
// right before the job's line:
//
//	;= nodes=2 cores=32 mem=65536 gpus=4000 models=V100M16|V100M32 excl +license/matlab=1
//	17 3600 120 7200 64 -1 -1 64 10800 -1 1 4 -1 -1 2 -1 -1 -1
//
// ";=" and a blank start it (";=====" stays a comment). Each token is
// nodes=N, cores=N, mem=N, gpus=N (decimal counts in [0, 2^40], the
// fields of Demand in its units: gpus in thousandths of a GPU), models=
// the accepted GPU models separated by '|', the flag excl, or +NAME=N a
// named resource; any order, each at most once. Names and models are
// written with %XX for blanks, '%', '=', '|' and bytes outside printable
// ASCII. Zero amounts and empty lists are left out, so ";=" alone is a
// Demand of zeros; a job without a demand line has Demand nil.
//
// Why so: every SWF reader skips ';' lines, so a file with demands is
// still 18 fields a line to the archive's tools, to the peers' simulators
// and to awk; no companion file can drift from its jobs. The line goes
// before its job, not after, so a Reader returns each job as soon as its
// line is read, with no read-ahead (a live feed is not held back a line),
// and a file cut between a demand line and its job ends in an error, not
// in a job silently without its demand. Unknown keys are errors and
// named resources carry a '+', so that a key added later is never read as
// a resource.
//
// The contract: Writer writes a job's demand line when Demand is not nil
// (and refuses a Demand that does not validate), Reader gives it back:
// Read → Write → Read is the identity on the jobs and their demands (an
// empty GPUModels or Named reading back as nil). A demand line must be
// followed by its job line, blank lines aside: another comment or demand
// line, or the end of the file, is an error. A malformed demand line, or
// one whose Demand does not validate, is a *ParseError whose Key names
// the token's key (Field 0, wrapping ErrSyntax or ErrRange); in lenient
// mode the line is skipped and counted (Stats.Skipped) and its job read
// without it, and a malformed job line takes its demand line with it.
// Demand lines are not comments: they are not in Header.Lines nor in
// Stats.LateComments, and Stats.Demands counts the jobs that had one.
// Jobs without one cost what they did (no allocation per job).
type Demand struct {
	// Nodes is the number of nodes; 0 means any: the cores go on as many
	// nodes as it takes (Memory is then per core, and the job asks no
	// GPUs or named resources).
	Nodes int64
	// Cores is the cores per node (Nodes > 0) or in all (Nodes == 0); 0
	// means the job's Size(), divided among its Nodes rounded up.
	Cores int64
	// Memory is the memory per node (Nodes > 0) or per core (Nodes == 0).
	Memory int64
	// GPUs is the GPUs per node in thousandths of a GPU: a multiple of
	// 1000 for whole GPUs, or below 1000 for a share of one GPU.
	GPUs int64
	// GPUModels are the GPU models the job accepts; empty means any.
	GPUModels []string
	// Named are named resources per node (licences, local disk, burst
	// buffer), by name; a node without the name has none of it.
	Named map[string]int64
	// Exclusive asks for whole nodes: no other job shares them.
	Exclusive bool
}

// Node is a kind of node of a machine: Count nodes alike. Amounts are in
// the machine's units (see Demand); GPUs is whole GPUs.
type Node struct {
	Name     string // the kind's name, for reports
	Count    int64  // how many nodes of this kind
	Cores    int64
	Memory   int64
	GPUs     int64
	GPUModel string           // the model of its GPUs, "" if unnamed
	Named    map[string]int64 // named resources on each node
}

// maxAmount bounds every amount and count, so that sums over a machine of
// 2^20 nodes never overflow.
const maxAmount = 1 << 40

// Validate reports a demand no machine can read: a negative amount, an
// amount above 2^40, a GPU demand above one GPU that is not whole GPUs, a
// spread job (Nodes 0) that asks for GPUs or named resources.
func (d *Demand) Validate() error {
	for _, v := range []struct {
		name string
		n    int64
	}{{"nodes", d.Nodes}, {"cores", d.Cores}, {"memory", d.Memory}, {"GPUs", d.GPUs}} {
		if v.n < 0 || v.n > maxAmount {
			return fmt.Errorf("swf: demand: %s %d out of [0, 2^40]", v.name, v.n)
		}
	}
	if d.GPUs > 1000 && d.GPUs%1000 != 0 {
		return fmt.Errorf("swf: demand: %d thousandths of a GPU: above one GPU only whole GPUs", d.GPUs)
	}
	if k, ok := firstBadNamed(d.Named); ok {
		return fmt.Errorf("swf: demand: named resource %q = %d", k, d.Named[k])
	}
	if d.Nodes == 0 && (d.GPUs > 0 || len(d.Named) > 0) {
		return errors.New("swf: demand: GPUs or named resources need a node count (Nodes > 0)")
	}
	return nil
}

// Validate reports a node kind that cannot exist.
func (n *Node) Validate() error {
	if n.Count <= 0 || n.Count > 1<<20 {
		return fmt.Errorf("swf: node kind %q: count %d out of [1, 2^20]", n.Name, n.Count)
	}
	for _, v := range []int64{n.Cores, n.Memory, n.GPUs} {
		if v < 0 || v > maxAmount {
			return fmt.Errorf("swf: node kind %q: amount %d out of [0, 2^40]", n.Name, v)
		}
	}
	if n.GPUs > 1<<10 {
		return fmt.Errorf("swf: node kind %q: %d GPUs, above 1024", n.Name, n.GPUs)
	}
	if k, ok := firstBadNamed(n.Named); ok {
		return fmt.Errorf("swf: node kind %q: named resource %q = %d", n.Name, k, n.Named[k])
	}
	return nil
}

// firstBadNamed returns the first by name of the named resources whose
// name is empty or amount out of [0, 2^40]: the same one on every call,
// which the map's order is not.
func firstBadNamed(named map[string]int64) (string, bool) {
	bad, found := "", false
	for k, v := range named {
		if (k == "" || v < 0 || v > maxAmount) && (!found || k < bad) {
			bad, found = k, true
		}
	}
	return bad, found
}

// AcceptsModel reports whether the demand accepts GPUs of model m.
func (d *Demand) AcceptsModel(m string) bool {
	return len(d.GPUModels) == 0 || slices.Contains(d.GPUModels, m)
}
