package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// restJob is the part of a job of slurmrestd's GET /slurm/v0.0.XX/jobs
// (and squeue --json) that a snapshot reads. The shapes differ by version
// (SchedMD's openapi/v0.0.37 and v0.0.38 plugins, data_parser v0.0.39 to
// v0.0.41), all read by jsonNum and jsonState:
//
//	                        v0.0.37–38        v0.0.39           v0.0.40–41
//	submit/start/end_time   number            number            {set, infinite, number}
//	time_limit (minutes)    number, null=INF  {set,inf,number}  {set, infinite, number}
//	priority, cpus,         number or null    {set,inf,number}  {set, infinite, number}
//	node_count
//	job_state               "RUNNING"         "RUNNING"         ["RUNNING", flags...]
//	exit_code               number            {set,inf,number}  {status, return_code, signal}
//	job_resources CPUs      allocated_cpus    allocated_cpus    allocated_cpus (0.0.40), cpus (0.0.41)
//	snapshot time           —                 —                 last_update (top level)
type restJob struct {
	JobID           jsonNum   `json:"job_id"`
	ArrayJobID      jsonNum   `json:"array_job_id"`
	ArrayTaskID     jsonNum   `json:"array_task_id"`
	ArrayTaskString *string   `json:"array_task_string"`
	HetJobID        jsonNum   `json:"het_job_id"`
	HetJobOffset    jsonNum   `json:"het_job_offset"`
	Name            *string   `json:"name"`
	UserName        *string   `json:"user_name"`
	UserID          jsonNum   `json:"user_id"`
	Account         *string   `json:"account"`
	Partition       *string   `json:"partition"`
	QOS             jsonText  `json:"qos"`
	JobState        jsonState `json:"job_state"`
	StateReason     *string   `json:"state_reason"`
	StateDesc       *string   `json:"state_description"`
	SubmitTime      jsonNum   `json:"submit_time"`
	StartTime       jsonNum   `json:"start_time"`
	EndTime         jsonNum   `json:"end_time"`
	SuspendTime     jsonNum   `json:"suspend_time"`
	PreSusTime      jsonNum   `json:"pre_sus_time"`
	LastSchedEval   jsonNum   `json:"last_sched_evaluation"`
	TimeLimit       jsonNum   `json:"time_limit"`
	Priority        jsonNum   `json:"priority"`
	CPUs            jsonNum   `json:"cpus"`
	NodeCount       jsonNum   `json:"node_count"`
	TRESReq         *string   `json:"tres_req_str"`
	TRESAlloc       *string   `json:"tres_alloc_str"`
	MemoryPerNode   jsonNum   `json:"memory_per_node"`
	MemoryPerCPU    jsonNum   `json:"memory_per_cpu"`
	Tasks           jsonNum   `json:"tasks"`
	// GPUs beside the TRES (a cluster that does not account gres/gpu):
	// per node, job, task, socket ("gres/gpu:4", "gres/gpu=2"), and a
	// running job's allocation per node ("gpu:h100:4(IDX:0-3)").
	TRESPerNode   *string         `json:"tres_per_node"`
	TRESPerJob    *string         `json:"tres_per_job"`
	TRESPerTask   *string         `json:"tres_per_task"`
	TRESPerSocket *string         `json:"tres_per_socket"`
	GRESDetail    json.RawMessage `json:"gres_detail"`
	JobResources  struct {
		AllocatedCPUs  jsonNum `json:"allocated_cpus"`  // to v0.0.40
		AllocatedHosts jsonNum `json:"allocated_hosts"` // to v0.0.40
		CPUs           jsonNum `json:"cpus"`            // v0.0.41
		// Nodes is the node list (a string) to v0.0.40, an object with
		// the count in v0.0.41.
		Nodes json.RawMessage `json:"nodes"`
	} `json:"job_resources"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// readJSON reads slurmrestd's response: {"meta":..., "errors": [...],
// "jobs": [...], "last_update": ...}.
func (s *snapBuilder) readJSON(in io.Reader) error {
	b := s.b
	other := func(key string, v json.RawMessage) {
		switch key {
		case "errors":
			var list []json.RawMessage
			if json.Unmarshal(v, &list) == nil && len(list) > 0 {
				s.slurmErr = clip(string(list[0]))
				b.rep.Notes = append(b.rep.Notes, "slurmrestd reported errors: "+s.slurmErr)
			}
		case "last_update":
			var n jsonNum
			if json.Unmarshal(v, &n) == nil && n.OK() && n.V > 0 && checkTime(n.V) == nil {
				s.lastUpdate = n.V
			}
		}
	}
	return jsonJobs(in, b, other, func(dec *json.Decoder, num int) error {
		var j restJob
		b.rep.Records++
		if err := dec.Decode(&j); err != nil {
			var te *json.UnmarshalTypeError
			if !errors.As(err, &te) {
				return &ParseError{Format: b.format, Line: num, Err: err}
			}
			return b.jsonTypeError(num, te, "")
		}
		return s.restRecord(&j, num)
	})
}

func (s *snapBuilder) restRecord(j *restJob, num int) error {
	b := s.b
	if !j.JobID.OK() || j.JobID.V <= 0 {
		return b.malformed(num, "job_id", j.JobID.Text, idError(j.JobID))
	}
	q := newQueued(num)
	q.ID = strconv.FormatInt(j.JobID.V, 10)
	switch {
	case j.ArrayJobID.OK() && j.ArrayJobID.V > 0 && j.ArrayTaskID.OK():
		q.ID = fmt.Sprintf("%d_%d", j.ArrayJobID.V, j.ArrayTaskID.V)
	case j.ArrayJobID.OK() && j.ArrayJobID.V > 0 && str(j.ArrayTaskString) != "":
		q.ID = strconv.FormatInt(j.ArrayJobID.V, 10)
		q.tasks = str(j.ArrayTaskString)
	case j.HetJobID.OK() && j.HetJobID.V > 0 && j.HetJobOffset.OK():
		q.ID = fmt.Sprintf("%d+%d", j.HetJobID.V, j.HetJobOffset.V)
	}
	q.Name, q.User, q.Account = str(j.Name), str(j.UserName), str(j.Account)
	var why string
	if q.Partition, why = slurmPartition(str(j.Partition)); why != "" {
		q.note(why)
	}
	q.QOS = string(j.QOS)
	if q.User == "" && j.UserID.OK() {
		q.User = strconv.FormatInt(j.UserID.V, 10)
	}
	// scontrol prints the state description, when there is one, instead
	// of the reason's code (blanks made '_'): so does a snapshot, so that
	// both forms give the same Reason.
	if d := str(j.StateDesc); d != "" {
		q.Reason = strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return '_'
			}
			return r
		}, d)
	} else if r := str(j.StateReason); r != "None" {
		q.Reason = r
	}
	for _, t := range []struct {
		field string
		n     jsonNum
		dst   *int64
	}{{"submit_time", j.SubmitTime, &q.Submit}, {"start_time", j.StartTime, &q.Start}, {"end_time", j.EndTime, &q.end},
		{"suspend_time", j.SuspendTime, &q.suspendTime}, {"last_sched_evaluation", j.LastSchedEval, &q.lastEval}} {
		switch {
		case t.n.Big || t.n.OK() && t.n.V != 0 && checkTime(t.n.V) != nil: // (0: unset)
			if err := s.fieldError(&q, t.field, t.n.Text, timeError(t.n)); err != nil {
				return err
			}
		case t.n.OK() && t.n.V > 0:
			*t.dst = t.n.V
		}
	}
	if p := j.PreSusTime; p.OK() && p.V > 0 && p.V <= maxTime {
		q.preSus = p.V
	}
	switch l := j.TimeLimit; {
	case l.Inf || l.Null:
		q.note(noteUnlimited)
	case l.Big || l.OK() && (l.V < 0 || l.V > maxTime/60):
		q.note(noteInvalidLimit)
	case !l.OK():
		q.partLimit = true
	case l.V == 0:
		q.note(noteZeroLimit) // none imposed, as in the accounting formats (zeroLimit)
	default:
		q.TimeLimit = l.V * 60
	}
	if j.Priority.OK() && j.Priority.V >= 0 && j.Priority.V <= 1<<32 {
		q.Priority = j.Priority.V
	}
	place, _ := queueState(j.JobState.Words)
	cpus, nodes := j.CPUs, j.NodeCount
	if place == qRunning {
		// What the job holds, where the response says it.
		if n := firstSet(j.JobResources.AllocatedCPUs, j.JobResources.CPUs); n.OK() && n.V > 0 {
			cpus = n
		}
		if n := firstSet(j.JobResources.AllocatedHosts, restNodeCount(j.JobResources.Nodes)); n.OK() && n.V > 0 {
			nodes = n
		}
	}
	for _, c := range []struct {
		field string
		n     jsonNum
		dst   *int64
	}{{"cpus", cpus, &q.CPUs}, {"node_count", nodes, &q.Nodes}} {
		switch {
		case c.n.Big || c.n.OK() && c.n.V > maxProcs:
			if err := s.fieldError(&q, c.field, c.n.Text, errProcs); err != nil {
				return err
			}
		case c.n.OK() && c.n.V > 0:
			*c.dst = c.n.V
		}
	}
	if err := s.restDemand(&q, j, place == qRunning); err != nil {
		return err
	}
	s.add(q, j.JobState.Words)
	return nil
}

// restDemand reads what the job asks beyond processors: tres_req_str
// (else tres_alloc_str; a running job's tres_alloc_str first, what it
// holds, as its CPUs and nodes are); node_count when it has more nodes
// (moreNodes); memory_per_node or memory_per_cpu (MB) when it has no
// memory; GPUs from gres_detail or tres_per_* when the TRES have none
// (snapGPUs).
func (s *snapBuilder) restDemand(q *queued, j *restJob, running bool) error {
	var in demandIn
	tres, field := str(j.TRESReq), "tres_req_str"
	if tres == "" || running && str(j.TRESAlloc) != "" {
		tres, field = str(j.TRESAlloc), "tres_alloc_str"
	}
	if key, v, err := slurmTRES(&in, tresEntries(tres)); err != nil {
		in.bad = true
		if err := s.fieldError(q, field, tresItem(key, v), err); err != nil {
			return err
		}
	}
	if field == "tres_alloc_str" {
		allocMem(&in, str(j.TRESReq))
	}
	moreNodes(&in, q.Nodes, q.note, noteSnapNodes)
	var detail []string
	if running && json.Unmarshal(j.GRESDetail, &detail) != nil {
		detail = nil // another shape than a list of strings: not read
	}
	tasks := int64(0)
	if j.Tasks.OK() {
		tasks = j.Tasks.V
	}
	specs := []gpuSpec{{"tres_per_node", str(j.TRESPerNode), perNode}, {"tres_per_job", str(j.TRESPerJob), perJob},
		{"tres_per_task", str(j.TRESPerTask), perTask}, {"tres_per_socket", str(j.TRESPerSocket), perSocket}}
	if f, v, err := snapGPUs(&in, detail, specs, tasks, q.note); err != nil {
		in.bad = true
		if err := s.fieldError(q, f, v, err); err != nil {
			return err
		}
	}
	if in.memTotal == 0 {
		if m := j.MemoryPerNode; m.OK() && m.V > 0 {
			in.memPerNode = float64(m.V)
		} else if m := j.MemoryPerCPU; m.OK() && m.V > 0 {
			in.memPerCPU = float64(m.V)
		}
	}
	q.Demand = makeDemand(&in, q.CPUs, q.note)
	return nil
}

func firstSet(ns ...jsonNum) jsonNum {
	for _, n := range ns {
		if n.OK() {
			return n
		}
	}
	return jsonNum{}
}

// restNodeCount reads v0.0.41's job_resources.nodes.count; the node list
// string of earlier versions has none.
func restNodeCount(raw json.RawMessage) jsonNum {
	var o struct {
		Count jsonNum `json:"count"`
	}
	if len(raw) == 0 || !strings.HasPrefix(string(raw), "{") || json.Unmarshal(raw, &o) != nil {
		return jsonNum{}
	}
	return o.Count
}
