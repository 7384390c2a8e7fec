package convert

import (
	"errors"
	"strings"
)

// A job table's memory (ColumnMap's reqmem and usedmem): SWF's fields 10
// and 7 hold it in KB (KiB) per processor, the demand line requested
// memory per node (or per core) in MiB. A column's value is the job's
// memory in all unless its suffix says per node or per processor; its
// unit is the value's own ("4000M", "16G", "3.5GB"; K, M, G, T with or
// without B or iB, all powers of 1024, as Slurm writes them), else the
// suffix's, else MiB (Slurm's bare number), each counted in a note.
// Slurm's ReqMem "4000Mc" and "4Gn" (per CPU, per node) say their own
// scope.

// memScopes are the scopes of a memory suffix ("GB/node").
var memScopes = map[string]string{"": "job", "/job": "job", "/node": "node", "/proc": "proc", "/cpu": "proc", "/core": "proc"}

// memUnits are a memory suffix's units, bytes each.
var memUnits = map[string]int64{"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40}

// memSuffixes are reqmem's and usedmem's suffixes: UNIT or UNIT/SCOPE
// (bytes per unit).
var memSuffixes = func() map[string]int64 {
	m := map[string]int64{}
	for u, n := range memUnits {
		for s := range memScopes {
			m[u+s] = n
		}
	}
	return m
}()

// Reasons of the job tables' memory.
const (
	noteNoReqMem   = "no requested memory"
	noteNoUsedMem  = "no used memory"
	noteMemNoProcs = "memory per processor unknown (processors unknown)"
	noteMemNoNodes = "memory per node, nodes unknown (not kept)"
)

var errMemNegative = errors.New("a negative memory size")

// memSuffix reads a memory suffix ("gb/node") into bytes per unit and
// scope (job, node or proc); "" is MiB (0: bare numbers counted) a job.
func memSuffix(suf string) (int64, string) {
	if suf == "" {
		return 0, "job"
	}
	u, sc, _ := strings.Cut(suf, "/")
	if sc != "" {
		sc = "/" + sc
	}
	return memUnits[u], memScopes[sc]
}

// memory reads role's column (reqmem or usedmem) for r, whose processors
// (req, alloc) are read, the job of nodes and reqNodes: r.reqKB or
// r.usedKB per processor, and a request into dem.
func (tr *tableReader) memory(r *record, row []string, num int, role string, nodes, reqNodes int64, dem *demandIn) error {
	if _, ok := tr.col[role]; !ok {
		return nil
	}
	v := strings.TrimSpace(tr.get(row, role))
	missing := map[string]string{"reqmem": noteNoReqMem, "usedmem": noteNoUsedMem}[role]
	switch v {
	case "", "0", "None", "NaN", "nan", "null", "NULL", "N/A":
		r.note(missing)
		return nil
	}
	unit, scope := memSuffix(tr.s.memSuffix[role])
	if n := len(v); n > 1 && (v[n-1] == 'c' || v[n-1] == 'n') && strings.IndexByte("0123456789KMGTkmgt", v[n-2]) >= 0 {
		scope, v = map[byte]string{'c': "proc", 'n': "node"}[v[n-1]], v[:n-1] // Slurm's ReqMem "4000Mc", "4Gn"
	}
	if strings.HasPrefix(v, "-") {
		r.note("unreadable " + role)
		return tr.b.fail(num, tr.label(role), v, errMemNegative)
	}
	bare := unit == 0 && strings.Trim(v, "0123456789.") == ""
	if unit == 0 {
		unit = 1 << 20
	}
	sv := v
	if l := strings.ToLower(sv); len(l) > 3 && strings.HasSuffix(l, "ib") && strings.IndexByte("kmgt", l[len(l)-3]) >= 0 {
		sv = sv[:len(sv)-2] + "b" // ("GiB" is parseSize's "gb": powers of 1024 both)
	}
	bytes, err := parseSize(sv, float64(unit))
	if err != nil {
		r.note("unreadable " + role)
		return tr.b.fail(num, tr.label(role), v, err)
	}
	if bytes == 0 { // ("0G", "0.0", "0Mc": none, as "0"; they were dropped silently)
		r.note(missing)
		return nil
	}
	if bare {
		tr.bareMem++
	}
	procs, n := r.alloc, cmpPositive(nodes, reqNodes)
	if role == "reqmem" {
		procs, n = cmpPositive(r.req, r.alloc), cmpPositive(reqNodes, nodes)
	}
	kb := bytes / 1024 // per processor (proc), per node (node) or the job's
	switch {
	case scope == "proc":
	case scope == "node" && n <= 0:
		r.note(noteMemNoNodes)
		return nil
	case procs <= 0:
		r.note(noteMemNoProcs)
		kb = 0
	case scope == "node":
		kb = kb * float64(n) / float64(procs)
	default:
		kb /= float64(procs)
	}
	if role == "usedmem" {
		if kb > 0 {
			r.usedKB = kb
		}
		return nil
	}
	if kb > 0 {
		r.reqKB = kb
	}
	switch mib := bytes / (1 << 20); scope {
	case "proc":
		dem.memPerCPU = mib
	case "node":
		dem.memPerNode = mib
	default:
		dem.memTotal = mib
	}
	return nil
}
