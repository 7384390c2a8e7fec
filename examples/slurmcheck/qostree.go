package main

import "math/rand/v2"

// qosTreeSched is the second held-out site's priority and backfill: the
// QOS weight dominant (10000 against fair share 2000, age 1000, job size
// and partition 500 each), a maximum age of one minute, below most
// waits, so that the age factor saturates; a half-life of 5 minutes;
// backfill on a grid of a minute (bf_resolution=60) over a window of 20
// minutes, with bf_continue. bf_interval stays bfInterval: the figures'
// tolerance.
const qosTreeSched = `PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityWeightFairshare=2000
PriorityWeightJobSize=500
PriorityWeightPartition=500
PriorityWeightQOS=10000
PriorityCalcPeriod=1
PriorityDecayHalfLife=0-0:05
PriorityMaxAge=0-0:01
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=5,bf_resolution=60,bf_window=20,bf_max_job_test=50,bf_continue
`

// qosTreeAccounts is a fair-share tree one level deeper than the other
// sites': physics (30) holds two sub-accounts, theory (1 share: bq-alice)
// and exp (3: bq-bob), so Fair Tree ranks them under physics before
// their users; chem and bio are separatedAccounts'. Every user may ask
// QOS high.
var qosTreeAccounts = []siteAccount{
	{"physics", 30, nil},
	{"theory", 1, []siteUser{{"bq-alice", 1, "normal,high"}}},
	{"exp", 3, []siteUser{{"bq-bob", 1, "normal,high"}}},
	{"chem", 50, []siteUser{{"bq-carol", 1, "normal,high"}, {"bq-dave", 1, "normal,high"}, {"bq-erin", 1, "normal,high"}}},
	{"bio", 20, []siteUser{{"bq-erin", 1, "normal,high"}}},
}

// qosTreeSite is the second held-out site: the four-node machine and
// partitions (limits enforced) with keys no other site sets — the QOS
// weight dominant, PriorityMaxAge binding, bf_resolution of a minute,
// bf_continue, a deeper account tree — and a workload (qosTreeBursts)
// with jobs Slurm kills at their time limit.
var qosTreeSite = liveSite{Name: "qos-tree", Nodes: 4, CPUs: 16, Align: 5, Accounts: qosTreeAccounts,
	Parents: map[string]string{"theory": "physics", "exp": "physics"},
	Plan:    qosTreeBursts,
	Conf:    qosTreeSched + limitsPartitions}

// qosTreeBursts is the four-node sites' bursts on their own seed, 2–5 s
// apart (a load near the other sites': the killed jobs' minute adds), each
// job then drawn (a second stream of the seed): bq-alice's jobs charged
// to theory and bq-bob's to exp (physics's sub-accounts), a quarter of
// all jobs in QOS high, and one job in 25 a job Slurm kills at its time
// limit: 1–4 CPUs in debug with a limit of a minute, sleeping 100 s
// (slurmctld checks the limits every 30 s, so it ends 60–90 s after its
// start).
func qosTreeBursts() []plannedJob {
	jobs := planBursts(37, []int64{1, 1, 2, 2, 4, 4, 8, 8, 12, 16}, []int64{4, 6, 8, 10, 12, 15, 20}, 2, 5)
	rng := rand.New(rand.NewPCG(37, 4000))
	for i := range jobs {
		j := &jobs[i]
		switch j.User {
		case "bq-alice":
			j.Account = "theory"
		case "bq-bob":
			j.Account = "exp"
		}
		j.QOS = "normal"
		if rng.IntN(4) == 0 {
			j.QOS = "high"
		}
		if rng.IntN(25) == 0 {
			j.Partition, j.CPUs, j.Limit, j.Sleep = "debug", 1+rng.Int64N(4), 1, 100
		}
	}
	return jobs
}
