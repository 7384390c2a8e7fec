package convert

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/swf"
)

// names numbers distinct names from 1 in order of first use.
type names struct {
	num  map[string]int64
	list []string
}

func newNames() *names { return &names{num: map[string]int64{}} }

func (n *names) number(s string) int64 {
	if s == "" {
		return swf.Unknown
	}
	if k, ok := n.num[s]; ok {
		return k
	}
	n.list = append(n.list, s)
	n.num[s] = int64(len(n.list))
	return int64(len(n.list))
}

// mapping renders "k name" entries for the header, names made safe for a
// comment line (no control characters, at most about 64 bytes).
func (n *names) mapping() []string {
	out := make([]string, len(n.list))
	for i, s := range n.list {
		out[i] = strconv.Itoa(i+1) + " " + headerSafe(s)
	}
	return out
}

func headerSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0xfffd {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	if s = strings.TrimSpace(s); s == "" {
		return "?"
	}
	return clip(s)
}

// formats names each input format in the header's Conversion line.
var formats = map[string]string{
	"sacct":      "Slurm sacct --parsable2",
	"sacct-json": "Slurm sacct --json",
	"jobcomp":    "Slurm jobcomp/filetxt",
	"pbs":        "PBS/Torque accounting log",
	"supercloud": "Slurm database job table (MIT SuperCloud slurm-log.csv)",
	"alcf":       "job log of ALCF (DIM_JOB_COMPOSITE)",
	"table":      "job table read by a column map",
}

// statusNotes say how each format's job states became SWF statuses.
var statusNotes = map[string]string{
	"slurm": "Status from the job state, never the exit code: 1 COMPLETED; 0 FAILED, NODE_FAIL, OUT_OF_MEMORY, " +
		"TIMEOUT (killed at its limit; run time kept), PREEMPTED, BOOT_FAIL, DEADLINE; 5 CANCELLED " +
		"(before start: wait, run time and processors -1; after start: times kept)",
	"exit": "Status from the exit status: 1 when 0, else 0 (the table has no job state)",
	"pbs": "Status from the record that ended the job: 1 E with Exit_status 0; 0 E with another exit status " +
		"(including -11, walltime exceeded); 5 D (deleted) or A (aborted), before or after the start",
}

func (b *builder) header(base, last, maxAlloc int64, users, groups, queues, exes, qos *names) *swf.Header {
	loc := b.opt.location()
	h := &swf.Header{
		Version:      "2.2",
		Computer:     b.opt.Computer,
		Installation: b.opt.Installation,
		Conversion:   "batchq swf/convert from a " + formats[b.format],
		MaxJobs:      int64(b.rep.Jobs),
		MaxRecords:   int64(b.rep.Jobs),
		MaxProcs:     b.opt.MaxProcs,
		MaxQueues:    int64(len(queues.list)),
		Queue:        queues.mapping(),
	}
	if b.rep.Jobs > 0 {
		setSpan(h, base, last, loc)
	}
	h.Note = append(h.Note,
		"Submit times are seconds after UnixStartTime (the first submit); job k is the k-th submitted. "+
			"Queue is the partition (queue) numbered from 1; User, Group and Executable (the job name) are numbered "+
			"from 1 in order of first use. Processors are CPUs (cores), never nodes. Memory is per processor, in KB.")
	switch {
	case b.format == "pbs":
		h.Note = append(h.Note, statusNotes["pbs"])
	case b.format == "alcf" || b.format == "table" && b.rep.States["exit 0"]+b.rep.States["exit other"] > 0:
		h.Note = append(h.Note, statusNotes["exit"])
	default:
		h.Note = append(h.Note, statusNotes["slurm"])
	}
	if b.rep.Demands > 0 {
		h.Note = append(h.Note, "A line \";= nodes=N cores=C mem=MiB gpus=G ...\" before a job's line is what the job asks "+
			"of each of N nodes (cores, memory in MiB, GPUs in thousandths, models, excl for whole nodes; without nodes, "+
			"cores in all and memory per core): batchq's demand extension, a comment to tools that read the 18 fields.")
	}
	groupKey := "Group"
	if b.accounts() {
		groupKey = "Account"
		h.MaxPartitions, h.Partitions, h.Partition = int64(len(qos.list)), "Slurm QOS", qos.mapping()
		h.Note = append(h.Note, "Group is the Slurm account (the \"Account:\" lines name them), not the Unix group; "+
			"Partition is the job's QOS (the \"Partition:\" lines name them).")
	}
	if b.opt.MaxProcs == 0 {
		h.Note = append(h.Note, fmt.Sprintf("MaxProcs unknown: the largest job was allocated %d processors.", maxAlloc))
	}
	if !b.opt.HideNames {
		for _, kv := range []struct {
			key string
			n   *names
		}{{"User", users}, {groupKey, groups}, {"Executable", exes}} {
			for _, m := range kv.n.mapping() {
				h.Other = append(h.Other, swf.KeyValue{Key: kv.key, Value: m})
			}
		}
	}
	return h
}

// setSpan fills h's start (the first submit, base) and end (last), epoch
// seconds, with the zone they are shown in.
func setSpan(h *swf.Header, base, last int64, loc *time.Location) {
	t0 := time.Unix(base, 0).In(loc)
	_, off := t0.Zone()
	h.UnixStartTime, h.TimeZone, h.TimeZoneString = base, int64(off), loc.String()
	h.StartTime = t0.Format("Mon Jan 02 15:04:05 MST 2006")
	h.EndTime = time.Unix(last, 0).In(loc).Format("Mon Jan 02 15:04:05 MST 2006")
}
