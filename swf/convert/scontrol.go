package convert

import (
	"errors"
	"io"
	"slices"
	"strings"
)

// readText reads scontrol show job's records: a line "JobId=..." and its
// indented lines (blank lines between records), or one line per record
// (-o). "No jobs in the system" is an empty queue.
func (s *snapBuilder) readText(in io.Reader) error {
	b := s.b
	var rec []string // the record's lines, a newline's continuation joined
	// tail are the lines continuing rec's last one (a value holding a
	// newline), joined to it once (joining each made a file of short
	// lines quadratic); open tells that a line not indented continues it.
	var tail []string
	open := false
	size := 0
	start := 0
	settle := func() {
		if len(tail) > 0 {
			rec[len(rec)-1] += "\n" + strings.Join(tail, "\n")
			tail = tail[:0]
		}
	}
	flush := func() error {
		if start == 0 {
			return nil
		}
		settle()
		line := start
		start = 0
		b.rep.Records++
		return s.scontrolRecord(rec, line)
	}
	lr := newLineReader(in)
	for {
		l, err := lr.next()
		switch {
		case err == io.EOF:
			return flush()
		case err == errLineTooLong:
			if err := flush(); err != nil {
				return err
			}
			b.rep.Records++
			if err := b.malformed(lr.line, "", "", err); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		}
		line := string(l)
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			if err := flush(); err != nil {
				return err
			}
		case strings.HasPrefix(line, "JobId="):
			if err := flush(); err != nil {
				return err
			}
			start = lr.line
			rec, size = append(rec[:0], line), len(line)
			_, name, ok := strings.Cut(line, " JobName=")
			open = ok && nameEnd(name) < 0
		case start > 0 && (line[0] == ' ' || line[0] == '\t'):
			settle()
			if size += len(line); size > maxLine {
				rec = append(rec[:0], "JobId=") // a record longer than a line: malformed below
			}
			rec = append(rec, trimmed) // (scontrolFields reads a free text to its line's end)
			k, _, _ := strings.Cut(trimmed, "=")
			open = freeText[k]
		case start > 0 && open && size+len(line) <= maxLine:
			// A newline in a job name (sbatch -J $'a\nb') or another free
			// text: scontrol prints it as it is, the rest of the value on
			// a line of its own, not indented (it was a malformed record,
			// and so was each of the record's lines after it, the job lost).
			// The job name of -o's one line ends at the UserId=... GroupId=
			// after it.
			size += len(line)
			tail = append(tail, line)
			open = len(rec) > 1 || nameEnd(line) < 0
		case trimmed == "No jobs in the system" && b.rep.Records == 0 && start == 0:
			b.rep.Notes = append(b.rep.Notes, "scontrol: no jobs in the system")
		default:
			if err := flush(); err != nil {
				return err
			}
			b.rep.Records++
			if err := b.malformed(lr.line, "", line, errors.New("not a scontrol show job record (want JobId=... JobName=...)")); err != nil {
				return err
			}
		}
	}
}

// scontrolFields splits "K=v K2=v two" into keys and values: a token with
// '=' starts a key (the first of each key is kept: scontrol show job -d
// repeats Nodes=, CPU_IDs=, Mem= and GRES= per node group), one without
// continues the previous value. A free text (a job name, a comment, a
// path) is one value, whatever it holds: a name "x JobState=COMPLETED"
// set the job's state, read before the real JobState (first wins). The
// record's lines are apart (rec, a value's newline kept inside its line):
// scontrol prints JobName= last on the first line and each other free
// text alone on its line, so such a value runs to the line's end. In a
// one-line record (-o) JobName runs to the " UserId=" that scontrol's
// fixed order puts after it (the first one followed by " GroupId=";
// without one the line is read by tokens), or to the " HetJobIdSet="
// that a heterogeneous job has before it; the other free texts, printed
// together from Command= to the last Power= (oneLineFreeText), run each
// to the next free text's key (a Comment holding "TresPerNode=gres:gpu:8"
// gave a job that asked for none 8 GPUs).
func scontrolFields(rec []string) map[string]string {
	kv := make(map[string]string, 48)
	oneLine := len(rec) == 1
	for _, line := range rec {
		if k, v, ok := strings.Cut(line, "="); ok && freeText[k] && !oneLine {
			if _, dup := kv[k]; !dup {
				kv[k] = strings.TrimSpace(v)
			}
			continue
		}
		if strings.HasPrefix(line, "JobId=") {
			if i := strings.Index(line, " JobName="); i >= 0 {
				name := line[i+len(" JobName="):]
				rest := ""
				if oneLine {
					j := nameEnd(name)
					if j < 0 {
						scontrolTokens(kv, line)
						continue
					}
					name, rest = name[:j], oneLineFreeText(kv, name[j:])
					// A heterogeneous job's HetJobIdSet= comes
					// between (alone on its line without -o).
					if k := strings.LastIndex(name, " HetJobIdSet="); k >= 0 && !strings.Contains(name[k+1:], " ") {
						name, rest = name[:k], name[k:]+rest
					}
				}
				kv["JobName"] = strings.TrimSpace(name)
				line = line[:i] + rest
			}
		}
		scontrolTokens(kv, line)
	}
	return kv
}

// oneLineFreeText reads the free texts of a one-line record's rest (after
// its name) into kv and returns the rest without them. Slurm 22.05 prints
// them in a fixed order, from Command= to StdOut=, followed by Power=
// (always printed) and the optional Tres*, Mail* keys: between the first
// " Command=" and the last " Power=" each value runs to the next free
// text's key. Without both the rest is left to be read by tokens.
func oneLineFreeText(kv map[string]string, rest string) string {
	c := strings.Index(rest, " Command=")
	p := strings.LastIndex(rest, " Power=")
	if c < 0 || p < c {
		return rest
	}
	region := rest[c:p] + " "
	type cut struct {
		at  int
		key string
	}
	var cuts []cut
	for k := range freeText {
		for off := 0; ; {
			i := strings.Index(region[off:], " "+k+"=")
			if i < 0 {
				break
			}
			cuts = append(cuts, cut{off + i + 1, k})
			off += i + 1
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	for n, c := range cuts {
		end := len(region)
		if n+1 < len(cuts) {
			end = cuts[n+1].at
		}
		if _, dup := kv[c.key]; !dup {
			kv[c.key] = strings.TrimSpace(region[c.at+len(c.key)+1 : end])
		}
	}
	return rest[:c] + rest[p:]
}

// freeText are the keys of scontrol show job whose values are free text,
// each printed alone on its line (JobName last on the first).
var freeText = map[string]bool{"Command": true, "WorkDir": true, "Comment": true, "AdminComment": true,
	"SystemComment": true, "StdErr": true, "StdIn": true, "StdOut": true}

// nameEnd finds the end of a one-line record's job name: the first
// " UserId=" whose value is followed by " GroupId=", -1 if none.
func nameEnd(s string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], " UserId=")
		if i < 0 {
			return -1
		}
		i += off
		after := s[i+len(" UserId="):]
		if sp := strings.IndexByte(after, ' '); sp >= 0 && strings.HasPrefix(after[sp:], " GroupId=") {
			return i
		}
		off = i + 1
	}
}

// scontrolTokens adds line's "K=v" tokens to kv, the first of each key
// kept.
func scontrolTokens(kv map[string]string, line string) {
	last := ""
	for _, tok := range strings.Fields(line) {
		if k, v, ok := strings.Cut(tok, "="); ok && k != "" {
			if _, dup := kv[k]; !dup {
				kv[k] = v
				last = k
			} else {
				last = ""
			}
			continue
		}
		if last != "" {
			kv[last] += " " + tok
		}
	}
}

func (s *snapBuilder) scontrolRecord(rec []string, num int) error {
	b := s.b
	kv := scontrolFields(rec)
	id := kv["JobId"]
	if _, err := parseCount(id); err != nil || id == "0" {
		return b.malformed(num, "JobId", id, errors.New("not a job id"))
	}
	q := newQueued(num)
	q.ID = id
	if slices.ContainsFunc(rec, func(l string) bool { return strings.Contains(l, "\n") }) {
		q.note(noteJoined)
	}
	if a, t := kv["ArrayJobId"], kv["ArrayTaskId"]; a != "" && a != "0" && t != "" {
		if _, err := parseCount(t); err == nil {
			q.ID = a + "_" + t
		} else {
			q.ID, q.tasks = a, t
		}
	} else if h, o := kv["HetJobId"], kv["HetJobOffset"]; h != "" && h != "0" && o != "" {
		q.ID = h + "+" + o
	}
	var why string
	q.Name = kv["JobName"]
	if q.User, why = nameOf(kv["UserId"], "user"); why != "" {
		q.note(why)
	}
	if q.Partition, why = slurmPartition(kv["Partition"]); why != "" {
		q.note(why)
	}
	if a := kv["Account"]; a != "(null)" {
		q.Account = a
	}
	if v := kv["QOS"]; v != "(null)" {
		q.QOS = v
	}
	if r := kv["Reason"]; r != "None" {
		q.Reason = r
	}
	loc := b.opt.location()
	for _, t := range []struct {
		name string
		dst  *int64
	}{{"SubmitTime", &q.Submit}, {"StartTime", &q.Start}, {"EndTime", &q.end}, {"SuspendTime", &q.suspendTime},
		{"LastSchedEval", &q.lastEval}} {
		v, err := parseTime(kv[t.name], loc)
		if err != nil {
			if err := s.fieldError(&q, t.name, kv[t.name], err); err != nil {
				return err
			}
			continue
		}
		*t.dst = v
	}
	// (the expected end is no run time: only submit ≤ start ≤ end tells)
	settleLocal([3]*int64{&q.Submit, &q.Start, &q.end}, [3]string{kv["SubmitTime"], kv["StartTime"], kv["EndTime"]},
		-1, -1, &q.notes, loc)
	for _, d := range []struct {
		name string
		dst  *int64
	}{{"RunTime", &q.runTime}, {"SecsPreSuspend", &q.preSus}} {
		v := kv[d.name]
		if v == "" {
			continue
		}
		sec, err := parseDuration(v)
		if err != nil {
			if err := s.fieldError(&q, d.name, v, err); err != nil {
				return err
			}
			continue
		}
		*d.dst = int64(sec)
	}
	switch v := kv["TimeLimit"]; v {
	case "UNLIMITED", "INFINITE":
		q.note(noteUnlimited)
	case "Partition_Limit":
		q.partLimit = true
	case "", "N/A":
		q.note(noteNoLimit)
	case "INVALID":
		q.note(noteInvalidLimit)
	default:
		sec, err := parseDuration(v)
		if err != nil {
			if err := s.fieldError(&q, "TimeLimit", v, err); err != nil {
				return err
			}
		} else if sec == 0 {
			q.note(noteZeroLimit) // none imposed, as in the accounting formats (zeroLimit)
		} else {
			q.TimeLimit = int64(sec)
		}
	}
	if v := kv["Priority"]; v != "" {
		n, err := parseCount(v)
		if err != nil || n > 1<<32 {
			if err := s.fieldError(&q, "Priority", v, errNumber); err != nil {
				return err
			}
		} else {
			q.Priority = n
		}
	}
	// NumCPUs and NumNodes print "min" or "min-max" (a pending job's
	// range): the minimum is what it needs.
	for _, c := range []struct {
		name string
		dst  *int64
	}{{"NumCPUs", &q.CPUs}, {"NumNodes", &q.Nodes}} {
		v := kv[c.name]
		if v == "" || v == "N/A" {
			continue
		}
		lo, _, _ := strings.Cut(v, "-")
		n, err := parseProcs(lo)
		if err != nil {
			if err := s.fieldError(&q, c.name, v, err); err != nil {
				return err
			}
			continue
		}
		if n > 0 {
			*c.dst = n
		}
	}
	state := kv["JobState"]
	if state == "" {
		return b.malformed(num, "JobState", "", errors.New("no JobState"))
	}
	place, _ := queueState([]string{state})
	if err := s.scontrolDemand(&q, kv, place == qRunning); err != nil {
		return err
	}
	s.add(q, []string{state})
	return nil
}

// scontrolDemand reads what the job asks beyond processors: ReqTRES (or
// TRES, the request of a pending job and the allocation of a running one,
// or AllocTRES; a running job's AllocTRES or TRES first, what it holds,
// as its NumCPUs and NumNodes are); NumNodes when it has more nodes
// (moreNodes); MinMemoryNode or MinMemoryCPU when they have no memory;
// GPUs when they have none: a running job's GRES (scontrol -d, per node),
// else TresPerNode ("gres:gpu:2" or "gres/gpu:a100:2"), TresPerJob,
// TresPerTask (× NumTasks) or TresPerSocket (snapGPUs); OverSubscribe=NO
// for whole nodes.
func (s *snapBuilder) scontrolDemand(q *queued, kv map[string]string, running bool) error {
	var in demandIn
	order := []string{"ReqTRES", "TRES", "AllocTRES"}
	if running {
		order = []string{"AllocTRES", "TRES", "ReqTRES"}
	}
	field, tres := "", ""
	for _, f := range order {
		if tres == "" || tres == "(null)" {
			field, tres = f, kv[f]
		}
	}
	if tres == "(null)" {
		tres = ""
	}
	if key, v, err := slurmTRES(&in, tresEntries(tres)); err != nil {
		in.bad = true
		if err := s.fieldError(q, field, tresItem(key, v), err); err != nil {
			return err
		}
	}
	if field != "ReqTRES" {
		allocMem(&in, kv["ReqTRES"])
	}
	moreNodes(&in, q.Nodes, q.note, noteSnapNodes)
	if in.memTotal == 0 {
		for _, k := range []string{"MinMemoryNode", "MinMemoryCPU"} {
			v := kv[k]
			if v == "" || v == "0" || v == "N/A" {
				continue
			}
			size, err := parseSize(v, 1<<20)
			if err != nil {
				in.bad = true
				if err := s.fieldError(q, k, v, err); err != nil {
					return err
				}
				break
			}
			if k == "MinMemoryNode" {
				in.memPerNode = size / (1 << 20)
			} else {
				in.memPerCPU = size / (1 << 20)
			}
			break
		}
	}
	var detail []string
	if v := kv["GRES"]; running && v != "" && v != "(null)" {
		detail = []string{v} // the first node group's (scontrolFields)
	}
	tasks, _ := parseCount(kv["NumTasks"])
	specs := []gpuSpec{{"TresPerNode", kv["TresPerNode"], perNode}, {"TresPerJob", kv["TresPerJob"], perJob},
		{"TresPerTask", kv["TresPerTask"], perTask}, {"TresPerSocket", kv["TresPerSocket"], perSocket}}
	if f, v, err := snapGPUs(&in, detail, specs, tasks, q.note); err != nil {
		in.bad = true
		if err := s.fieldError(q, f, v, err); err != nil {
			return err
		}
	}
	in.excl = kv["OverSubscribe"] == "NO"
	q.Demand = makeDemand(&in, q.CPUs, q.note)
	return nil
}
