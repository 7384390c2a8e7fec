package slurmfeed_test

import (
	"context"
	"fmt"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

// recorded answers the collector's commands with outputs of a tiny cluster
// (a test's stand-in for Slurm): one partition, a running job and a
// waiting one that Slurm expects to start at 1,800,000,300.
type recorded struct{}

func (recorded) Run(_ context.Context, name string, _ ...string) ([]byte, error) {
	switch name {
	case "scontrol":
		return []byte("PartitionName=batch MaxTime=01:00:00 State=UP TotalCPUs=16\n"), nil
	case "squeue":
		return []byte(`{"errors":[],"jobs":[
 {"job_id":41,"array_job_id":0,"job_state":"RUNNING","submit_time":1800000000,"start_time":1800000005,"time_limit":30,"partition":"batch","cpus":16,"nodes":"n1"},
 {"job_id":42,"array_job_id":0,"job_state":"PENDING","submit_time":1800000010,"start_time":1800000300,"time_limit":10,"partition":"batch","cpus":8,"nodes":""}]}`), nil
	case "sacct":
		return []byte(`{"errors":[{"description":"Nothing found","error_number":9003}],"jobs":[]}`), nil
	}
	return nil, fmt.Errorf("%s: unknown", name)
}

// A collector polls the cluster once into a service in the same process
// (the recording has no sbatch, so there are no probes; they are counted
// as failed in the Report).
func Example() {
	now := time.Unix(1_800_000_060, 0)
	svc, _ := karnak.New(nil, karnak.Config{Now: func() int64 { return now.Unix() }})
	svc.Load(context.Background())
	c, err := slurmfeed.New(slurmfeed.Config{
		System: "cluster1", Service: svc, Runner: recorded{},
		Now: func() time.Time { return now }, Since: time.Hour,
	})
	if err != nil {
		panic(err)
	}
	if err := c.Poll(context.Background()); err != nil {
		panic(err)
	}
	r := c.Report()
	fmt.Println(r.Batches, r.Events)
	// Job 42 waits; Slurm expects it to start at 1,800,000,300 (squeue),
	// which its prediction carries beside the service's own.
	p, _ := svc.PredictJob("cluster1", 42, 50, 90, 0)
	fmt.Println(p.Queue, p.Cores, p.WallTime, p.Slurm.Start)
	// Output:
	// 1 map[estimate:1 queue:1 start:1 submit:2]
	// batch 8 600 1800000300
}
