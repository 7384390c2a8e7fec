package main

import (
	"fmt"
	"path/filepath"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/synth"
)

// workload is the job stream the run simulates.
type workload struct {
	name    string // a few words, for figure titles
	desc    string // one line for the report
	machine int64
	jobs    []swf.Job // in submit order
	// outOfOrder counts the trace's job lines earlier than the line before
	// them, which the replay takes in submit order (as simulate, which
	// says so too).
	outOfOrder int
	zeros      int64       // zero bytes after the trace's last gzip member, ignored
	skipped    cli.Skipped // the trace's malformed lines skipped (-lenient)
	// otherStatus is the trace's job lines of a status outside the SWF
	// standard (kept and simulated), said as simulate and swfstat say it.
	otherStatus cli.OtherStatus
	// partialOnly counts the jobs given by partial lines only, no summary
	// line under their number (cli.PartialOnly): left out whole, where the
	// report said every partial line's job had its summary line simulated.
	partialOnly int
	// partitions are the trace's jobs by partition when they name more
	// than one, simulated as one pool (cli.Partitions), nil otherwise.
	partitions *cli.Partitions
}

// maxSynthJobs is the most jobs synth.Generator.Jobs makes at once.
const maxSynthJobs = 1 << 28

// synthetic generates days of the Lublin–Feitelson model with modal-model
// user estimates (package swf/synth). The model has no job count for a
// span, so a first pass counts the jobs submitted within it and a second,
// identically seeded, generates them with estimates (the estimate model
// needs the whole batch to place its modes).
func synthetic(days float64, machine int64, load float64, seed uint64) (workload, error) {
	if !(days > 0) {
		return workload{}, fmt.Errorf("-days %v: must be positive", days)
	}
	cfg := synth.Config{Machine: machine, TargetLoad: load, Seed: seed}
	g, err := synth.New(cfg)
	if err != nil {
		return workload{}, err
	}
	span := int64(days * 86400)
	n := 0
	for g.Next().Submit < span {
		if n++; n > maxSynthJobs {
			// Stop counting where synth would refuse the batch anyway.
			return workload{}, cli.Usagef("-days %v: more than %d jobs on %d nodes (give fewer days)", days, maxSynthJobs, machine)
		}
	}
	cfg.Estimator = estmodel.Modal{}
	if g, err = synth.New(cfg); err != nil {
		return workload{}, err
	}
	jobs, err := g.Jobs(n)
	if err != nil {
		// Too few jobs for the model's estimates (fewer than 200, or
		// none: -days 1e-300 is a span of 0 s) is the flag's value, as
		// -days 0 is: a usage error (it was exit 1, as a run's failure).
		return workload{}, cli.Usagef("-days %v gives %d jobs: %v (give more days)", days, n, err)
	}
	loadDesc := fmt.Sprintf("target offered load %.2f", load)
	if load == 0 {
		loadDesc = "the model's own load"
	}
	return workload{
		name: fmt.Sprintf("synthetic, %d nodes", machine),
		desc: fmt.Sprintf("synthetic: Lublin–Feitelson model, %d nodes, %s, seed %d, %.1f days, %d jobs, modal-model user estimates",
			machine, loadDesc, seed, days, n),
		machine: machine,
		jobs:    jobs,
	}, nil
}

// fromTrace reads an SWF log (plain or gzip); machine 0 takes the size from
// the header; lenient skips malformed lines (counted).
func fromTrace(path string, machine int64, lenient bool) (workload, error) {
	h, jobs, st, zeros, err := cli.ReadLogLenient(path, lenient)
	if err != nil {
		return workload{}, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return workload{}, fmt.Errorf("%s: no job lines", path)
	}
	if machine == 0 {
		if machine, err = h.MachineSize(); err != nil {
			return workload{}, fmt.Errorf("%s: %w (give -machine)", path, err)
		}
		// -machine's bound, with the file named (sched's error names none)
		if err := cli.CheckMachine(machine); err != nil {
			return workload{}, fmt.Errorf("%s: %w (give -machine)", path, err)
		}
	}
	// Reorder counts what swfstat and simulate count (swf.Stats.OutOfOrder):
	// lines earlier than the known submit before them.
	jobs, reordered := sanitize.Reorder(jobs)
	late := reordered.OutOfOrder
	// The span is the jobs the simulators take: one submitted past
	// sanitize.MaxTime is rejected (counted in the report) and made the
	// span 106751991167294 days; one of unknown submit time (-1, sorted
	// first) is rejected too and made it start at 0 (CEA-Curie's first
	// jobs, submitted on day 366, "over 367 days").
	days := 0.0
	if first, last, ok := saneSpan(jobs); ok {
		days = float64(last-first) / 86400
	}
	parts := cli.PartitionsOf(h, jobs)
	if parts != nil {
		parts.Pool = machine
	}
	// The lines of partial executions are not jobs (every simulator
	// leaves them out): counted apart, they were "5 jobs" of 3.
	desc := fmt.Sprintf("trace: %s, %d processors, %d jobs over %.0f days", filepath.Base(path), machine, len(jobs), days)
	var partialOnly cli.PartialOnly
	for i := range jobs {
		partialOnly.Add(&jobs[i])
	}
	if partial := countPartial(jobs); partial > 0 {
		desc = fmt.Sprintf("trace: %s, %d processors, %d jobs (and %s of partial executions) over %.0f days",
			filepath.Base(path), machine, len(jobs)-partial, plural(partial, "line"), days)
	}
	return workload{
		name:    filepath.Base(path),
		desc:    desc,
		machine: machine,
		jobs:    jobs,
		// (the count only: every simulator takes jobs in submit order)
		outOfOrder:  late,
		zeros:       zeros,
		skipped:     cli.SkippedOf(st),
		otherStatus: cli.OtherStatusOf(st),
		partialOnly: partialOnly.Jobs(),
		partitions:  parts,
	}, nil
}

// countPartial counts the lines of partial executions (swf.Status.Partial).
func countPartial(jobs []swf.Job) int {
	n := 0
	for i := range jobs {
		if jobs[i].Status.Partial() {
			n++
		}
	}
	return n
}
