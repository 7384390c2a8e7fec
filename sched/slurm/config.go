package slurm

// Config is a Slurm site's scheduling configuration: the keys of
// slurm.conf that decide the order and the start of jobs (ParseConf reads
// them), and the fair-share tree of associations (Config.ReadShares reads
// it from sshare or sacctmgr output). Its zero value is Slurm 22.05's
// defaults with every priority weight 0, which orders jobs by submission
// (as priority/basic does) and backfills with sched/backfill's defaults.
//
// Times are seconds (slurm.conf gives most in minutes or microseconds;
// ParseConf converts). A zero field means Slurm's default, named beside
// it; where 0 is a meaningful Slurm value the field documents how to ask
// for it.
type Config struct {
	// Multifactor priority weights (PriorityWeightAge, ...Fairshare,
	// ...JobSize, ...Partition, ...QOS, ...Assoc). Each factor is in
	// [0, 1]; a job's priority is the sum of weight × factor, truncated
	// to an integer as Slurm does.
	WeightAge, WeightFairshare, WeightJobSize, WeightPartition, WeightQOS, WeightAssoc int64
	// MaxAge is PriorityMaxAge: the age at which the age factor reaches 1
	// (0: 7 days). Age counts from the job's eligible time (its submission
	// here: no dependencies or begin times).
	MaxAge int64
	// DecayHalfLife is PriorityDecayHalfLife, the half-life of past usage
	// in the fair-share factor (0: 7 days; -1: no decay, Slurm's 0).
	DecayHalfLife int64
	// CalcPeriod is PriorityCalcPeriod: how often usage is decayed and
	// priorities recomputed (0: 5 minutes).
	CalcPeriod int64
	// FavorSmall is PriorityFavorSmall: the job-size factor favours small
	// jobs instead of large ones.
	FavorSmall bool
	// ClassicFairshare is PriorityFlags=NO_FAIR_TREE: the classic
	// fair-share formula 2^(-usage/shares) instead of Fair Tree (Slurm's
	// default since 19.05).
	ClassicFairshare bool

	// Builtin is SchedulerType=sched/builtin: strict priority order, no
	// backfill. The default is sched/backfill.
	Builtin bool
	// BackfillInterval is bf_interval: the time between backfill cycles
	// (0: 30 s).
	BackfillInterval int64
	// BackfillWindow is bf_window: how far ahead backfill plans (0: one
	// day).
	BackfillWindow int64
	// BackfillResolution is bf_resolution: the time grid of backfill's
	// plans (0: 60 s).
	BackfillResolution int64
	// BackfillMaxJobTest is bf_max_job_test: the jobs one backfill cycle
	// considers (0: 500; in 22.05 the default is 500).
	BackfillMaxJobTest int64
	// BackfillMaxJobUser is bf_max_job_user: the jobs of one user one
	// cycle considers (0: no limit).
	BackfillMaxJobUser int64
	// BackfillContinue is bf_continue: a cycle resumes where the last one
	// stopped instead of at the head of the queue.
	BackfillContinue bool
	// UnixStart is the Unix time of simulated time 0 (an SWF log's
	// UnixStartTime). Slurm lays the named-node plan's grids on Unix time:
	// bf_resolution's (_attempt_backfill rounds on time(NULL)) and the
	// 30-s windows of cons_tres's will-run test (_will_run_test aligns its
	// first window on a multiple of 30 s of end_time). 0: both grids start
	// at time 0.
	UnixStart int64
	// NamedNodes makes backfill, under Policy.Run, plan on named nodes as
	// Slurm's node_space does, on a machine of several nodes whose jobs
	// each ask one node: a reservation holds its nodes, and later jobs
	// keep off them over its span. Off, backfill's plans count CPUs: a
	// reservation holds a node's worth of CPUs on no node in particular.
	// Not a slurm.conf key but a choice of model: its cost grows with the
	// nodes times the reservations a cycle makes, many times the plan of
	// CPUs' on a loaded machine of hundreds of nodes.
	NamedNodes bool
	// SchedInterval is sched_interval: the time between runs of the main
	// scheduler when nothing triggers it (0: 60 s).
	SchedInterval int64
	// SchedMinInterval is sched_min_interval: the least time between two
	// runs of the main scheduler's thread, whoever asked them (the
	// background loop's periodic and queued runs, an Epilog's); the loop
	// asks at its own ticks all the same, a periodic tick clearing the
	// queued run, and counts BatchSchedDelay from them. Slurm gives it in
	// microseconds, default 2 µs, below this model's 1-second clock: 0
	// (and -1, Slurm's 0) is no minimum.
	SchedMinInterval int64
	// BatchSchedDelay is batch_sched_delay: submissions and ends (without
	// an Epilog) only queue a main scheduler run, which slurmctld's
	// background loop, checking once a second, makes once this long has
	// passed since its last one, a run made while no job waited included
	// (0: 3 s; -1: none, Slurm's 0).
	BatchSchedDelay int64
	// Epilog is slurm.conf naming an Epilog: a node then reports the end
	// of a job after running it, and that report runs the main scheduler
	// at once (the epilog taken to last no time). Without one the node is
	// freed through the background loop (BatchSchedDelay). (Slurm 22.05
	// also runs it at once when, without an Epilog, slurmd's
	// epilog-complete report reaches slurmctld after the job's
	// completion: a race, 35 of 200 ends on a logged run of
	// examples/slurmcheck, which the model leaves to the loop.)
	Epilog bool
	// OverTimeLimit is OverTimeLimit: how long past its time limit a job
	// may run before it is killed (0: none).
	OverTimeLimit int64
	// KillCheck is how often slurmctld checks time limits (its
	// compiled-in PERIODIC_TIMEOUT, not a slurm.conf key): a job past
	// its limit plus OverTimeLimit is killed at the first check at or
	// after it, the checks counted from simulated time 0, slurmctld's
	// start (sched.Config.KillCheck). 0: 30 s; negative: killed at the
	// limit plus OverTimeLimit at once.
	KillCheck int64
	// KillWait is KillWait: the time between a killed job's SIGTERM and
	// SIGKILL (0: 30 s; -1: Slurm's 0). Backfill plans a job already
	// past its limit to end KillWait + OverTimeLimit after the limit
	// (Slurm's _guess_job_end); the job's end is the check's time, as
	// sacct reports it.
	KillWait int64
	// EnforceLimits is AccountingStorageEnforce with limits (or safe, or
	// all). Only then does Slurm 22.05 charge a job's usage since the
	// last PriorityCalcPeriod run when the job ends (priority_g_job_end
	// is called from the limits' accounting); otherwise usage is charged
	// only by the runs a job is running at, each for the time since the
	// previous run or its start, and a job that starts and ends between
	// two runs is never charged.
	EnforceLimits bool

	// NodeNames are the site's nodes in slurm.conf's order (NodeName
	// lines, expanded): the machine's nodes, in sched.Config.Nodes order,
	// are these. With them a partition's Nodes confine its jobs of a node
	// count (swf.Demand.Nodes; a job spread over the machine runs
	// anywhere) to those nodes under Run, as Slurm's partition node
	// bitmap does (empty: the machine's nodes are unnamed, and a
	// partition's Nodes give only its node count, its jobs running on any
	// node). New checks that they number the machine's nodes where a
	// partition runs on some of them only (else they confine nothing and
	// a machine of another size is no error).
	NodeNames []string

	// Partitions are the site's partitions (PartitionName lines). None is
	// one partition over the whole machine. A job's partition is its SWF
	// Queue number, named by PartitionNames; −1, and 0 when no name or
	// partition makes it "0" (SWF's interactive jobs, not a queue:
	// Policy.Defaulted counts them), is the default partition.
	Partitions []Partition
	// QOS maps a QOS name to its Priority (sacctmgr's QOS priority),
	// normalised by the largest as Slurm does. A job's QOS is named by
	// its SWF Partition field through QOSNames; none is "normal".
	QOS map[string]int64
	// Associations are the fair-share tree: accounts with their parent
	// and users under accounts, each with its RawShares (ReadShares reads
	// them). None gives every user one share directly under root.
	//
	// A job runs as its user under its account (SWF Group, through
	// AccountNames). Where the tree has no such user line, it runs under
	// the user's first account in the tree; a user the tree lacks runs
	// under its job's account, added under root with one share if the
	// tree lacks it too (root itself for a job without one), the user
	// with one share (ExampleConfig_ReadShares).
	//
	// Shares -1 is Fairshare=parent, as Slurm 22.05 takes it. A user set
	// to it competes with its account's share: its usage counts as the
	// account's (as every user's does), it counts no shares beside its
	// siblings, and its fair-share factor is the account's: classic, the
	// account's 2^(-UE/S); Fair Tree, it ranks above every sibling of
	// its account (its Level Fairshare is infinite), tied with the others
	// set to parent. An account set to it drops out of the fair-share
	// tree: its children are children of its first ancestor that is not
	// parent, and count in that level's shares; they still inherit its
	// Priority (only fair share is affected).
	Associations []Association
	// UserNames, AccountNames, PartitionNames and QOSNames turn the SWF
	// numbers of a job into Slurm's names: User (field 12), Group (field
	// 13, the account: swf/convert writes the account there when asked),
	// Queue (field 15, the partition) and Partition (field 16, the QOS:
	// SWF has no QOS field and swf/convert leaves 16 free). A number
	// without a name is its decimal string. ReadNames fills them from a
	// converted log's header.
	UserNames, AccountNames, PartitionNames, QOSNames map[int64]string
}

// Partition is one PartitionName line of slurm.conf.
type Partition struct {
	Name string
	// Nodes are the node names of the partition (Nodes=, expanded);
	// nil is every node.
	Nodes []string
	// MaxTime and DefaultTime are in seconds; 0 is UNLIMITED (MaxTime)
	// or MaxTime (DefaultTime).
	MaxTime, DefaultTime int64
	// MaxNodes is the most nodes one job may ask (0: no limit).
	MaxNodes int64
	// PriorityJobFactor feeds the partition factor (normalised by the
	// largest over partitions); PriorityTier orders partitions before
	// priority does.
	PriorityJobFactor, PriorityTier int64
	// Default is Default=YES.
	Default bool
	// Exclusive is OverSubscribe=EXCLUSIVE: each job holds its nodes
	// whole (all CPUs, memory and GPUs) until its end. Run makes the
	// partition's jobs swf.Demand.Exclusive on a machine of nodes; a
	// plain Schedule cannot change the simulator's jobs, and leaves them
	// as they are.
	Exclusive bool
}

// Association is one line of the fair-share tree: an account (User
// empty) under its Parent account ("" is root), or a user under Account.
type Association struct {
	Account, Parent, User string
	// Shares is RawShares (sshare) or Share (sacctmgr); 0 is 1, -1 is
	// Fairshare=parent (Config.Associations says what it does).
	Shares int64
	// Priority is the association's Priority (sacctmgr), which feeds
	// the assoc factor normalised by the largest; 0 inherits the parent
	// account's.
	Priority int64
	// RawUsage is a user's usage when the simulation begins (sshare's
	// RawUsage: decayed CPU-seconds); an account's is the sum of its
	// users', so it is read on user lines only. ReadShares leaves it 0:
	// set it from sshare's column to start from the site's usage.
	RawUsage float64
}
