package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
)

// slurmPreset names the Slurm policy in the reports.
var slurmPreset = sched.Preset{Name: "slurm", Doc: "Slurm's multifactor priority, partitions and backfill, from -slurm-conf"}

// hasSetting reports whether a slurm.conf text has a line that is neither
// blank nor a '#' comment.
func hasSetting(conf []byte) bool {
	for line := range bytes.Lines(conf) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return true
		}
	}
	return false
}

// readSite reads -slurm-conf and -shares (each file of -shares is sshare
// or sacctmgr association output, or a sacctmgr QOS table) and names the
// trace's numbers from its header (Config.ReadNames). It returns the
// site and what slurm.conf has that the model leaves out.
func readSite(o options, tr *trace) (slurm.Config, []string, error) {
	f, err := os.Open(o.slurmConf)
	if err != nil {
		return slurm.Config{}, nil, fmt.Errorf("-slurm-conf %s: %w", o.slurmConf, err)
	}
	var conf bytes.Buffer
	_, err = conf.ReadFrom(f)
	f.Close()
	if err != nil {
		return slurm.Config{}, nil, fmt.Errorf("-slurm-conf %s: %w", o.slurmConf, err)
	}
	if !hasSetting(conf.Bytes()) {
		// An empty file (a wrong path made by a redirection, a cut copy)
		// ran Slurm's defaults without a word.
		return slurm.Config{}, nil, fmt.Errorf("-slurm-conf %s: no setting in it (empty, or comments only): give the site's slurm.conf", o.slurmConf)
	}
	// (ParseConf skips a UTF-8 byte-order mark and refuses UTF-16.)
	site, ignored, err := slurm.ParseConf(bytes.NewReader(conf.Bytes()))
	if err != nil {
		return slurm.Config{}, nil, fmt.Errorf("-slurm-conf %s: %w", o.slurmConf, err)
	}
	for _, name := range o.shares {
		f, err := os.Open(name)
		if err != nil {
			return slurm.Config{}, nil, fmt.Errorf("-shares %s: %w", name, err)
		}
		err = site.ReadShares(f)
		f.Close()
		if err != nil {
			return slurm.Config{}, nil, fmt.Errorf("-shares %s: %w", name, err)
		}
	}
	if err := site.ReadNames(*tr.header); err != nil {
		return slurm.Config{}, nil, fmt.Errorf("%s: %w", tr.name, err)
	}
	if o.namedNodes {
		// Slurm lays the named-node plan's grids on Unix time; a header
		// without a usable UnixStartTime (absent, 0, negative or past
		// slurm.Config.Validate's 2^40) leaves them at time 0. The note
		// says which, so that the reports tell this run from one planned
		// by CPUs.
		site.NamedNodes = true
		if u := tr.header.UnixStartTime; u > 0 && u <= 1<<40 {
			site.UnixStart = u
			ignored = append(ignored, fmt.Sprintf("note: backfill plans on named nodes (-named-nodes), its grids on the header's UnixStartTime %d", u))
		} else {
			ignored = append(ignored, fmt.Sprintf("note: backfill plans on named nodes (-named-nodes), its grids on time 0: the header's UnixStartTime %d is not a Unix time in (0, 2^40]", u))
		}
	}
	if len(site.Associations) > 0 && len(site.AccountNames) == 0 {
		ignored = append(ignored, "note: the trace names no accounts (convert the log with -accounts): "+
			"each job is charged to its user's first association")
	}
	return site, ignored, nil
}

// runSlurm simulates the trace under the Slurm policy on info.cfg's
// machine.
func runSlurm(ctx context.Context, o options, info *runInfo) error {
	site, ignored, err := readSite(o, info.trace)
	if err != nil {
		return err
	}
	info.slurmIgnored = ignored
	if site.NamedNodes { // the text report's policy line says so too
		info.policy.Doc += "; backfill planned on named nodes (-named-nodes)"
	}
	// Slurm kills a job at its limit: the reports say so.
	info.cfg.KillAtEstimate = true
	mach := sched.Config{MachineSize: info.cfg.MachineSize, Nodes: info.cfg.Nodes, Placement: info.cfg.Placement,
		CountMemory: info.cfg.CountMemory, KeepShares: info.cfg.KeepShares}
	p, err := slurm.New(site, mach)
	if err != nil {
		return fmt.Errorf("-slurm-conf %s: %w", o.slurmConf, err)
	}
	info.res, err = p.Run(ctx, info.trace.jobs)
	if err != nil {
		return interrupted(err)
	}
	// The policy gives a line without a limit its partition's before the
	// simulator sees it, which so counts none (Summary.NoEstimate).
	for i := range info.trace.jobs {
		if info.trace.jobs[i].ReqTime <= 0 {
			info.slurmNoLimit++
		}
		if info.trace.jobs[i].Queue < 0 {
			info.slurmNoQueue++
		}
	}
	info.slurmCancelled = p.Unrunnable()
	// The policy's own rules (a queue 0 run in the default partition)
	// count beside the simulator's, in the report and its JSON.
	for rule, n := range p.Defaulted() {
		info.changed()[rule] += n
	}
	info.slurmDrift, info.slurmRefused, _ = p.PlanMisses()
	if info.slurmCancelled["unknown partition"] > 0 {
		info.slurmHint = partitionHint(o.slurmConf, site, info.trace)
	}
	return nil
}

// sharesList reads -shares: files separated by commas.
func sharesList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// partitionHint says, when jobs named a partition slurm.conf lacks,
// where a job's partition comes from: a log's queues (LoadLeveler
// classes, PBS queues) rarely name a site's partitions. A queue 0 that
// nothing names is left out, as −1 is: it ran in the default partition
// (queue_0_no_partition).
func partitionHint(conf string, site slurm.Config, tr *trace) string {
	_, named0 := site.PartitionNames[0]
	for _, pt := range site.Partitions {
		named0 = named0 || pt.Name == "0"
	}
	seen := map[int64]bool{}
	var queues []string
	for _, j := range tr.jobs {
		if j.Queue < 0 || j.Queue == 0 && !named0 || seen[j.Queue] {
			continue
		}
		seen[j.Queue] = true
		if len(queues) == 8 {
			queues = append(queues, "...")
			break
		}
		name, ok := site.PartitionNames[j.Queue]
		if !ok {
			name = strconv.FormatInt(j.Queue, 10)
		}
		queues = append(queues, name)
	}
	parts := make([]string, 0, len(site.Partitions))
	for _, pt := range site.Partitions {
		parts = append(parts, pt.Name)
	}
	return fmt.Sprintf("a job's partition is its SWF queue (field 15, named by the header's Queue lines: %s); slurm.conf %s has the partitions %s",
		strings.Join(queues, ", "), conf, strings.Join(parts, ", "))
}
