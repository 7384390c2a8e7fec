package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// bfInterval is bf_interval of every site's SchedulerParameters: the
// tolerance of the "started within one bf_interval" figure.
const bfInterval = 5

// liveSite is a site of the live check and its workload: Nodes nodes
// declared with CPUs CPUs each (more than the host has: slurm-cluster.sh
// runs slurmd with config_overrides, one slurmd a node), slurm.conf lines
// (Conf; NODES stands for the nodes' names), and the workload.
type liveSite struct {
	Name  string
	Nodes int
	CPUs  int64
	Conf  string
	Plan  func() []plannedJob
	// Accounts is the fair-share tree (nil: siteAccounts).
	Accounts []siteAccount
	// Parents gives an account's parent account (absent: root); a
	// parent comes before its children in Accounts.
	Parents map[string]string
	// Align starts the workload Align seconds after a run of the decay
	// thread (0: at once), so that the PriorityCalcPeriod runs fall at
	// the same points of the workload in every run.
	Align int64
}

// conf is the site's slurm.conf lines with its nodes' names.
func (s *liveSite) conf() string {
	names := "localhost"
	if s.Nodes > 1 {
		names = fmt.Sprintf("n[1-%d]", s.Nodes)
	}
	return strings.ReplaceAll(s.Conf, "NODES", names)
}

// siteSched is every site's priority and backfill: priority/multifactor
// with every factor weighted (age 2000, fair share 3000, job size 1000,
// partition 1500, QOS 1000), PriorityCalcPeriod its least value (a
// minute), a half-life and maximum age short enough that decay and age
// matter within the few minutes of the run, and sched/backfill with its
// parameters set (bf_interval is bfInterval).
const siteSched = `PriorityType=priority/multifactor
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
`

// sitePartitions: three partitions over every node with different
// limits and PriorityJobFactor.
const sitePartitions = `AccountingStorageEnforce=associations
PartitionName=debug Nodes=NODES MaxTime=2 DefaultTime=1 PriorityJobFactor=10 State=UP
PartitionName=batch Nodes=NODES MaxTime=5 DefaultTime=2 PriorityJobFactor=5 Default=YES State=UP
PartitionName=long Nodes=NODES MaxTime=10 DefaultTime=5 PriorityJobFactor=1 State=UP
`

// limitsPartitions are sitePartitions with AccountingStorageEnforce's
// limits: Slurm then charges each job's usage at its end.
var limitsPartitions = strings.Replace(sitePartitions, "AccountingStorageEnforce=associations", "AccountingStorageEnforce=associations,limits", 1)

// tiersSched is a second family of weights and backfill parameters
// (site "fs-tiers"): fair share dominant (10000, age only 500) with a
// half-life of 2 minutes, so that a user's usage of a minute ago already
// weighs half; PriorityFavorSmall with a job-size weight of 2000, QOS
// 3000, partition 1000; a maximum age of 10 minutes; backfill on a
// coarser grid (bf_resolution 30 s) over a window of 6 minutes, shorter
// than the long partition's MaxTime (so a job behind a long job's limit
// gets no reservation), testing 100 jobs a cycle and at most 4 of one
// user. bf_interval stays bfInterval: the figures' tolerance.
const tiersSched = `PriorityType=priority/multifactor
PriorityWeightAge=500
PriorityWeightFairshare=10000
PriorityWeightJobSize=2000
PriorityWeightPartition=1000
PriorityWeightQOS=3000
PriorityFavorSmall=YES
PriorityCalcPeriod=1
PriorityDecayHalfLife=0-0:02
PriorityMaxAge=0-0:10
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=5,bf_resolution=30,bf_window=6,bf_max_job_test=100,bf_max_job_user=4
`

// tiersPartitions: the same three partitions in two PriorityTiers: debug
// (tier 2, the lowest PriorityJobFactor) before batch and long (tier 1),
// whatever their priorities; usage charged at each job's end (limits).
const tiersPartitions = `AccountingStorageEnforce=associations,limits
PartitionName=debug Nodes=NODES MaxTime=2 DefaultTime=1 PriorityJobFactor=1 PriorityTier=2 State=UP
PartitionName=batch Nodes=NODES MaxTime=5 DefaultTime=2 PriorityJobFactor=10 PriorityTier=1 Default=YES State=UP
PartitionName=long Nodes=NODES MaxTime=10 DefaultTime=5 PriorityJobFactor=4 PriorityTier=1 State=UP
`

// fourNodeBursts is the four-node sites' workload.
func fourNodeBursts() []plannedJob {
	return planBursts(34, []int64{1, 1, 2, 2, 4, 4, 8, 8, 12, 16}, []int64{4, 6, 8, 10, 12, 15, 20}, 2, 6)
}

// oneNode is the first site: one node of 48 CPUs, jobs of 1–10 s
// arriving every 0.7 s on average (planWorkload). Two runs of it agree
// poorly (README.md).
var oneNode = liveSite{Name: "one-node", Nodes: 1, CPUs: 48, Plan: planWorkload,
	Conf: siteSched + sitePartitions}

// liveSites are the sites the live check can run (BATCHQ_SLURMCHECK_SITE
// names one; the first is the default).
var liveSites = []liveSite{
	{Name: "nodes4-fs", Nodes: 4, CPUs: 16, Align: 5, Accounts: separatedAccounts,
		Plan: fourNodeBursts,
		Conf: siteSched + limitsPartitions},
	// The same machine, workload and fair-share tree under the other
	// family of weights and backfill parameters (tiersSched).
	{Name: "fs-tiers", Nodes: 4, CPUs: 16, Align: 5, Accounts: separatedAccounts,
		Plan: fourNodeBursts,
		Conf: tiersSched + tiersPartitions},
	{Name: "nodes4", Nodes: 4, CPUs: 16, Align: 5,
		Plan: fourNodeBursts,
		Conf: siteSched + sitePartitions},
	{Name: "nodes8", Nodes: 8, CPUs: 8, Align: 5,
		Plan: func() []plannedJob {
			return planBursts(35, []int64{1, 2, 2, 4, 4, 4, 8, 8, 8, 8}, []int64{5, 8, 10, 12, 15, 20}, 2, 6)
		},
		Conf: siteSched + sitePartitions},
	{Name: "nodes4-limits", Nodes: 4, CPUs: 16, Align: 5,
		Plan: fourNodeBursts,
		Conf: siteSched + limitsPartitions},
	oneNode,
	gresSite,
	gresExclSite,
	partsSite,
	qosTreeSite,
}

// partsSched is the held-out site's priority and backfill: siteSched's
// weights under classic fair share (PriorityFlags=NO_FAIR_TREE), and
// backfill testing at most 20 jobs a cycle, fewer than the queue holds.
var partsSched = strings.Replace(siteSched, "bf_max_job_test=50", "bf_max_job_test=20", 1) + "PriorityFlags=NO_FAIR_TREE\n"

// partsPartitions: the three partitions over different nodes of the
// four: debug on n1–n2, long on n3–n4 (disjoint), batch on n2–n4
// (overlapping both); usage charged at each job's end (limits).
const partsPartitions = `AccountingStorageEnforce=associations,limits
PartitionName=debug Nodes=n[1-2] MaxTime=2 DefaultTime=1 PriorityJobFactor=10 State=UP
PartitionName=batch Nodes=n[2-4] MaxTime=5 DefaultTime=2 PriorityJobFactor=5 Default=YES State=UP
PartitionName=long Nodes=n[3-4] MaxTime=10 DefaultTime=5 PriorityJobFactor=1 State=UP
`

// partsSite is the held-out site: the four-node machine, workload and
// fair-share tree, with partitions over different node sets
// (partsPartitions), classic fair share and a binding bf_max_job_test
// (partsSched). A job runs only on its partition's nodes.
var partsSite = liveSite{Name: "parts", Nodes: 4, CPUs: 16, Align: 5, Accounts: separatedAccounts,
	Plan: fourNodeBursts,
	Conf: partsSched + partsPartitions}

// gresSite is the site of memory and GPUs: the live site's weights,
// partitions and fair-share tree on its four nodes of 16 CPUs, each with
// the 4000 MB and 4 GPUs slurm-cluster.sh declares, memory a consumable
// resource (CR_CPU_Memory: SelectTypeParameters replaces the script's
// CR_CPU), and jobs that ask memory and GPUs as well as CPUs (gresBursts).
var gresSite = liveSite{Name: "gres", Nodes: 4, CPUs: 16, Align: 5, Accounts: separatedAccounts,
	Plan: gresBursts,
	Conf: siteSched + limitsPartitions + "SelectTypeParameters=CR_CPU_Memory\n"}

// gresBursts is the site of memory and GPUs' workload: the four-node
// sites' users, partitions, limits, QOS and bursts (planBursts, its own
// seed), each job then drawn one of three kinds (a second stream of the
// same seed): a CPU job (1–16 CPUs, 100 MB a CPU), a memory job (1–2
// CPUs and 2500–3500 MB: most of a node's 4000, so one a node), or a GPU
// job (1–4 CPUs, 1, 2 or 4 GPUs of a node's 4, 500–1000 MB). Memory and
// GPUs bind where CPUs do not: a model of CPUs alone starts memory jobs
// side by side on a node, and GPU jobs beyond a node's four.
func gresBursts() []plannedJob {
	jobs := planBursts(29, []int64{1, 2, 4, 8, 12, 16}, []int64{4, 6, 8, 10, 12, 15, 20}, 2, 6)
	rng := rand.New(rand.NewPCG(29, 4000))
	pick := func(xs ...int64) int64 { return xs[rng.IntN(len(xs))] }
	for i := range jobs {
		j := &jobs[i]
		switch k := rng.IntN(20); {
		case k < 8: // a CPU job: its drawn CPUs
			j.Mem = 100 * j.CPUs
		case k < 14: // memory
			j.CPUs, j.Mem = pick(1, 1, 2), pick(2500, 3000, 3500)
		default: // GPUs
			j.CPUs, j.GPUs, j.Mem = pick(1, 2, 4), pick(1, 2, 2, 4), pick(500, 1000)
		}
	}
	return jobs
}

// gresExclSite is the site of memory and GPUs with exclusive jobs: the
// same machine and slurm.conf as gresSite, and a workload (gresExclBursts)
// where some jobs ask --exclusive and so hold a node whole.
var gresExclSite = liveSite{Name: "gres-excl", Nodes: 4, CPUs: 16, Align: 5, Accounts: separatedAccounts,
	Plan: gresExclBursts,
	Conf: siteSched + limitsPartitions + "SelectTypeParameters=CR_CPU_Memory\n"}

// gresExclBursts is gresBursts's kinds of job on another seed, a tenth of
// the jobs (1–4 CPUs, 500 MB, no GPUs or 1) asking --exclusive instead:
// each then holds one of the four nodes whole, so the jobs after it wait
// for a node to empty, where a model of the CPUs asked starts them.
func gresExclBursts() []plannedJob {
	jobs := planBursts(31, []int64{1, 2, 4, 8, 12, 16}, []int64{4, 6, 8, 10, 12, 15, 20}, 2, 6)
	rng := rand.New(rand.NewPCG(31, 4000))
	pick := func(xs ...int64) int64 { return xs[rng.IntN(len(xs))] }
	for i := range jobs {
		j := &jobs[i]
		switch k := rng.IntN(20); {
		case k < 2: // exclusive
			j.CPUs, j.GPUs, j.Mem, j.Exclusive = pick(1, 2, 4), pick(0, 1), 500, true
		case k < 9: // a CPU job: its drawn CPUs
			j.Mem = 100 * j.CPUs
		case k < 14: // memory
			j.CPUs, j.Mem = pick(1, 1, 2), pick(2500, 3000, 3500)
		default: // GPUs
			j.CPUs, j.GPUs, j.Mem = pick(1, 2, 4), pick(1, 2, 2, 4), pick(500, 1000)
		}
	}
	return jobs
}

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

// separatedAccounts are siteAccounts with shares that keep Fair Tree's
// ranks apart under the workload's mix: physics, which runs some 57% of
// planBursts's CPU-seconds, has 30 shares and chem, some 38%, 50, so the
// accounts' level fair shares lie near 0.5 and 1.3 rather than both near
// 0.8; alice and bob run about half of physics's each, so bob gets three
// shares to alice's one (0.5 and 1.5 rather than both near 1); carol,
// dave and erin run 54%, 29% and 17% of chem's with one share each.
// Near-equal level fair shares swap ranks on a few CPU-seconds of usage,
// which a second of slurmctld's pace decides.
var separatedAccounts = []siteAccount{
	{"physics", 30, []siteUser{{"bq-alice", 1, "normal,high"}, {"bq-bob", 3, ""}}},
	{"chem", 50, []siteUser{{"bq-carol", 1, "normal,high"}, {"bq-dave", 1, ""}, {"bq-erin", 1, ""}}},
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
	// Mem (MB, sbatch --mem) and GPUs (--gres=gpu:N) a node: asked only
	// on the site of memory and GPUs (gresSite); 0 is not asked.
	Mem  int64 `json:"mem_mb,omitempty"`
	GPUs int64 `json:"gpus,omitempty"`
	// Exclusive is sbatch --exclusive: the job holds its node whole
	// (site gres-excl only).
	Exclusive bool  `json:"exclusive,omitempty"`
	Limit     int64 `json:"limit_min"`
	Sleep     int64 `json:"sleep"`
	At        int64 `json:"at_ms"`
}

// workloadJobs and workloadGap: 200 jobs arriving about every 0.7 s
// (exponential gaps): about 1.3 times what the 48 CPUs serve, so that a
// queue of a minute or so of work forms and backfill has holes to fill.
// This is the workload of the one-node site (oneNode).
const (
	workloadJobs = 200
	workloadGap  = 700 // mean gap, milliseconds
	workloadSeed = 33
)

// planWorkload is the one-node site's workload, the same for the same
// seed: users submit
// in proportion 4:2:2:1:1 (alice, bob, carol, dave, erin), so that
// physics uses more than its share and its fair-share factor falls;
// sizes 1–24 CPUs, sleeps 1–10 s, partitions debug, batch and long with
// limits up to their MaxTime; a fifth of alice's and carol's jobs ask for
// QOS high; erin charges every third job to chem.
func planWorkload() []plannedJob {
	return planJobs(workloadSeed, []int64{1, 1, 2, 2, 4, 4, 8, 8, 12, 16, 24}, func(rng *rand.Rand) int64 { return 1 + rng.Int64N(10) },
		func(rng *rand.Rand, _ int) int64 { return int64(float64(workloadGap) * rng.ExpFloat64()) })
}

// planBursts is the several-node sites' workload: the same users,
// accounts, partitions, limits and QOS as planWorkload, sizes up to one
// node, sleeps of whole seconds far above Slurm's one-second
// loop and sacct's one-second resolution, and submissions in bursts of
// 1–9 sbatch calls, the bursts whole seconds apart (gapMin to gapMax).
func planBursts(seed uint64, sizes, sleeps []int64, gapMin, gapMax int64) []plannedJob {
	burst := 0
	return planJobs(seed, sizes, func(rng *rand.Rand) int64 { return sleeps[rng.IntN(len(sleeps))] },
		func(rng *rand.Rand, _ int) int64 {
			if burst > 0 {
				burst--
				return 0
			}
			burst = rng.IntN(9)
			return 1000 * (gapMin + rng.Int64N(gapMax-gapMin+1))
		})
}

// planJobs draws workloadJobs jobs: sizes from sizes, sleeps from sleep,
// and the gap after job i from gap (ms).
func planJobs(seed uint64, sizes []int64, sleep func(*rand.Rand) int64, gap func(*rand.Rand, int) int64) []plannedJob {
	rng := rand.New(rand.NewPCG(seed, 2026))
	users := []string{"bq-alice", "bq-alice", "bq-alice", "bq-alice", "bq-bob", "bq-bob", "bq-carol", "bq-carol", "bq-dave", "bq-erin"}
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
			CPUs: sizes[rng.IntN(len(sizes))], Limit: p.limits[rng.IntN(len(p.limits))], Sleep: sleep(rng), At: at}
		if (u == "bq-alice" || u == "bq-carol") && rng.IntN(5) == 0 {
			j.QOS = "high"
		}
		if u == "bq-erin" && i%3 == 0 {
			j.Account = "chem"
		}
		jobs = append(jobs, j)
		at += gap(rng, i)
	}
	return jobs
}

// describeWorkload is the README's description of a workload.
func describeWorkload(jobs []plannedJob, nodes, perNode int64) string {
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
	instants, whole := 1, true
	for i := range jobs {
		if i > 0 && jobs[i].At != jobs[i-1].At {
			instants++
		}
		whole = whole && jobs[i].At%1000 == 0
	}
	machine := fmt.Sprintf("one node declared with %d CPUs", perNode)
	if nodes > 1 {
		machine = fmt.Sprintf("%d nodes declared with %d CPUs each", nodes, perNode)
	}
	how := "seeded exponential gaps"
	if whole {
		how = fmt.Sprintf("in %d bursts whole seconds apart", instants)
	}
	fmt.Fprintf(&b, "%d jobs submitted over %.0f s (%s, a mean %.2f s between submissions) to %s: %.1f times what it serves over that span. ",
		len(jobs), span, how, span/float64(len(jobs)-1), machine, float64(cpuSec)/(span*float64(nodes*perNode)))
	fmt.Fprintf(&b, "Users: %s. Accounts: %s. Partitions: %s. QOS: %s.\n",
		by(func(j *plannedJob) string { return j.User }), by(func(j *plannedJob) string { return j.Account }),
		by(func(j *plannedJob) string { return j.Partition }), by(func(j *plannedJob) string { return j.QOS }))
	return b.String()
}
