package convert

import (
	"slices"
	"strings"
)

// Reasons of the snapshot demand rules below (Report.Anomalies).
const (
	noteSnapNodes     = "demand: the controller's node count above the TRES's, kept"
	noteHeldNodes     = "demand: more nodes held than the TRES's node count, those kept"
	noteSnapGPUDetail = "demand: GPUs from gres_detail (not in the TRES)"
	noteSnapGPUSpec   = "demand: GPUs from TresPerNode/Job/Task (not in the TRES)"
	noteSnapGPUSocket = "demand: GPUs per socket read as per node (a lower bound)"
)

// moreNodes raises the demand's node count to nodes when it is larger,
// noting why when the TRES named fewer: the nodes a job held (sacct's
// NNodes, jobcomp's NodeCnt, a running job's in a snapshot) or, for a
// pending one, Slurm's estimate from the partition's node sizes
// (node_count, NumNodes). A job of 128 CPUs on 64-CPU nodes has node=1 in
// its requested TRES and 2 nodes, and one node of 128 cores fits no node
// of the machine; --gpus=8 on 4-GPU nodes asks node=1, gres/gpu=8.
func moreNodes(in *demandIn, nodes int64, note func(string), why string) {
	if nodes <= in.nodes {
		return
	}
	if in.nodes > 0 {
		note(why)
	}
	in.nodes = nodes
}

// allocMem gives a demand read from a running job's allocation the
// memory of its request (req) when the allocation has none: Slurm leaves
// mem out of tres_alloc_str where memory is not a consumable resource
// (SelectTypeParameters=CR_CPU, as Slurm 22.05's squeue --json shows:
// "cpu=6,node=1,billing=6" beside a request "cpu=6,mem=4000M,..."). An
// unreadable request gives none.
func allocMem(in *demandIn, req string) {
	if in.memTotal > 0 || in.memPerNode > 0 || in.memPerCPU > 0 || req == "" || req == "(null)" {
		return
	}
	var r demandIn
	if _, _, err := slurmTRES(&r, tresEntries(req)); err == nil {
		in.memTotal = r.memTotal
	}
}

// gpuSpec is one of a snapshot's GPU fields beside the TRES, as Slurm
// prints it: per node ("gres/gpu:4", "gres:gpu:a100:2", "gpu:2"), for
// the job, per task ("gres/gpu=2", times the tasks) or per socket.
type gpuSpec struct {
	field, value string
	per          int // perNode, perJob, perTask, perSocket
}

const (
	perNode = iota
	perJob
	perTask
	perSocket
)

// snapGPUs fills the GPUs of a demand whose TRES list has none — a
// cluster without gres/gpu in AccountingStorageTRES, where the TRES
// strings of slurmrestd and scontrol name no GPU — from detail (a
// running job's allocation per node, slurmrestd's gres_detail:
// "gpu:h100:4(IDX:0-3)"), else the first spec given, for a job of tasks
// tasks. It returns the field and value it could not read.
func snapGPUs(in *demandIn, detail []string, specs []gpuSpec, tasks int64, note func(string)) (field, value string, err error) {
	if in.gpus > 0 || in.gpusNode > 0 || len(in.models) > 0 {
		return "", "", nil
	}
	var most int64
	var models []string
	for _, d := range detail {
		n, m, err := slurmGRES(d)
		if err != nil {
			return "gres_detail", d, err
		}
		most = max(most, n)
		models = append(models, m...)
	}
	if most > 0 {
		in.gpusNode = most
		in.models = dedup(models)
		note(noteSnapGPUDetail)
		return "", "", nil
	}
	for _, s := range specs {
		v := s.value
		if v == "" || v == "N/A" || v == "(null)" {
			continue
		}
		// Slurm writes the per-task form as a TRES list ("gres/gpu=2").
		n, m, err := slurmGRES(strings.NewReplacer("gres:", "", "gres/", "", "=", ":").Replace(v))
		if err != nil {
			return s.field, v, err
		}
		if n == 0 {
			continue
		}
		switch s.per {
		case perNode:
			in.gpusNode = n
		case perJob:
			in.gpus = n
		case perTask:
			if tasks > maxProcs { // (before the product: n ≤ 2^24, so no overflow)
				return s.field, v, errProcs
			}
			if in.gpus = n * max(tasks, 1); in.gpus > maxProcs {
				return s.field, v, errProcs
			}
		case perSocket:
			in.gpusNode = n
			note(noteSnapGPUSocket)
		}
		in.models = dedup(m)
		note(noteSnapGPUSpec)
		return "", "", nil
	}
	return "", "", nil
}

func dedup(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
