package convert

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// Alibaba converts a pod list of Alibaba's GPU cluster trace of 2023
// (cluster-trace-gpu-v2023, the "openb" trace of Weng et al., "Beware of
// Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
// Gradient Descent", USENIX ATC 2023), plain or gzip: a CSV file with a
// header line,
//
//	name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
//	openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
//
// Each pod is a job of one node whose swf.Demand holds its request: Cores
// cpu_milli (thousandths of a core), Memory memory_mib (MiB), GPUs in
// thousandths of a GPU and GPUModels gpu_spec split on '|' (empty: any
// model). Use the trace's node list, read by Nodes, as the machine: its
// kinds are in the same units. GPUs follow the trace's two shapes:
//
//	num_gpu 0                          no GPU (a gpu_milli beside it is counted and dropped)
//	num_gpu 1, gpu_milli 1–999         a share of one GPU: GPUs = gpu_milli
//	num_gpu k, gpu_milli 1000          k whole GPUs: GPUs = k × 1000
//	num_gpu k, gpu_milli 0 or absent   k whole GPUs (counted)
//	num_gpu k > 1, gpu_milli 1–999     k whole GPUs: a share spread over GPUs is not
//	                                   a demand a node can hold (counted)
//	gpu_milli over 1000                unreadable: the row is skipped
//
// The SWF fields: Submit is creation_time, on the trace's own clock (it
// starts at 0; not shifted to the first submit, so that the five pod lists
// share one clock); Wait is scheduled_time − creation_time; RunTime
// deletion_time − scheduled_time; ReqProcs cpu_milli, and AllocProcs too
// once the pod was scheduled: processors are thousandths of a core.
// ReqMemory is memory_mib × 1024 / cpu_milli, in KB per processor as SWF
// counts it. ReqTime is -1: the trace has no user estimate of the run
// time. Queue is the QoS, numbered 1 LS, 2 BE, 3 Burstable, 4 Guaranteed,
// others from 5 in order of first use (the header's Queue lines name
// them); user, group, executable and partition are -1. Job k is the k-th
// created (ties in row order, which is the pod's number in the default
// list); Result.IDs keeps the pod names.
//
// Status comes from pod_phase:
//
//	Succeeded   1
//	Failed      0, run until deletion_time
//	Running     -1: the last phase the trace saw of a pod deleted while it ran
//	            (most have a deletion_time before the trace's end: 5,159 of the
//	            default list's 5,193): it ran until deletion_time, but how it
//	            ended is unknown; one whose deletion_time is the trace's end
//	            (the largest time in the file) or absent was still running:
//	            its run time is censored (a lower bound), counted as "Running
//	            at the trace's end (run time censored)"
//	Pending     5: deleted before it was scheduled; wait, run time and allocated
//	            processors -1; one still pending at the trace's end is -1,
//	            counted as "Pending at the trace's end"
//
// A list without time columns (openb_pod_list_multigpu20.csv has only
// name, cpu_milli, memory_mib, num_gpu, gpu_milli) gives every pod Submit
// 0 in row order, as the authors' simulator replays it, and Wait, RunTime
// and Status -1: a Note says so. Columns are found by name, in any order
// and letter case; cpu_milli is required, every other column is optional
// and its absence noted.
//
// The Report accounts for every row after the header: Records = Jobs + Σ
// Skipped. Skipped: "malformed record" (an unreadable cpu_milli,
// memory_mib, num_gpu, gpu_milli or creation_time: a negative number, not
// a number, out of range; with Options.Strict the *ParseError names the
// line and the column), "no submit time" (an empty creation_time),
// "repeated header line", "another header line" (lists concatenated: the
// same columns in another order, which apply from there on, noted; other
// columns are an error), "record listed again (overlapping dumps)" (a
// named pod whose every field repeats an earlier pod's: the list given
// twice, as Sacct and the job tables skip it). Anomalies (jobs written): "start before
// submit", "end before start", "no end time", "deletion before creation",
// "no scheduled_time" (a pod that ran), "Pending with a scheduled_time"
// (ignored), the two censoring notes above, "unknown pod_phase" (status
// -1), "no pod_phase", "unreadable scheduled_time" and "unreadable
// deletion_time" (taken as absent), "fractional value rounded", "no
// name" (the ID is "line N"), "pod name repeated" (pods of one name that differ: both
// kept), "no CPU request" (cpu_milli 0), "memory over
// 1 PiB per processor", "fewer fields than the header", "more fields than
// the header", and the GPU rules above: "gpu_milli without num_gpu",
// "num_gpu without gpu_milli", "GPU share over several GPUs", "gpu_spec
// without GPUs" (dropped), "repeated model in gpu_spec". States counts the
// jobs by phase ("none" when the list has none).
func Alibaba(r io.Reader, opt Options) (_ *Result, err error) {
	in, done, b, err := begin(r, &opt, "alibaba")
	if err != nil {
		return nil, err
	}
	defer done()
	defer b.damaged(&err) // (before done: it reads on in the input)
	var pr *podReader
	var buf []string
	err = readTable(newLineReader(in), b, "alibaba", false,
		func(s string, line int) (err error) { pr, err = newPodReader(b, s, line); return err },
		func(s string, line int) (err error) { buf, err = pr.row(s, line, buf); return err })
	if err != nil {
		return nil, err
	}
	return pr.finish()
}

// readTable reads a CSV table line by line: the first line that is not
// blank (nor, with comments, a '#' comment) is the header, given to
// header; every other one is a record, counted and given to row. A line
// over maxLine is a malformed record; a file without a header is a
// *FormatError wanting want.
func readTable(lr *lineReader, b *builder, want string, comments bool, header, row func(s string, line int) error) error {
	started := false
	for {
		line, err := lr.next()
		switch {
		case err == io.EOF:
			if !started {
				return &FormatError{Want: want, Saw: b.saw, Line: b.firstLine, Sample: b.sample}
			}
			return nil
		case err == errLineTooLong:
			if !started {
				return &FormatError{Want: want, Saw: b.saw, Line: lr.line, Sample: "(a line of over 1 MiB)"}
			}
			b.rep.Records++
			if err := b.malformed(lr.line, "", "", err); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		}
		// A byte-order mark begins a file, and each of files concatenated
		// (cat a.csv b.csv of spreadsheet exports): the second's header
		// line with it was a malformed record, not "repeated header line".
		s := strings.TrimSpace(strings.TrimPrefix(string(line), "\xef\xbb\xbf"))
		if s == "" || comments && s[0] == '#' {
			continue
		}
		if !started {
			started = true
			if err := header(s, lr.line); err != nil {
				return err
			}
			continue
		}
		b.rep.Records++
		if err := row(s, lr.line); err != nil {
			return err
		}
	}
}

// Reasons of Alibaba's Report (the other ones are shared with the
// accounting formats).
const (
	noteCensored     = "Running at the trace's end (run time censored)"
	notePendingEnd   = "Pending at the trace's end"
	noteDelBefore    = "deletion before creation"
	noteNoSched      = "no scheduled_time"
	notePendingSched = "Pending with a scheduled_time"
	noteRounded      = "fractional value rounded"
)

// podColumns are the columns Alibaba reads.
var podColumns = []string{"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec", "qos",
	"pod_phase", "creation_time", "deletion_time", "scheduled_time"}

// qosQueues are the fixed queue numbers of the trace's QoS classes, so
// that every pod list numbers them alike.
var qosQueues = []string{"LS", "BE", "Burstable", "Guaranteed"}

// pod is one row as read, before the pods are sorted by creation.
type pod struct {
	id                 string
	line               int
	submit, sched, del int64 // trace seconds, -1 absent
	phase              string
	cpu, mem, gpus     int64
	models             []string
	qos                string
	notes
}

type podReader struct {
	b     *builder
	t     *table
	pods  []pod
	end   int64               // the largest time in the file: the trace's end
	names map[string]bool     // the pod names seen
	seen  map[podSig]struct{} // the named pods kept, to tell one listed again
}

func newPodReader(b *builder, header string, num int) (*podReader, error) {
	t, notes, err := newTable(header, podColumns)
	if err != nil {
		return nil, &ParseError{Format: "alibaba", Line: num, Err: err}
	}
	if !t.has("cpu_milli") {
		return nil, &FormatError{Want: "alibaba", Saw: csvKind(header), Line: num, Sample: clip(strings.ToValidUTF8(header, "?"))}
	}
	if csvKind(header) == "alibaba-nodes" {
		return nil, &FormatError{Want: "alibaba", Saw: "alibaba-nodes", Line: num, Sample: clip(strings.ToValidUTF8(header, "?"))}
	}
	b.rep.Notes = append(b.rep.Notes, notes...)
	for _, c := range podColumns[1:] {
		if !t.has(c) {
			b.rep.Notes = append(b.rep.Notes, "no column "+c+": "+absentColumn[c])
		}
	}
	return &podReader{b: b, t: t, names: map[string]bool{}, seen: map[podSig]struct{}{}}, nil
}

// absentColumn says what a missing column means.
var absentColumn = map[string]string{
	"memory_mib":     "memory 0",
	"num_gpu":        "no GPUs",
	"gpu_milli":      "whole GPUs",
	"gpu_spec":       "any GPU model",
	"qos":            "queue -1",
	"pod_phase":      "status -1",
	"creation_time":  "every pod submitted at 0, in row order",
	"deletion_time":  "run time -1",
	"scheduled_time": "wait and run time -1",
}

// otherHeader reads a header line among the rows that is not the first
// one repeated (pod lists concatenated, each with its header): one with
// the same columns in another order applies from there on (skipped
// "another header line", noted); one with other columns is an error, the
// list's columns deciding for all its pods (a list without creation_time
// submits every pod at 0). Read as a row, it was a malformed record and
// the rows behind it read by the first header's columns ("no submit
// time" for all of openb_pod_list_multigpu20.csv's). It reports whether
// line was such a header.
func (pr *podReader) otherHeader(line string, num int) (bool, error) {
	if !hasFold(line, "cpu_milli") {
		return false, nil // a row: no allocation (csvKind's split)
	}
	sep := sepOf(line) // (a TSV's repeated header: "another header line" when split at commas)
	f, _, err := splitSep(line, sep, nil)
	if err != nil || !allNames(f) || csvKind(line) != "alibaba" || sep == pr.t.sep && pr.t.isHeader(f) {
		return false, nil // (csvRow reports it, or skips the repeated header)
	}
	t, _, err := newTable(line, podColumns)
	if err != nil {
		return true, &ParseError{Format: "alibaba", Line: num, Err: err}
	}
	if !maps.EqualFunc(t.col, pr.t.col, func(int, int) bool { return true }) {
		return true, &ParseError{Format: "alibaba", Line: num, Value: clip(line),
			Err: errors.New("another header line with other columns (pod lists concatenated): convert one pod list at a time")}
	}
	pr.t = t
	pr.b.skip("another header line")
	pr.b.rep.Notes = append(pr.b.rep.Notes, fmt.Sprintf("line %d: another header line; its columns apply from there on", num))
	return true, nil
}

// row reads one pod.
func (pr *podReader) row(line string, num int, buf []string) ([]string, error) {
	if ok, err := pr.otherHeader(line, num); ok || err != nil {
		return buf, err
	}
	b, t := pr.b, pr.t
	row, width, ok, err := b.csvRow(t, line, num, buf)
	if !ok {
		return row, err
	}
	p := pod{line: num, submit: -1, sched: -1, del: -1}
	if width != "" {
		p.note(width)
	}
	// Resources: a row whose request cannot be read is no job.
	var numGPU, milli int64 = 0, -1
	for _, a := range []struct {
		col   string
		dst   *int64
		limit int64
	}{{"cpu_milli", &p.cpu, maxProcs}, {"memory_mib", &p.mem, maxSeconds}, {"num_gpu", &numGPU, 1 << 10}, {"gpu_milli", &milli, 1000}} {
		v := t.get(row, a.col)
		if v == "" {
			if a.col == "cpu_milli" {
				return row, b.malformed(num, t.label(a.col), "", errors.New("no CPU request"))
			}
			continue
		}
		n, rounded, err := parseAmount(v, a.limit)
		if err != nil {
			return row, b.malformed(num, t.label(a.col), v, err)
		}
		if rounded {
			p.note(noteRounded)
		}
		*a.dst = n
	}
	if p.cpu == 0 {
		p.note("no CPU request")
	}
	gpuRule(&p, numGPU, milli, t.has("gpu_milli"))
	// Times: without a creation time the pod has no place in the log.
	if v := t.get(row, "creation_time"); v != "" {
		n, rounded, err := parseAmount(v, maxTime)
		if err != nil {
			return row, b.malformed(num, t.label("creation_time"), v, err)
		}
		if rounded {
			p.note(noteRounded)
		}
		p.submit = n
	} else if t.has("creation_time") {
		b.skip(skipNoSubmit)
		return row, nil
	} else {
		p.submit = 0
	}
	for _, c := range []struct {
		col string
		dst *int64
	}{{"scheduled_time", &p.sched}, {"deletion_time", &p.del}} {
		v := t.get(row, c.col)
		if v == "" {
			continue
		}
		n, rounded, err := parseAmount(v, maxTime)
		if err != nil {
			p.note("unreadable " + c.col)
			if err := b.fail(num, t.label(c.col), v, err); err != nil {
				return row, err
			}
			continue
		}
		if rounded {
			p.note(noteRounded)
		}
		*c.dst = n
	}
	pr.end = max(pr.end, p.submit, p.sched, p.del)
	if err := pr.phase(&p, t.get(row, "pod_phase")); err != nil {
		return row, err
	}
	p.qos = b.intern(t.get(row, "qos"))
	p.id = strings.Clone(t.get(row, "name"))
	pr.models(&p, t.get(row, "gpu_spec"))
	switch {
	case p.id == "":
		p.id = "line " + strconv.Itoa(num)
		if t.has("name") {
			p.note("no name")
		}
	case pr.names[p.id]:
		// The same pod, every field alike, is the list given twice:
		// skipped as Sacct and the job tables skip a record listed
		// again (the pods were written twice, the load doubled). Pods
		// of one name that differ (lists of two scenarios
		// concatenated) are both kept.
		sig := p.sig()
		if _, again := pr.seen[sig]; again {
			b.skip(skipDuplicate)
			return row, nil
		}
		p.note("pod name repeated")
		pr.seen[sig] = struct{}{}
	default:
		pr.names[p.id] = true
		pr.seen[p.sig()] = struct{}{}
	}
	pr.pods = append(pr.pods, p)
	return row, nil
}

// podSig is what tells a pod listed again: its name and every field read.
type podSig struct {
	id, phase, qos, models string
	submit, sched, del     int64
	cpu, mem, gpus         int64
}

func (p *pod) sig() podSig {
	return podSig{p.id, p.phase, p.qos, strings.Join(p.models, "|"), p.submit, p.sched, p.del, p.cpu, p.mem, p.gpus}
}

// gpuRule sets p.gpus, in thousandths of a GPU, from num_gpu and gpu_milli
// (-1 when empty): see Alibaba.
func gpuRule(p *pod, numGPU, milli int64, hasMilli bool) {
	switch {
	case numGPU == 0:
		if milli > 0 {
			p.note("gpu_milli without num_gpu")
		}
	case milli == 1000:
		p.gpus = numGPU * 1000
	case milli <= 0:
		p.gpus = numGPU * 1000
		if hasMilli {
			p.note("num_gpu without gpu_milli")
		}
	case numGPU == 1:
		p.gpus = milli
	default:
		p.gpus = numGPU * 1000
		p.note("GPU share over several GPUs")
	}
}

// phase reads pod_phase; an unknown phase is an unreadable field (status
// -1), so that strict mode stops at it.
func (pr *podReader) phase(p *pod, v string) error {
	for _, ph := range []string{"Succeeded", "Failed", "Running", "Pending"} {
		if strings.EqualFold(v, ph) {
			p.phase = ph
			return nil
		}
	}
	switch {
	case v != "":
		p.phase = "unknown"
		p.note("unknown pod_phase")
		return pr.b.fail(p.line, pr.t.label("pod_phase"), v, errors.New("not a pod phase (Succeeded, Failed, Running, Pending)"))
	case pr.t.has("pod_phase"):
		p.note("no pod_phase")
	}
	p.phase = "none"
	return nil
}

// models reads gpu_spec: the models '|'-separated, each once.
func (pr *podReader) models(p *pod, spec string) {
	if spec == "" {
		return
	}
	if p.gpus == 0 {
		p.note("gpu_spec without GPUs")
		return
	}
	for _, m := range strings.Split(spec, "|") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		if slices.Contains(p.models, m) {
			p.note("repeated model in gpu_spec")
			continue
		}
		p.models = append(p.models, pr.b.intern(m))
	}
}

// finish sorts the pods by creation and makes the jobs.
func (pr *podReader) finish() (*Result, error) {
	b := pr.b
	slices.SortStableFunc(pr.pods, func(x, y pod) int { return cmp.Compare(x.submit, y.submit) })
	res := &Result{Jobs: make([]swf.Job, len(pr.pods)), IDs: make([]string, len(pr.pods))}
	queues := newNames()
	for _, q := range qosQueues {
		queues.number(q)
	}
	// Unused fixed numbers stay in the header, so that the mapping is the
	// same for every list.
	var maxAlloc int64
	over := procsOver{max: b.opt.MaxProcs}
	for k := range pr.pods {
		p := &pr.pods[k]
		j := pr.job(p)
		j.ID = int64(k + 1)
		j.Queue = queues.number(p.qos)
		res.Jobs[k], res.IDs[k] = j, p.id
		b.rep.States[p.phase]++
		if j.Demand != nil {
			b.rep.Demands++
		}
		for _, n := range p.notes {
			b.rep.Anomalies[n]++
		}
		maxAlloc = max(maxAlloc, j.AllocProcs)
		over.add(&j)
	}
	over.note(&b.rep.Notes, "thousandths of a core (cpu_milli), not its cores")
	b.rep.Jobs = len(res.Jobs)
	if err := b.unreadable(); err != nil {
		return nil, err
	}
	res.Header = pr.header(queues, maxAlloc)
	res.Report = b.rep
	return res, nil
}

// job makes p's SWF line and demand.
func (pr *podReader) job(p *pod) swf.Job {
	j := swf.NewJob()
	j.Submit, j.ReqProcs = p.submit, p.cpu
	if p.cpu > 0 {
		kb := float64(p.mem) * 1024 / float64(p.cpu)
		if kb > maxMemKB {
			p.note(noteMemRange)
		} else {
			j.ReqMemory = math.Round(kb)
		}
	}
	ran := p.sched >= 0
	switch p.phase {
	case "Succeeded":
		j.Status = swf.StatusCompleted
	case "Failed":
		j.Status = swf.StatusFailed
	case "Pending":
		j.Status = swf.StatusCancelled
		if ran {
			p.note(notePendingSched)
			ran = false
		}
		switch {
		case p.del < 0 || p.del == pr.end:
			j.Status = swf.StatusUnknown
			p.note(notePendingEnd)
		case p.del < p.submit:
			p.note(noteDelBefore)
		}
	}
	if p.phase == "Succeeded" || p.phase == "Failed" || p.phase == "Running" {
		if !ran {
			p.note(noteNoSched)
		}
		if p.del >= 0 && p.del < p.submit {
			p.note(noteDelBefore)
		}
	}
	if ran {
		j.AllocProcs = p.cpu
		if p.sched >= p.submit {
			j.Wait = p.sched - p.submit
		} else {
			p.note(noteStartBefore)
		}
		end := p.del
		if p.phase == "Running" && (end < 0 || end == pr.end) {
			end = pr.end
			p.note(noteCensored)
		}
		switch {
		case end >= p.sched:
			j.RunTime = end - p.sched
		case end >= 0:
			p.note(noteEndBefore)
		case pr.t.has("deletion_time"):
			p.note(noteNoEnd)
		}
	}
	j.Demand = &swf.Demand{Nodes: 1, Cores: p.cpu, Memory: p.mem, GPUs: p.gpus, GPUModels: p.models}
	return j
}

func (pr *podReader) header(queues *names, maxAlloc int64) *swf.Header {
	b := pr.b
	h := &swf.Header{
		Version:      "2.2",
		Computer:     b.opt.Computer,
		Installation: b.opt.Installation,
		Conversion:   "batchq swf/convert from a pod list of Alibaba's GPU cluster trace 2023 (cluster-trace-gpu-v2023)",
		MaxJobs:      int64(b.rep.Jobs),
		MaxRecords:   int64(b.rep.Jobs),
		MaxProcs:     b.opt.MaxProcs,
		MaxQueues:    int64(len(queues.list)),
		Queue:        queues.mapping(),
		Acknowledge: "Weng et al., Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation " +
			"Gradient Descent, USENIX ATC 2023",
	}
	h.Note = append(h.Note,
		"Submit is the pod's creation_time, in the trace's own seconds (not shifted to the first submit); job k is the "+
			"k-th created. Wait is scheduled_time - creation_time, run time deletion_time - scheduled_time.",
		"Processors are thousandths of a core (cpu_milli); memory is per processor in KB (memory_mib x 1024 / cpu_milli). "+
			"Requested time is -1: the trace has no user estimate. Queue is the QoS class.",
		"Status from pod_phase: 1 Succeeded; 0 Failed; -1 Running (deleted while running, or still running at the "+
			"trace's end: run time censored); 5 Pending (deleted before it was scheduled: wait and run time -1).")
	if !pr.t.has("creation_time") {
		h.Note = append(h.Note, "The list has no creation_time: every pod is submitted at 0, in the list's order.")
	}
	if b.opt.MaxProcs == 0 {
		h.Note = append(h.Note, fmt.Sprintf("MaxProcs unknown: the largest pod was allocated %d thousandths of a core.", maxAlloc))
	}
	return h
}
