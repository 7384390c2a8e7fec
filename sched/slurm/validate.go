package slurm

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/batchq/batchq/sanitize"
)

// Validate reports a value Slurm would refuse or this model cannot use:
// a negative weight or time, a time above 2^40 s (sanitize.MaxTime: it
// is added to simulated times), a partition without a name or named twice,
// a DefaultTime above its partition's MaxTime, a node named twice or a
// partition's node not among NodeNames (given any), a negative QOS priority,
// an association under an account that is not in the tree, or a cycle of
// accounts. Each error names the field and the value.
func (c Config) Validate() error {
	nonNeg := []struct {
		name string
		v    int64
	}{
		{"WeightAge", c.WeightAge}, {"WeightFairshare", c.WeightFairshare},
		{"WeightJobSize", c.WeightJobSize}, {"WeightPartition", c.WeightPartition},
		{"WeightQOS", c.WeightQOS}, {"WeightAssoc", c.WeightAssoc},
		{"MaxAge", c.MaxAge}, {"CalcPeriod", c.CalcPeriod},
		{"BackfillInterval", c.BackfillInterval}, {"BackfillWindow", c.BackfillWindow},
		{"BackfillResolution", c.BackfillResolution}, {"BackfillMaxJobTest", c.BackfillMaxJobTest},
		{"BackfillMaxJobUser", c.BackfillMaxJobUser}, {"SchedInterval", c.SchedInterval},
		{"OverTimeLimit", c.OverTimeLimit}, {"UnixStart", c.UnixStart},
	}
	if c.KillWait < -1 {
		return fmt.Errorf("slurm: KillWait %d: must be ≥ 0, or -1 for Slurm's 0", c.KillWait)
	}
	for _, f := range nonNeg {
		if f.v < 0 {
			return fmt.Errorf("slurm: %s %d: must be ≥ 0", f.name, f.v)
		}
	}
	// Slurm keeps weights and priorities in 32 bits.
	for _, w := range nonNeg[:6] {
		if w.v > 1<<32-1 {
			return fmt.Errorf("slurm: %s %d: above 2^32−1, Slurm's largest priority", w.name, w.v)
		}
	}
	// The named-node plan adds UnixStart to simulated times (sched bounds
	// them by 2^40 s): a bound keeps the sum from wrapping. So do the
	// policy's intervals and delays, added to the time of the last run:
	// BatchSchedDelay 2^63−1 wrapped lastSched + delay negative and ran
	// the main scheduler at an end it must never run at. (ParseConf
	// reads none above 2^31 s.)
	times := []struct {
		name string
		v    int64
	}{
		{"MaxAge", c.MaxAge}, {"CalcPeriod", c.CalcPeriod}, {"DecayHalfLife", c.DecayHalfLife},
		{"BackfillInterval", c.BackfillInterval}, {"BackfillWindow", c.BackfillWindow},
		{"BackfillResolution", c.BackfillResolution}, {"SchedInterval", c.SchedInterval},
		{"SchedMinInterval", c.SchedMinInterval}, {"BatchSchedDelay", c.BatchSchedDelay},
		{"OverTimeLimit", c.OverTimeLimit}, {"UnixStart", c.UnixStart},
		{"KillCheck", c.KillCheck}, {"KillWait", c.KillWait},
	}
	for _, f := range times {
		if f.v > sanitize.MaxTime {
			return fmt.Errorf("slurm: %s %d: above 2^40 s", f.name, f.v)
		}
	}
	if c.DecayHalfLife < -1 {
		return fmt.Errorf("slurm: DecayHalfLife %d: must be ≥ 0, or -1 for no decay", c.DecayHalfLife)
	}
	if c.SchedMinInterval < -1 {
		return fmt.Errorf("slurm: SchedMinInterval %d: must be ≥ -1", c.SchedMinInterval)
	}
	if c.BatchSchedDelay < -1 {
		return fmt.Errorf("slurm: BatchSchedDelay %d: must be ≥ -1", c.BatchSchedDelay)
	}
	seen := make(map[string]bool, len(c.Partitions))
	for i, pt := range c.Partitions {
		switch {
		case pt.Name == "":
			return fmt.Errorf("slurm: Partitions[%d] has no Name", i)
		case seen[pt.Name]:
			return fmt.Errorf("slurm: partition %q defined twice", pt.Name)
		case pt.MaxTime < 0 || pt.DefaultTime < 0 || pt.MaxNodes < 0 || pt.PriorityJobFactor < 0 || pt.PriorityTier < 0:
			return fmt.Errorf("slurm: partition %q: negative MaxTime, DefaultTime, MaxNodes, PriorityJobFactor or PriorityTier", pt.Name)
		case pt.MaxTime > 0 && pt.DefaultTime > pt.MaxTime:
			return fmt.Errorf("slurm: partition %q: DefaultTime %d above MaxTime %d", pt.Name, pt.DefaultTime, pt.MaxTime)
		case pt.PriorityJobFactor > 1<<16-1 || pt.PriorityTier > 1<<16-1:
			return fmt.Errorf("slurm: partition %q: PriorityJobFactor or PriorityTier above 65535", pt.Name)
		}
		seen[pt.Name] = true
	}
	if err := c.validateNodeNames(); err != nil {
		return err
	}
	// The first bad QOS by name: a map's order would name another one
	// from call to call when several are bad.
	for _, name := range slices.Sorted(maps.Keys(c.QOS)) {
		if pr := c.QOS[name]; pr < 0 || pr > 1<<32-1 {
			return fmt.Errorf("slurm: QOS %q priority %d: must be in [0, 2^32−1]", name, pr)
		}
	}
	return c.validateTree()
}

// validateNodeNames checks NodeNames as slurmctld checks its node table:
// no empty or repeated name, and, given names, none a partition's Nodes
// name outside them (slurmctld refuses "Invalid node names in
// partition").
func (c Config) validateNodeNames() error {
	if len(c.NodeNames) == 0 {
		return nil
	}
	at := make(map[string]bool, len(c.NodeNames))
	for i, n := range c.NodeNames {
		switch {
		case n == "":
			return fmt.Errorf("slurm: NodeNames[%d] is empty", i)
		case at[n]:
			return fmt.Errorf("slurm: node %q named twice in NodeNames", n)
		}
		at[n] = true
	}
	for _, pt := range c.Partitions {
		for _, n := range pt.Nodes {
			if !at[n] {
				return fmt.Errorf("slurm: partition %q: node %q is not among NodeNames", pt.Name, n)
			}
		}
	}
	return nil
}

// errTree is the root of the fair-share tree's errors.
var errTree = errors.New("slurm: fair-share tree")

// validateTree checks that every association hangs under root through
// accounts that exist, without a cycle.
func (c Config) validateTree() error {
	parent := map[string]string{}
	for i, a := range c.Associations {
		if a.Shares < -1 || a.Priority < 0 || !(a.RawUsage >= 0) || math.IsInf(a.RawUsage, 0) {
			return fmt.Errorf("%w: Associations[%d] (%s/%s): Shares below -1 (Fairshare=parent), negative Priority, or RawUsage not a finite number ≥ 0", errTree, i, a.Account, a.User)
		}
		if a.Account == "" {
			return fmt.Errorf("%w: Associations[%d] has no Account", errTree, i)
		}
		if a.User == "" {
			if p, ok := parent[a.Account]; ok && p != a.Parent {
				return fmt.Errorf("%w: account %q under both %q and %q", errTree, a.Account, p, a.Parent)
			}
			parent[a.Account] = a.Parent
		}
	}
	// rooted: accounts whose walk reached root, where later walks stop
	// (a chain of n accounts is n walks of one step, not n²/2 steps).
	rooted := map[string]bool{}
	var path []string
	for i, a := range c.Associations {
		acct := a.Account
		if a.User == "" {
			acct = a.Parent
		}
		path = path[:0]
		for hops := 0; acct != "" && acct != "root" && !rooted[acct]; hops++ {
			path = append(path, acct)
			p, ok := parent[acct]
			if !ok {
				return fmt.Errorf("%w: Associations[%d] (%s/%s): account %q is not in the tree", errTree, i, a.Account, a.User, acct)
			}
			if hops > len(parent) {
				return fmt.Errorf("%w: accounts in a cycle through %q", errTree, acct)
			}
			acct = p
		}
		for _, p := range path {
			rooted[p] = true
		}
	}
	return nil
}
