package convert

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/swf"
)

// Reasons for the demand rules in Report.Anomalies (the package
// documentation lists them).
const (
	noteDemandCores    = "demand: CPUs not a multiple of the nodes, cores per node rounded up"
	noteDemandMem      = "demand: memory not a multiple of the nodes (or CPUs), rounded up"
	noteDemandGPUs     = "demand: GPUs not a multiple of the nodes, per node rounded up"
	noteDemandNamed    = "demand: a GRES not a multiple of the nodes, per node rounded up"
	noteDemandOneNode  = "demand: GPUs or GRES without a node count, one node assumed"
	noteDemandMemNodes = "demand: memory per node without a node count, not kept"
	noteDemandAlloc    = "demand: from AllocTRES (no ReqTRES)"
	noteDemandCluster  = "demand: licences and burst buffers not kept (not per node)"
	noteDemandShapes   = "demand: select chunks of different shapes, the largest of each per node"
	noteDemandPack     = "demand: place=pack, all chunks on one node"
	noteDemandProcs    = "demand: procs beside nodes, cores spread over the nodes"
	noteDemandBad      = "demand: not kept (an unreadable field)"
	noteDemandRange    = "demand: not kept (an amount out of range)"
)

// demandIn is what a log records of a job's demand, before it becomes a
// swf.Demand. Slurm gives totals for the job, PBS amounts per chunk (per
// node): the parser fills what it has, 0 meaning not recorded.
type demandIn struct {
	nodes      int64   // node count
	cpus       int64   // CPUs in all (0: the job's requested or allocated processors)
	cores      int64   // cores per node, when the log says so
	memTotal   float64 // MiB for the whole job
	memPerNode float64 // MiB
	memPerCPU  float64 // MiB
	gpus       int64   // whole GPUs for the whole job
	gpusNode   int64   // whole GPUs per node, when the log says so
	gpuMilli   int64   // GPUs per node in thousandths (a share of one GPU), when the log says so
	models     []string
	named      map[string]int64 // per-node resources (Slurm GRES) for the whole job
	excl       bool
	dropped    bool // licences or burst buffers, cluster-wide: not kept
	bad        bool // a field of the demand was unreadable: keep none
}

// any reports whether the log recorded anything beyond processors.
func (d *demandIn) any() bool {
	return d.nodes > 0 || d.memTotal > 0 || d.memPerNode > 0 || d.memPerCPU > 0 || d.gpus > 0 ||
		d.gpusNode > 0 || d.gpuMilli > 0 || len(d.named) > 0 || d.excl || d.bad
}

// demand makes r's swf.Demand (nil when the log recorded nothing beyond
// processors), noting every rule that changed a value or dropped it.
func (b *builder) demand(r *record) *swf.Demand {
	return makeDemand(r.dem, cmpPositive(r.req, r.alloc), r.note)
}

// makeDemand is in as a swf.Demand, for a job of procs processors (≤ 0
// unknown), noting the rules that changed or dropped a value.
func makeDemand(in *demandIn, procs int64, note func(string)) *swf.Demand {
	if in == nil {
		return nil
	}
	if in.dropped {
		note(noteDemandCluster)
	}
	if !in.any() {
		return nil
	}
	if in.bad {
		note(noteDemandBad)
		return nil
	}
	d := &swf.Demand{Nodes: in.nodes, Exclusive: in.excl, GPUModels: slices.Clone(in.models)}
	cpus := in.cpus
	if cpus <= 0 {
		cpus = max(procs, 0)
	}
	if d.Nodes == 0 && (in.gpus > 0 || in.gpusNode > 0 || len(in.named) > 0) {
		d.Nodes = 1
		note(noteDemandOneNode)
	}
	if n := d.Nodes; n > 0 {
		d.Cores = in.cores
		if d.Cores == 0 && cpus > 0 {
			d.Cores = ceilDiv(cpus, n, note, noteDemandCores)
		}
		switch {
		case in.memPerNode > 0:
			d.Memory = mib(in.memPerNode)
		case in.memTotal > 0:
			d.Memory = ceilDiv(mib(in.memTotal), n, note, noteDemandMem)
		case in.memPerCPU > 0 && d.Cores > 0:
			d.Memory = mib(in.memPerCPU * float64(d.Cores))
		}
		d.GPUs = in.gpusNode
		if d.GPUs == 0 && in.gpus > 0 {
			d.GPUs = ceilDiv(in.gpus, n, note, noteDemandGPUs)
		}
		d.GPUs *= 1000
		if in.gpuMilli > 0 {
			d.GPUs = in.gpuMilli
		}
		for _, k := range slices.Sorted(maps.Keys(in.named)) {
			if d.Named == nil {
				d.Named = map[string]int64{}
			}
			d.Named[k] = ceilDiv(in.named[k], n, note, noteDemandNamed)
		}
	} else {
		d.Cores = cpus
		switch {
		case in.memPerCPU > 0:
			d.Memory = mib(in.memPerCPU)
		case in.memTotal > 0 && cpus > 0:
			d.Memory = ceilDiv(mib(in.memTotal), cpus, note, noteDemandMem)
		case in.memPerNode > 0:
			note(noteDemandMemNodes)
		}
	}
	if d.Validate() != nil {
		note(noteDemandRange)
		return nil
	}
	return d
}

// ceilDiv is ⌈a/n⌉, noting why when it is not exact.
func ceilDiv(a, n int64, note func(string), why string) int64 {
	q := a / n
	if a%n != 0 {
		q++
		note(why)
	}
	return q
}

// mib rounds a size in MiB up to a whole MiB, bounded (Validate rejects
// what is past 2^40).
func mib(v float64) int64 {
	return int64(math.Ceil(min(v, 1<<41)))
}

// slurmTRES reads a Slurm TRES list into in: sacct's "cpu=4,mem=8000M,
// node=1,gres/gpu=2,gres/gpu:a100=2,billing=4" (text true, mem with a
// unit) or sacct --json's entries (mem in MB). It reports the first
// unreadable value and its key.
func slurmTRES(in *demandIn, entries []tresEntry) (key, value string, err error) {
	models := map[string]bool{}
	var modelGPUs int64
	defer func() {
		if in.gpus == 0 {
			in.gpus = modelGPUs // only typed counts listed
		}
	}()
	for _, e := range entries {
		switch {
		case e.key == "":
			return "", e.value, errors.New("not TYPE=COUNT")
		case e.key == "cpu":
			n, err := parseProcs(e.value)
			if err != nil {
				return e.key, e.value, err
			}
			in.cpus = n
		case e.key == "node":
			n, err := parseProcs(e.value)
			if err != nil {
				return e.key, e.value, err
			}
			in.nodes = n
		case e.key == "mem":
			v, err := parseSize(e.value, 1<<20)
			if err != nil {
				return e.key, e.value, err
			}
			in.memTotal = v / (1 << 20)
		case e.key == "gres/gpu":
			n, err := parseProcs(e.value)
			if err != nil {
				return e.key, e.value, err
			}
			in.gpus = n
		case strings.HasPrefix(e.key, "gres/gpu:"):
			n, err := parseProcs(e.value)
			if err != nil {
				return e.key, e.value, err
			}
			modelGPUs += n // each ≤ 2^24, and few
			if m := strings.TrimPrefix(e.key, "gres/gpu:"); m != "" && n > 0 && !models[m] {
				models[m] = true
				in.models = append(in.models, m)
			}
		case e.key == "gres/gpumem" || e.key == "gres/gpuutil":
			// Slurm's measures of GPU use (AccountingStorageTRES), not a
			// request; gpumem is written with a unit ("4G"), which was
			// "not a number" and cost the whole demand.
		case strings.HasPrefix(e.key, "gres/"):
			n, err := gresCount(e.value)
			if err != nil {
				return e.key, e.value, err
			}
			if n > 0 {
				if in.named == nil {
					in.named = map[string]int64{}
				}
				in.named[e.key] = n
			}
		case strings.HasPrefix(e.key, "license/") || strings.HasPrefix(e.key, "bb/"):
			in.dropped = true
		}
		// billing, energy, fs/*, vmem, pages: accounting, not a request
		// (never parsed, so a unit such as fs/disk=1.5M cannot fail them).
	}
	return "", "", nil
}

// gresCount reads a GRES count: a whole number, or a size with a unit
// ("40G"), which Slurm writes for a TRES counted in megabytes as it
// writes mem: read as mem is, in MiB (sacct --json gives the number).
func gresCount(s string) (int64, error) {
	n, err := parseCount(s)
	if err == nil || s == "" || s[len(s)-1] >= '0' && s[len(s)-1] <= '9' {
		return n, err
	}
	v, serr := parseSize(s, 1<<20)
	switch {
	case serr == errRange || serr == nil && v/(1<<20) > maxSeconds:
		return 0, errRange
	case serr != nil:
		return 0, err
	}
	return mib(v / (1 << 20)), nil
}

// tresEntry is one TRES of a list, keyed as sacct prints it ("gres/gpu:a100").
type tresEntry struct{ key, value string }

// tresEntries splits sacct's text form. An item that is not TYPE=COUNT
// ("cpu", "=4", a damaged field) keeps its text as the value of an empty
// key, which slurmTRES refuses: it was dropped without a word, and the
// job's demand read from the other columns.
func tresEntries(s string) []tresEntry {
	var out []tresEntry
	for kv := range strings.SplitSeq(s, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			out = append(out, tresEntry{k, v})
		} else if strings.TrimSpace(kv) != "" {
			out = append(out, tresEntry{"", kv})
		}
	}
	return out
}

// tresItem is a TRES entry as its list writes it, for messages.
func tresItem(key, value string) string {
	if key == "" {
		return value
	}
	return key + "=" + value
}

// slurmGRES reads the GPUs per node of an old sacct GRES column
// ("gpu:2", "gpu:tesla:2", "gpu:tesla:2(IDX:0-1),mic:1"; Slurm < 19.05),
// with the models named.
func slurmGRES(s string) (int64, []string, error) {
	var gpus int64
	var models []string
	for item := range strings.SplitSeq(s, ",") {
		item, _, _ = strings.Cut(item, "(")
		parts := strings.Split(item, ":")
		if parts[0] != "gpu" {
			continue
		}
		n := int64(1)
		if len(parts) > 1 {
			last := parts[len(parts)-1]
			c, err := parseProcs(last)
			switch {
			case err == errNumber && len(parts) == 2:
				parts = append(parts, "1") // "gpu:tesla": one GPU
			case err != nil:
				return 0, nil, err
			default:
				n = c
			}
			if len(parts) == 3 && parts[1] != "" && n > 0 {
				// (Slurm 23.11's gres_detail lists a node's every GPU
				// type, "gpu:h200:0(IDX:)" for one the job has none of:
				// it was a model the job accepted.)
				models = append(models, parts[1])
			}
		}
		gpus += n
		if gpus > maxProcs {
			return 0, nil, errProcs
		}
	}
	return gpus, models, nil
}

// pbsChunk is one "+" part of a PBS select or Torque nodes spec: n nodes
// (chunks) alike.
type pbsChunk struct {
	n, cpus, gpus int64
	mem           float64 // MiB
	model         string
}

// pbsChunks reads a select ("2:ncpus=8:ngpus=1:mem=32gb+1:ncpus=4",
// per "ncpus") or a nodes spec ("2:ppn=8:gpus=2+n5:ppn=4", per "ppn").
// A chunk starting with a host name or property is one node; a chunk
// without per has 1 CPU. Counts spec already failed on only set bad;
// the sizes and GPUs it does not read are reported here.
func (p *pbsParser) pbsChunks(r *record, field, s, per string) (chunks []pbsChunk, bad bool) {
	for chunk := range strings.SplitSeq(s, "+") {
		toks := strings.Split(chunk, ":")
		c := pbsChunk{n: 1, cpus: 1}
		if n, err := parseProcs(toks[0]); err == nil {
			c.n = n
		} else if err != errNumber {
			return nil, true
		}
		for _, t := range toks[1:] {
			k, v, _ := strings.Cut(t, "=")
			switch k {
			case per:
				n, err := parseProcs(v)
				if err != nil {
					return nil, true
				}
				c.cpus = n
			case "mem":
				m, err := parseSize(v, 1)
				if err != nil {
					p.bad(r, field, s, err)
					return nil, true
				}
				c.mem = m / (1 << 20)
			case "ngpus", "gpus":
				n, err := parseProcs(v)
				if err != nil {
					p.bad(r, field, s, err)
					return nil, true
				}
				c.gpus = n
			case "gpu_model", "gpu_type":
				c.model = v
			}
		}
		chunks = append(chunks, c)
	}
	return chunks, false
}

// demand reads what a PBS job asks beyond processors (see the package
// documentation, "Demands"): the chunks of its select or nodes spec (one
// node each; the largest of each amount per node when they differ;
// place=pack puts them all on one node), Resource_List.mem (the job's
// total, unless the chunks give theirs) or pmem (per process),
// Resource_List.ngpus when the chunks give no GPUs, nodect when there is
// no spec, place=excl or exclhost and naccesspolicy=singlejob for whole
// nodes.
func (p *pbsParser) demand(r *record, kv map[string]string) {
	var in demandIn
	var chunks []pbsChunk
	switch {
	case kv["Resource_List.select"] != "":
		chunks, in.bad = p.pbsChunks(r, "Resource_List.select", kv["Resource_List.select"], "ncpus")
	case kv["Resource_List.nodes"] != "":
		chunks, in.bad = p.pbsChunks(r, "Resource_List.nodes", kv["Resource_List.nodes"], "ppn")
		if kv["Resource_List.procs"] != "" && len(chunks) > 0 {
			r.note(noteDemandProcs)
			for i := range chunks {
				chunks[i].cpus = 0
			}
		}
	}
	place := kv["Resource_List.place"]
	pack := strings.Contains(place, "pack") && len(chunks) > 0
	var shape pbsChunk
	for i, c := range chunks {
		if pack {
			// Terms ≤ 2^48, sums checked at each: no overflow.
			shape.cpus += c.n * c.cpus
			shape.gpus += c.n * c.gpus
			shape.mem += float64(c.n) * c.mem
			if shape.cpus > maxProcs || shape.gpus > maxProcs {
				in.bad = true
				break
			}
		} else {
			in.nodes += c.n
			if i > 0 && (c.cpus != shape.cpus || c.gpus != shape.gpus || c.mem != shape.mem) {
				r.note(noteDemandShapes)
			}
			shape.cpus, shape.gpus, shape.mem = max(shape.cpus, c.cpus), max(shape.gpus, c.gpus), max(shape.mem, c.mem)
			if in.nodes > maxProcs {
				in.bad = true
				break
			}
		}
		if c.model != "" && !slices.Contains(in.models, c.model) {
			in.models = append(in.models, c.model)
		}
	}
	if pack {
		in.nodes = 1
		r.note(noteDemandPack)
	}
	in.cores, in.gpusNode, in.memPerNode = shape.cpus, shape.gpus, shape.mem
	if len(chunks) == 0 {
		if n := kv["Resource_List.nodect"]; n != "" {
			if c, err := parseProcs(n); err != nil {
				p.bad(r, "Resource_List.nodect", n, err)
				in.bad = true
			} else {
				in.nodes = c
			}
		}
	}
	if in.memPerNode == 0 {
		for _, k := range []string{"Resource_List.mem", "Resource_List.pmem"} {
			v := kv[k]
			if v == "" {
				continue
			}
			if m, err := parseSize(v, 1); err != nil {
				in.bad = true // resources reported it
			} else if k == "Resource_List.mem" {
				in.memTotal = m / (1 << 20)
			} else {
				in.memPerCPU = m / (1 << 20)
			}
			break
		}
	}
	if v := kv["Resource_List.ngpus"]; in.gpusNode == 0 && v != "" {
		if n, err := parseProcs(v); err != nil {
			p.bad(r, "Resource_List.ngpus", v, err)
			in.bad = true
		} else {
			in.gpus = n
		}
	}
	in.excl = strings.Contains(place, "excl") || kv["Resource_List.naccesspolicy"] == "singlejob"
	if in.any() {
		r.dem = &in
	}
}
