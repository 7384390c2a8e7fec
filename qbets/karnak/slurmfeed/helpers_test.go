package slurmfeed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// fakeSlurm answers the collector's commands from a cluster held in memory,
// in the shape Slurm 22.05 prints (see testdata for the real thing).
type fakeSlurm struct {
	mu    sync.Mutex
	parts string // scontrol show partition --oneliner
	jobs  []*fakeJob
	fail  string // a command that fails
	calls map[string]int
	// testOnly answers `sbatch --test-only` for a job of cores and
	// minutes in partition part (nil: sbatch is not a command of the
	// fake).
	testOnly func(part string, cores, minutes int64) ([]byte, error)
}

type fakeJob struct {
	id, arrayJob int64
	task         *int64 // nil: not an array task (or the waiting tasks, with tasks)
	tasks        string
	state        string
	submit       int64
	start, end   int64 // while PENDING, start is Slurm's expected start
	limit        int64 // minutes
	partition    string
	cpus         int64
	gpus         int64 // gres/gpu in the TRES (0: none)
	priority     int64 // squeue's priority (0: not shown)
	ran          bool  // nodes were allocated
	purged       bool  // gone from slurmctld (only sacct has it)
}

const testParts = "PartitionName=short Default=YES MaxTime=00:02:00 State=UP TotalCPUs=8 TotalNodes=1\n" +
	"PartitionName=long MaxTime=1-00:00:00 State=UP TotalCPUs=8 TotalNodes=1\n"

func (f *fakeSlurm) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[name]++
	if name == f.fail {
		return nil, fmt.Errorf("%s: exit status 1: slurm_load_jobs error: Unable to contact slurm controller", name)
	}
	switch name {
	case "scontrol":
		return []byte(f.parts), nil
	case "squeue":
		var js []map[string]any
		for _, j := range f.jobs {
			if j.purged {
				continue
			}
			tres := fmt.Sprintf("cpu=%d,node=1", j.cpus)
			if j.gpus > 0 {
				tres += fmt.Sprintf(",billing=%d,gres/gpu=%d", j.cpus, j.gpus) // as 22.05 orders them
			}
			m := map[string]any{
				"job_id": j.id, "array_job_id": j.arrayJob, "array_task_id": j.task, "array_task_string": j.tasks,
				"job_state": j.state, "submit_time": j.submit, "start_time": j.start, "end_time": j.end,
				"time_limit": j.limit, "partition": j.partition, "cpus": j.cpus, "tres_req_str": tres,
				"user_name": "alice", "account": "proj", "name": "job",
			}
			if j.ran {
				m["tres_alloc_str"] = tres
			}
			if j.priority != 0 {
				m["priority"] = j.priority
			}
			if j.ran {
				m["nodes"] = "n1"
			} else {
				m["nodes"] = ""
			}
			js = append(js, m)
		}
		return json.Marshal(map[string]any{"errors": []any{}, "jobs": js})
	case "sacct":
		var js []map[string]any
		for _, j := range f.jobs {
			var start any
			if j.ran {
				start = j.start
			}
			tres := []map[string]any{{"type": "cpu", "name": nil, "count": j.cpus}}
			if j.gpus > 0 {
				tres = append(tres, map[string]any{"type": "gres", "name": "gpu", "id": 1001, "count": j.gpus})
			}
			alloc := tres
			if !j.ran {
				alloc = nil
			}
			js = append(js, map[string]any{
				"job_id": j.id, "array": map[string]any{"job_id": j.arrayJob, "task_id": j.task},
				"state": map[string]any{"current": j.state}, "partition": j.partition,
				"time":     map[string]any{"submission": j.submit, "start": start, "end": j.end, "limit": j.limit},
				"required": map[string]any{"CPUs": j.cpus}, "user": "alice", "account": "proj", "name": "job",
				"tres": map[string]any{"allocated": alloc, "requested": tres},
			})
		}
		return json.Marshal(map[string]any{"errors": []any{}, "jobs": js})
	case "sbatch":
		if f.testOnly == nil {
			break
		}
		var part string
		var cores, mins int64
		for _, a := range args {
			k, v, _ := strings.Cut(a, "=")
			switch k {
			case "--partition":
				part = v
			case "--ntasks":
				cores, _ = strconv.ParseInt(v, 10, 64)
			case "--time":
				mins, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		if len(args) == 0 || args[0] != "--test-only" || part == "" || cores < 1 || mins < 1 {
			return nil, fmt.Errorf("sbatch %q: not a probe", args)
		}
		return f.testOnly(part, cores, mins)
	}
	return nil, fmt.Errorf("%s: not a Slurm command of the fake", name)
}

func (f *fakeSlurm) set(fn func()) {
	f.mu.Lock()
	fn()
	f.mu.Unlock()
}

// tapService is a karnak service that keeps what it acknowledged, and can
// fail: down refuses, lose stores the batch but loses the answer.
type tapService struct {
	svc     *karnak.Service
	store   *karnak.MemStore
	mu      sync.Mutex
	down    bool
	lose    bool
	reject  bool
	batches []string
	events  []karnak.Event
}

func newTap(t *testing.T, now func() int64) *tapService {
	t.Helper()
	st := &karnak.MemStore{}
	svc, err := karnak.New(st, karnak.Config{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &tapService{svc: svc, store: st}
}

func (s *tapService) IngestBatch(id string, evs []karnak.Event) (karnak.Ack, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.down:
		return karnak.Ack{}, errors.New("connection refused")
	case s.reject:
		return karnak.Ack{}, &karnak.Error{Code: 400, Message: "events[0].time: bad"}
	}
	ack, err := s.svc.IngestBatch(id, evs)
	if err != nil {
		return ack, err
	}
	s.batches = append(s.batches, id)
	s.events = append(s.events, evs...)
	if s.lose {
		return karnak.Ack{}, errors.New("connection reset (the batch was stored)")
	}
	return ack, nil
}

func (s *tapService) PredictJob(system string, id int64, q, c int, within int64) (karnak.Prediction, error) {
	return s.svc.PredictJob(system, id, q, c, within)
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  int64
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return time.Unix(c.t, 0) }
func (c *clock) unix() int64    { return c.now().Unix() }
func (c *clock) advance(d int64) {
	c.mu.Lock()
	c.t += d
	c.mu.Unlock()
}

func ptr(v int64) *int64 { return &v }
