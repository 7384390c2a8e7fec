package sched_test

import (
	"context"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

func TestZZProf(t *testing.T) {
	_, jobs, _ := swf.ReadFile(tracetest.Path(t, tracetest.SDSCBlue))
	jobs = jobs[:40000]
	t0 := time.Now()
	sched.Run(context.Background(), sched.EASY(1152), jobs)
	t.Log("pool", time.Since(t0))
	t0 = time.Now()
	sched.Run(context.Background(), sched.Config{Nodes: []swf.Node{{Count: 1152, Cores: 1}}}, jobs)
	t.Log("nodes", time.Since(t0))
}
