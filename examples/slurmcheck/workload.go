package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The site of the live check: one node declared with siteCPUs CPUs (more
// than the host has: slurm-cluster.sh runs slurmd with config_overrides),
// three partitions over it with different limits and PriorityJobFactor,
// multifactor priority with every factor weighted, and sched/backfill with
// its parameters set. PriorityCalcPeriod is its least value (a minute),
// and the half-life and maximum age are short enough that decay and age
// matter within the few minutes of the run.
const (
	siteCPUs = 48
	// bfInterval is bf_interval of siteConf: the tolerance of the
	// "started within one bf_interval" figure.
	bfInterval = 5
	siteConf   = `PriorityType=priority/multifactor
PriorityWeightAge=2000
PriorityWeightFairshare=3000
PriorityWeightJobSize=1000
PriorityWeightPartition=1500
PriorityWeightQOS=1000
PriorityCalcPeriod=1
PriorityDecayHalfLife=0-0:10
PriorityMaxAge=0-0:04
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=5,bf_resolution=10,bf_window=10,bf_max_job_test=50
AccountingStorageEnforce=associations
PartitionName=debug Nodes=localhost MaxTime=2 DefaultTime=1 PriorityJobFactor=10 State=UP
PartitionName=batch Nodes=localhost MaxTime=5 DefaultTime=2 PriorityJobFactor=5 Default=YES State=UP
PartitionName=long Nodes=localhost MaxTime=10 DefaultTime=5 PriorityJobFactor=1 State=UP
`
)

// siteAccount is an account of the fair-share tree, under root, with its
// users (user → RawShares under this account).
type siteAccount struct {
	name   string
	shares int64
	users  []siteUser
}

type siteUser struct {
	name   string
	shares int64
	qos    string // the QOS list the user may use ("": normal only)
}

// siteAccounts: three accounts of unequal shares; bq-erin is in two (bio
// by default, chem when she asks), bq-alice and bq-carol may ask for QOS
// high.
var siteAccounts = []siteAccount{
	{"physics", 50, []siteUser{{"bq-alice", 2, "normal,high"}, {"bq-bob", 1, ""}}},
	{"chem", 30, []siteUser{{"bq-carol", 1, "normal,high"}, {"bq-dave", 1, ""}, {"bq-erin", 1, ""}}},
	{"bio", 20, []siteUser{{"bq-erin", 1, ""}}},
}

// siteQOS is the QOS besides normal (priority 0), with its priority.
var siteQOS = map[string]int64{"high": 100}

// plannedJob is one job of the workload: who submits it where, its size,
// its time limit (minutes, as sbatch -t takes it), how long it sleeps,
// and when it is submitted (milliseconds after the first submission).
type plannedJob struct {
	User      string `json:"user"`
	Account   string `json:"account"`
	Partition string `json:"partition"`
	QOS       string `json:"qos"`
	CPUs      int64  `json:"cpus"`
	Limit     int64  `json:"limit_min"`
	Sleep     int64  `json:"sleep"`
	At        int64  `json:"at_ms"`
}

// workloadJobs and workloadGap: 200 jobs arriving about every 0.6 s
// (exponential gaps): about 1.4 times what the 48 CPUs serve, so that a
// queue of a minute or so of work forms and backfill has holes to fill.
const (
	workloadJobs = 200
	workloadGap  = 700 // mean gap, milliseconds
	workloadSeed = 33
)

// planWorkload is the workload, the same for the same seed: users submit
// in proportion 4:2:2:1:1 (alice, bob, carol, dave, erin), so that
// physics uses more than its share and its fair-share factor falls;
// sizes 1–24 CPUs, sleeps 1–10 s, partitions debug, batch and long with
// limits up to their MaxTime; a fifth of alice's and carol's jobs ask for
// QOS high; erin charges every third job to chem.
func planWorkload() []plannedJob {
	rng := rand.New(rand.NewPCG(workloadSeed, 2026))
	users := []string{"bq-alice", "bq-alice", "bq-alice", "bq-alice", "bq-bob", "bq-bob", "bq-carol", "bq-carol", "bq-dave", "bq-erin"}
	sizes := []int64{1, 1, 2, 2, 4, 4, 8, 8, 12, 16, 24}
	parts := []struct {
		name   string
		limits []int64
	}{{"debug", []int64{1, 2}}, {"batch", []int64{1, 2, 3, 5}}, {"long", []int64{2, 5, 10}}}
	account := map[string]string{"bq-alice": "physics", "bq-bob": "physics", "bq-carol": "chem", "bq-dave": "chem", "bq-erin": "bio"}
	jobs := make([]plannedJob, 0, workloadJobs)
	at := int64(0)
	for i := range workloadJobs {
		u := users[rng.IntN(len(users))]
		p := parts[rng.IntN(len(parts))]
		j := plannedJob{User: u, Account: account[u], Partition: p.name, QOS: "normal",
			CPUs: sizes[rng.IntN(len(sizes))], Limit: p.limits[rng.IntN(len(p.limits))], Sleep: 1 + rng.Int64N(10), At: at}
		if (u == "bq-alice" || u == "bq-carol") && rng.IntN(5) == 0 {
			j.QOS = "high"
		}
		if u == "bq-erin" && i%3 == 0 {
			j.Account = "chem"
		}
		jobs = append(jobs, j)
		at += int64(float64(workloadGap) * rng.ExpFloat64())
	}
	return jobs
}

// describeWorkload is the README's description of a workload.
func describeWorkload(jobs []plannedJob) string {
	var b strings.Builder
	by := func(key func(*plannedJob) string) string {
		n := map[string]int{}
		var order []string
		for i := range jobs {
			k := key(&jobs[i])
			if n[k] == 0 {
				order = append(order, k)
			}
			n[k]++
		}
		parts := make([]string, len(order))
		for i, k := range order {
			parts[i] = fmt.Sprintf("%s %d", k, n[k])
		}
		return strings.Join(parts, ", ")
	}
	var cpuSec int64
	for _, j := range jobs {
		cpuSec += j.CPUs * j.Sleep
	}
	span := float64(jobs[len(jobs)-1].At) / 1000
	fmt.Fprintf(&b, "%d jobs submitted over %.0f s (seeded exponential gaps, mean %d ms) to one node declared with %d CPUs: %.1f times what it serves over that span. ",
		len(jobs), span, workloadGap, siteCPUs, float64(cpuSec)/(span*siteCPUs))
	fmt.Fprintf(&b, "Users: %s. Accounts: %s. Partitions: %s. QOS: %s.\n",
		by(func(j *plannedJob) string { return j.User }), by(func(j *plannedJob) string { return j.Account }),
		by(func(j *plannedJob) string { return j.Partition }), by(func(j *plannedJob) string { return j.QOS }))
	return b.String()
}
