package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// runInfo is one simulation: its inputs, its configuration and its outcome.
type runInfo struct {
	trace       *trace
	policy      sched.Preset
	cfg         sched.Config // as simulated (preset, then -compat, then the single options)
	machineFrom string       // "-machine", "MaxProcs" or "MaxNodes"
	res         *sched.Result
	readTime    time.Duration
	simTime     time.Duration
	wall        time.Duration
	outputs     []string // files written

	changedByRule map[string]int // res.Changed(), see changed

	nodes    []swf.Node     // -nodes: the machine's node kinds, nil for one pool
	nodesRep convert.Report // what reading -nodes found
	checked  bool           // -check ran
	checkErr error          // its violation, nil if none

	slurmIgnored []string // -slurm-conf: what ParseConf left out
	// slurmCancelled counts by reason, with -slurm-conf, the jobs no
	// partition can run, which the policy cancels at submission.
	slurmCancelled map[string]int
	// slurmDrift and slurmRefused are, with -slurm-conf on named nodes,
	// the backfill cycles whose plan parted from the machine's GPUs and
	// the starts the plan found room for that the machine refused
	// (slurm.Policy.PlanMisses): a warning when not 0.
	slurmDrift, slurmRefused int
	slurmHint                string // -slurm-conf: why jobs named an unknown partition
	slurmNoLimit             int    // -slurm-conf: the log's lines without a time limit (field 9)
	slurmNoQueue             int    // -slurm-conf: the log's lines without a queue (field 15 is -1): the policy runs their jobs in the default partition

	// streamed: the run took the streaming path (stream), whose Result
	// keeps no records; waits are its logged vs simulated waits.
	streamed     bool
	streamWaited bool // a job started after its submit time (streamLog.waited)
	waits        *waitCompare
	use          use // and Result.Use's

	// eMax scans every line's estimate as S6 does (sched.Sim.Load), to
	// tell a degenerate E_max (cli.DegenerateEMax): LLNL-Atlas's 23-year
	// estimate filled 6,294 jobs' with no word of it.
	eMax cli.EMaxScan

	// partitions are the jobs by partition (field 16) when they name more
	// than one, simulated as one pool, or under -slurm-conf read as their
	// QOS (ReadAs): LLNL-Atlas's and CEA-Curie's Slurm partitions are in
	// field 16, which the policy took for QOS with no word, every job in
	// the default partition (field 15 is -1 there). nil otherwise;
	// selected is -partition's.
	partCount cli.PartitionCount
	// partialOnly counts the jobs given by partial lines only, left out
	// whole (cli.PartialOnly).
	partialOnly cli.PartialOnly
	partitions  *cli.Partitions
	selected    *selection
}

// onePool is the note of the partitions c counted, simulated as one pool
// of machine processors.
func onePool(h *swf.Header, c *cli.PartitionCount, machine int64) *cli.Partitions {
	p := c.Partitions(h)
	if p != nil {
		p.Pool = machine
	}
	return p
}

// config builds the simulated configuration: the preset, then the peer's
// options (-compat), then the single options, which can only switch an
// option on.
func config(o options, machine int64) sched.Config {
	cfg := o.policy.New(machine)
	if o.compat != sched.PeerNone {
		cfg = cfg.WithPeer(o.compat)
	}
	cfg.PerEventPass = cfg.PerEventPass || o.perEvent
	cfg.KillAtEstimate = cfg.KillAtEstimate || o.kill
	cfg.ShadowTies = cfg.ShadowTies || o.ties
	return cfg
}

// nodesConfig makes cfg a machine of nodes: its size the nodes' cores
// (sched checks a -machine given against them).
func nodesConfig(cfg *sched.Config, o options, kinds []swf.Node) {
	// -check needs the shares, and -jobs-out writes them.
	cfg.Nodes, cfg.Placement, cfg.CountMemory, cfg.KeepShares = kinds, o.placement, o.countMemory, o.check || o.jobsOut != ""
	if o.machine == 0 {
		cfg.MachineSize = 0
		for _, k := range kinds {
			cfg.MachineSize += k.Count * k.Cores
		}
	}
}

// machineSize is -machine, else the header's.
func machineSize(o options, h *swf.Header, name string) (int64, string, error) {
	if o.machine > 0 {
		return o.machine, "-machine", nil
	}
	p, err := h.MachineSize()
	if err != nil {
		// err says which: no such line, or one not read as a size
		// ("MaxProcs: 0", "-5", "abc"), as forecast, replay and varq say.
		return 0, "", fmt.Errorf("%s: machine size unknown: %w; pass -machine P", name, err)
	}
	from := "header MaxNodes"
	if h.MaxProcs > 0 {
		from = "header MaxProcs"
	}
	// sched refuses a machine above 2^40 processors, as -machine does; the
	// file is named here, not left to sched's error, which names none.
	if err := cli.CheckMachine(p); err != nil {
		return 0, "", fmt.Errorf("%s: %w; pass -machine P (the size is the %s)", name, err, from)
	}
	return p, from, nil
}

func simulate(ctx context.Context, o options, stdin io.Reader, stdout, stderr io.Writer) error {
	t0 := time.Now()
	weights := 1.0 + 4.0
	if o.out != "" || o.jobsOut != "" {
		weights++
	}
	bar := progress.New(stderr, o.progress, weights)
	defer bar.Done()

	if streamable(o) {
		bar.Stage("read and simulate "+o.policy.Name, 5)
		info, err := stream(ctx, o, bar.Set)
		switch {
		case err == nil:
			info.streamed = true
			return finish(o, info, t0, stdout, bar)
		case !errors.Is(err, errRestart):
			return cli.LenientHint(err)
		}
	}
	bar.Stage("read", 1)
	tr, err := readTrace(o.trace, stdin, o.lenient, bar.Set)
	if err != nil {
		return cli.LenientHint(err)
	}
	info := &runInfo{trace: tr, policy: o.policy}
	if o.partitionSet {
		if info.selected, err = selectPartition(tr, o.partition); err != nil {
			return err
		}
	}
	for i := range tr.jobs {
		info.eMax.Add(&tr.jobs[i])
		info.partCount.Add(&tr.jobs[i])
		info.partialOnly.Add(&tr.jobs[i])
	}
	if o.nodes != "" {
		if info.nodes, info.nodesRep, err = cli.ReadNodes(o.nodes, o.lenient); err != nil {
			return err
		}
		info.machineFrom = "-nodes " + filepath.Base(o.nodes)
		info.cfg = config(o, o.machine)
		nodesConfig(&info.cfg, o, info.nodes)
	} else {
		if tr.format == formatAlibaba {
			return fmt.Errorf("%s: an Alibaba pod list asks for cores, memory and GPUs on nodes: pass the trace's node list as -nodes", tr.name)
		}
		machine, from, err := machineSize(o, tr.header, tr.name)
		if info.selected != nil && o.machine == 0 {
			// (A header whose size is unread guesses unbounded, and says
			// so: selection.HeaderUnread.)
			machine, from, err = info.selected.size(tr, machine)
		}
		if err != nil {
			return err
		}
		info.machineFrom = from
		info.cfg = config(o, machine)
	}
	info.readTime = time.Since(t0)

	if err := info.cfg.Validate(); err != nil {
		if o.nodes != "" {
			return fmt.Errorf("-nodes %s: %w", o.nodes, err)
		}
		return err
	}

	t1 := time.Now()
	if o.slurmConf != "" {
		info.policy = slurmPreset
		bar.Stage("simulate slurm", 4)
		if err := runSlurm(ctx, o, info); err != nil {
			return err
		}
		for _, s := range info.slurmIgnored {
			fmt.Fprintln(stderr, "simulate: slurm.conf:", s)
		}
		for _, why := range slices.Sorted(maps.Keys(info.slurmCancelled)) {
			fmt.Fprintf(stderr, "simulate: slurm: %d job(s) cancelled at submission: %s\n", info.slurmCancelled[why], why)
		}
		if info.slurmHint != "" {
			fmt.Fprintln(stderr, "simulate: slurm:", info.slurmHint)
		}
	} else {
		bar.Stage("simulate "+o.policy.Name, 4)
		if info.res, err = runSteps(ctx, info.cfg, tr.jobs, bar.Set); err != nil {
			return err
		}
	}
	info.simTime = time.Since(t1)
	if o.slurmConf == "" && info.selected == nil {
		info.partitions = onePool(tr.header, &info.partCount, info.cfg.MachineSize)
	} else if info.selected == nil {
		if info.partitions = info.partCount.Partitions(tr.header); info.partitions != nil {
			info.partitions.ReadAs = "slurm_qos"
		}
	}
	if o.check {
		info.checked, info.checkErr = true, info.res.Check()
	}

	return finish(o, info, t0, stdout, bar)
}

// finish writes the outputs and the report of a run.
func finish(o options, info *runInfo, t0 time.Time, stdout io.Writer, bar *progress.Bar) error {
	// A run that simulated no job writes no -out or -jobs-out: a schedule
	// of a header alone (or a CSV of its column names) looked like a
	// result to a script that checks for the file, while the exit status
	// is 1. The file is not created, and one already there is left as it
	// was; the error below says so.
	none := simulated(info.res) == 0
	if (o.out != "" || o.jobsOut != "") && !none {
		bar.Stage("write", 1)
	}
	if o.out != "" && !none {
		if err := writeFile(o.out, func(w io.Writer) error { return writeSchedule(w, info) }); err != nil {
			return err
		}
		info.outputs = append(info.outputs, o.out)
	}
	if o.jobsOut != "" && !none {
		if err := writeFile(o.jobsOut, func(w io.Writer) error { return writeJobsCSV(w, info.res) }); err != nil {
			return err
		}
		info.outputs = append(info.outputs, o.jobsOut)
	}
	bar.Done()
	info.wall = time.Since(t0)
	var err error
	if o.json {
		err = cli.WriteJSON(stdout, jsonReport(info))
	} else {
		err = textReport(stdout, info)
	}
	if err == nil {
		err = checkError(info)
	}
	if err == nil && none {
		// The report (printed) says why; the exit status says it too, as
		// forecast, qbets, replay and varq fail on a log with nothing to
		// work on, so that a script does not take 0 jobs for a result.
		n, of := info.trace.read, "read"
		if s := info.selected; s != nil { // (the others were left out, not rejected)
			n, of = s.Jobs, fmt.Sprintf("of partition %d", s.Partition)
		}
		err = fmt.Errorf("%s: no job was simulated: every one of the %d %s was rejected (%s)",
			info.trace.name, n, of, cli.Reasons(cli.ByReason(info.res.Rejected)))
		var unwritten []string
		for _, f := range []struct{ flag, path string }{{"-out", o.out}, {"-jobs-out", o.jobsOut}} {
			if f.path != "" {
				unwritten = append(unwritten, f.flag+" "+f.path)
			}
		}
		if unwritten != nil {
			err = fmt.Errorf("%w; %s not written", err, strings.Join(unwritten, " and "))
		}
	}
	return err
}

// runSteps simulates jobs under cfg step-wise, in slices of the arrival
// span, so that a long run moves the progress bar; the result is the one
// sched.Run gives.
func runSteps(ctx context.Context, cfg sched.Config, jobs []swf.Job, set func(float64)) (*sched.Result, error) {
	s, err := sched.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.Load(jobs); err != nil {
		return nil, err
	}
	// The arrival span of the jobs that can be simulated (the sane
	// predicate rejects the others).
	first, last := int64(math.MaxInt64), int64(-1)
	for i := range jobs {
		if t := jobs[i].Submit; t >= 0 && t <= sanitize.MaxTime {
			first, last = min(first, t), max(last, t)
		}
	}
	const slices = 100
	if last >= 0 {
		for k := 1; k <= slices; k++ {
			if err := ctx.Err(); err != nil {
				return nil, interrupted(err)
			}
			if err := s.RunUntilContext(ctx, first+(last-first)*int64(k)/slices); err != nil {
				return nil, interrupted(err)
			}
			set(0.9 * float64(k) / slices) // the rest: jobs running after the last arrival
		}
	}
	res, err := s.FinishContext(ctx)
	return res, interrupted(err) // (a stall's error comes with its Result)
}

func interrupted(err error) error {
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	return err
}
