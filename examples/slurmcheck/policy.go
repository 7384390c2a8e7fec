package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// siteConfig is the recorded site as the Slurm policy reads it: the
// slurm.conf lines (slurm.ParseConf), the fair-share tree (sshare) and the
// QOS priorities (sacctmgr), and the names of the SWF numbers. It returns
// the keys the model ignored, for the README.
func siteConfig(c *checked) (slurm.Config, []string, error) {
	cfg, ignored, err := slurm.ParseConf(strings.NewReader(c.rec.Conf))
	if err != nil {
		return cfg, nil, err
	}
	// Each error names the recording's field: both are read by
	// ReadShares, whose "shares: empty input" named sshare for an empty
	// sacctmgr_qos.
	if err := cfg.ReadShares(strings.NewReader(c.rec.Shares)); err != nil {
		return cfg, nil, fmt.Errorf("sshare: %w", err)
	}
	if err := cfg.ReadShares(strings.NewReader(c.rec.QOS)); err != nil {
		return cfg, nil, fmt.Errorf("sacctmgr_qos: %w", err)
	}
	names := func(ns []string) map[int64]string {
		m := make(map[int64]string, len(ns))
		for i, n := range ns {
			m[int64(i+1)] = n
		}
		return m
	}
	cfg.UserNames, cfg.AccountNames, cfg.PartitionNames, cfg.QOSNames = names(c.users), names(c.accounts), names(c.partitions), names(c.qos)
	return cfg, ignored, nil
}

// slurmName names the Slurm policy's row.
const slurmName = "Slurm policy (sched/slurm)"

// runSlurm is the Slurm policy (package sched/slurm) under the recorded
// site, on the recorded machine: its nodes of the recorded CPUs (not a
// pool of one-CPU nodes: Slurm's backfill reserves whole nodes).
// Its backfill plans on named nodes, as Slurm's does (a few nodes: the
// faithful plan costs little).
func runSlurm(ctx context.Context, c *checked) (*simulated, error) {
	return runSlurmPlan(ctx, c, true)
}

// cpuOnlyName names the row of the Slurm policy that ignores the jobs'
// memory and GPUs.
const cpuOnlyName = "Slurm policy, CPUs only (memory and GPUs ignored)"

// runSlurmCPUs is the Slurm policy as runSlurm on nodes of the recorded
// CPUs alone, the jobs' memory and GPUs ignored: what a model of CPUs
// makes of a site where memory and GPUs bind. Nil when no job asks them
// (it would be runSlurm's row again).
func runSlurmCPUs(ctx context.Context, c *checked) (*simulated, error) {
	if !c.demand {
		return nil, nil
	}
	cc := *c
	cc.memPerNode, cc.gpusPerNode = 0, 0
	cc.jobs = slices.Clone(c.jobs)
	for i := range cc.jobs {
		if cc.jobs[i].Demand != nil {
			cc.jobs[i].Demand = &swf.Demand{Nodes: cc.jobs[i].Demand.Nodes}
		}
	}
	s, err := runSlurmPlan(ctx, &cc, true)
	if s != nil {
		s.name = cpuOnlyName
	}
	return s, err
}

// runSlurmPlan is runSlurm with backfill's plan on named nodes or of CPUs
// (slurm.Config.NamedNodes).
func runSlurmPlan(ctx context.Context, c *checked, namedNodes bool) (*simulated, error) {
	cfg, _, err := siteConfig(c)
	if err != nil {
		return nil, err
	}
	cfg.NamedNodes = namedNodes
	cfg.KillCheck = c.killCheck
	// Simulated time 0 is the Unix second origin: Slurm's backfill grids
	// lie on Unix time.
	cfg.UnixStart = c.origin
	p, err := slurm.New(cfg, sched.Config{Nodes: []swf.Node{{Name: "node", Count: c.nodes, Cores: c.perNode, Memory: c.memPerNode, GPUs: c.gpusPerNode}}})
	if err != nil {
		return nil, err
	}
	ps := &prioSampler{c: c, p: p, prios: make([]map[string]int64, len(c.rec.Samples))}
	res, err := p.Run(ctx, c.jobs, ps)
	if err != nil {
		return nil, err
	}
	s, err := startsOf(slurmName, c, res)
	if err != nil {
		return nil, err
	}
	ps.flush(math.MaxInt64)
	s.prios = ps.prios
	if d, r, ok := p.PlanMisses(); ok {
		s.plan = &planMisses{d, r}
	}
	return s, nil
}

// prioSampler takes the policy's priorities of the waiting jobs at the
// recorded sample times. The simulation tells it only of events, so
// sample k is taken at the first event at or after its time; priorities
// change only at submissions (the new job's own) and at the
// PriorityCalcPeriod runs, so that is the state at the sample time unless
// a run lies in between: such samples are left out (taken as nil).
type prioSampler struct {
	c     *checked
	p     *slurm.Policy
	next  int
	prios []map[string]int64
}

func (s *prioSampler) flush(now int64) {
	at := s.c.origin + now // Unix seconds
	for ; s.next < len(s.c.rec.Samples); s.next++ {
		smp := s.c.rec.Samples[s.next]
		if smp.T > at*1000 {
			return
		}
		if now == math.MaxInt64 {
			continue
		}
		skip := false
		for _, d := range s.c.rec.Decays {
			if d > smp.T && d <= at*1000+999 {
				skip = true
			}
		}
		if skip {
			continue
		}
		ps, err := parseSprio(smp.Sprio)
		if err != nil {
			continue // score reports it
		}
		m := map[string]int64{}
		for _, pr := range ps {
			k, ok := s.c.index[pr.ID]
			if !ok {
				continue
			}
			if v, ok := s.p.Priority(int64(k + 1)); ok {
				m[pr.ID] = v
			}
		}
		s.prios[s.next] = m
	}
}

func (s *prioSampler) OnSubmit(now int64, _ *swf.Job)               { s.flush(now) }
func (s *prioSampler) OnStart(now int64, _ *swf.Job, _ bool)        { s.flush(now) }
func (s *prioSampler) OnEnd(now int64, _ *swf.Job, _ bool)          { s.flush(now) }
func (s *prioSampler) OnReservation(now int64, _ *swf.Job, _ int64) {}
