package slurm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// BenchmarkConfinedNodes is the dear case of README.md's Cost: the first
// 5,000 SDSC-BLUE jobs with a run time and a size, each on ⌈size/8⌉ of
// 144 nodes of 8 CPUs, alternately in two partitions on the halves
// (confine.go). The figures there come from it under callgrind:
//
//	go test -c -o slurm.test && GOMAXPROCS=1 GOGC=off \
//	  GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind \
//	  ./slurm.test -test.run X -test.bench '^BenchmarkConfinedNodes$' -test.benchtime 1x
func BenchmarkConfinedNodes(b *testing.B) {
	_, all, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	var jobs []swf.Job
	for _, j := range all {
		if len(jobs) == 5000 {
			break
		}
		if j.RunTime <= 0 || j.Size() <= 0 {
			continue
		}
		j.Demand = &swf.Demand{Nodes: (j.Size() + 7) / 8}
		j.Queue = 1 + j.ID%2
		jobs = append(jobs, j)
	}
	conf := "NodeName=n[1-144] CPUs=8\nPartitionName=a Nodes=n[1-72] Default=YES\nPartitionName=b Nodes=n[73-144]\nSchedulerParameters=bf_interval=30\n"
	site, _, err := slurm.ParseConf(strings.NewReader(conf))
	if err != nil {
		b.Fatal(err)
	}
	site.PartitionNames = map[int64]string{1: "a", 2: "b"}
	machine := sched.Config{Nodes: []swf.Node{{Name: "n", Count: 144, Cores: 8}}}
	var wait int64
	for b.Loop() {
		p, err := slurm.New(site, machine)
		if err != nil {
			b.Fatal(err)
		}
		res, err := p.Run(context.Background(), jobs)
		if err != nil {
			b.Fatal(err)
		}
		wait = 0
		for _, r := range res.Records {
			wait += r.Wait
		}
	}
	b.ReportMetric(float64(wait)/float64(len(jobs)), "mean-wait-s")
}
