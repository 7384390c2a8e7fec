package forecast_test

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/qbets/conformal"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// A machine of 10 processors at t = 40 s: one job runs on all of them
// (estimate 100 s), three wait. EASY on the user estimates, as squeue
// --start would answer: A starts when the running job ends, B waits for A,
// and C backfills beside A.
func Example() {
	f, _ := forecast.New(forecast.Config{Estimates: true})
	s := &forecast.Snapshot{
		Now: 40, MachineSize: 10,
		Running: []swf.Job{{ID: 1, Submit: 0, Wait: 0, AllocProcs: 10, ReqTime: 100}},
		Waiting: []swf.Job{
			{ID: 2, Submit: 10, AllocProcs: 5, ReqTime: 50},  // A
			{ID: 3, Submit: 20, AllocProcs: 10, ReqTime: 30}, // B
			{ID: 4, Submit: 30, AllocProcs: 5, ReqTime: 20},  // C
		},
	}
	starts, _ := f.Forecast(context.Background(), s)
	fmt.Println("A, B, C start at", starts)
	// And if I submitted one processor for 10 s now?
	at, _ := f.WhatIf(context.Background(), s, swf.Job{AllocProcs: 1, ReqTime: 10})
	fmt.Println("a 1-processor, 10 s job would start at", at)
	// Output:
	// A, B, C start at [100 150 100]
	// a 1-processor, 10 s job would start at 120
}

// A machine of two nodes of 8 cores and one GPU each (Config.Policy.Nodes)
// at t = 10 s: two 1-core jobs hold both GPUs. A job asking one GPU waits
// for the first of them to end, though 14 cores are idle; one pool of 16
// cores would start it now.
func Example_nodes() {
	gpu := func(id, submit, wait, est, gpus int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, Wait: wait, AllocProcs: 1, ReqTime: est,
			Demand: &swf.Demand{Nodes: 1, Cores: 1, GPUs: gpus}} // GPUs in thousandths
	}
	s := &forecast.Snapshot{Now: 10, // MachineSize 0: the nodes' cores
		Running: []swf.Job{gpu(1, 0, 0, 100, 1000), gpu(2, 0, 0, 200, 1000)},
		Waiting: []swf.Job{gpu(3, 5, -1, 50, 1000)},
	}
	nodes := []swf.Node{{Name: "gpu", Count: 2, Cores: 8, Memory: 64, GPUs: 1}}
	f, _ := forecast.New(forecast.Config{Estimates: true, Policy: sched.Config{Nodes: nodes}})
	starts, _ := f.Forecast(context.Background(), s)
	fmt.Println("on the nodes:", starts)
	pool, _ := forecast.New(forecast.Config{Estimates: true})
	s.MachineSize = 16
	starts, _ = pool.Forecast(context.Background(), s)
	fmt.Println("on one pool:", starts)
	// Output:
	// on the nodes: [100]
	// on one pool: [10]
}

// "When will my job start?", with an interval: a forecast's calibrated
// interval comes from a conformal.Calibrator that has seen how far past
// forecasts of the job's class fell from the waits that followed
// (conformal.Wrap keeps one up to date over a live stream; its class of a
// 16-processor job is 4). Here the last 200 forecasts of that class were
// right within a factor 2: the 1-hour forecast of a hypothetical job gets
// an interval of half an hour to two hours at 90%.
func Example_interval() {
	f, _ := forecast.New(forecast.Config{Estimates: true})
	s := &forecast.Snapshot{
		Now: 600, MachineSize: 32, // the machine is full until 4200
		Running: []swf.Job{{ID: 1, Submit: 0, Wait: 0, AllocProcs: 32, ReqTime: 4200}},
	}
	at, err := f.WhatIf(context.Background(), s, swf.Job{AllocProcs: 16, ReqTime: 3600})
	if err != nil {
		fmt.Println(err) // a bad snapshot, or the context's error
		return
	}
	wait := float64(at - s.Now)

	c, _ := conformal.NewCalibrator(conformal.Config{Split: true})
	const class = 4 // 9–16 processors, as conformal.Wrap numbers them
	for i := range 200 {
		ratio := 0.5 + 1.5*float64(i%11)/10 // waits 0.5 to 2 times the forecast
		c.Update(class, 1800, 1800*ratio)
	}
	last := len(c.Levels()) - 1
	lo, hi := c.Interval(class, wait, last)
	fmt.Printf("start in %.0f s; %.0f%%: %.0f s to %.0f s\n", wait, 100*c.Levels()[last], lo, hi)
	// Output:
	// start in 3600 s; 90%: 1800 s to 7200 s
}
