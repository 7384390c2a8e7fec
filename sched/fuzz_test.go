package sched_test

import (
	"cmp"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// fuzzJobs decodes data into a machine size, a preset and jobs: 8 bytes a
// job, with small IDs (so duplicates occur), and now and then a time or
// size out of range.
func fuzzJobs(data []byte) (int64, sched.Preset, []swf.Job) {
	ps := sched.Presets()
	if len(data) < 2 {
		return 8, ps[0], nil
	}
	p := int64(data[0]%64) + 1
	preset := ps[int(data[1])%len(ps)]
	data = data[2:]
	var jobs []swf.Job
	var t int64
	for len(data) >= 8 && len(jobs) < 200 {
		b := data[:8]
		data = data[8:]
		t += int64(binary.LittleEndian.Uint16(b[1:3]) % 600)
		j := swf.Job{ID: int64(b[0] % 32), Submit: t, RunTime: int64(binary.LittleEndian.Uint16(b[3:5])),
			ReqProcs: int64(b[5]%80) - 4, ReqTime: int64(binary.LittleEndian.Uint16(b[6:8])) - 100, User: int64(b[0] % 5)}
		j.AllocProcs = j.ReqProcs
		switch b[7] % 31 {
		case 0:
			j.RunTime = math.MaxInt64 - int64(b[6])
		case 1:
			j.Submit = -1
		case 2:
			j.ReqTime = math.MaxInt64
		case 3:
			j.RunTime = -1
		}
		jobs = append(jobs, j)
	}
	return p, preset, jobs
}

// FuzzRun checks the simulator's invariants on random jobs and presets:
// no error or panic, never more processors in use than the machine, no
// start before submit, and every job accounted for as a record or a
// rejection.
func FuzzRun(f *testing.F) {
	f.Add([]byte{8, 1, 1, 0, 0, 100, 0, 4, 120, 0, 2, 10, 0, 50, 0, 8, 60, 0, 1, 10, 0, 5, 0, 2, 10, 0})
	f.Add([]byte{16, 17, 3, 5, 0, 255, 255, 16, 255, 255, 3, 5, 0, 1, 0, 1, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, preset, jobs := fuzzJobs(data)
		res, err := sched.Run(context.Background(), preset.New(p), jobs)
		if err != nil {
			t.Fatalf("%s on %d: %v", preset.Name, p, err)
		}
		if n := len(res.Records) + len(res.Rejected.Excluded); n != len(jobs) {
			t.Fatalf("%d records + %d rejections for %d jobs", len(res.Records), len(res.Rejected.Excluded), len(jobs))
		}
		type ev struct{ t, d int64 }
		var evs []ev
		for _, r := range res.Records {
			if r.Start < 0 {
				t.Fatalf("job %d never started: %+v", r.Job.ID, r)
			}
			if r.Start < r.Job.Submit || r.End < r.Start {
				t.Fatalf("job %d submitted %d, ran %d–%d", r.Job.ID, r.Job.Submit, r.Start, r.End)
			}
			if r.Size > p {
				t.Fatalf("job %d of %d processors on %d", r.Job.ID, r.Size, p)
			}
			evs = append(evs, ev{r.Start, r.Size}, ev{r.End, -r.Size})
		}
		slices.SortFunc(evs, func(a, b ev) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d)) })
		used := int64(0)
		for _, e := range evs {
			if used += e.d; used > p {
				t.Fatalf("%s: %d processors in use at %d on a machine of %d", preset.Name, used, e.t, p)
			}
		}
	})
}
