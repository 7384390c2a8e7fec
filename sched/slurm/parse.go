package slurm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/internal/utf16text"
)

// Bounds on what ParseConf accepts, so that a hostile file costs bounded
// work: one logical line (continuations joined) and the node names that
// hostlist expressions expand to over the whole file. The largest Slurm
// clusters have some ten thousand nodes.
const (
	maxConfLine  = 1 << 20
	maxNodeNames = 1 << 18
)

// ParseConf reads a site's slurm.conf into a Config: the priority keys
// (PriorityType, PriorityWeight{Age,Fairshare,JobSize,Partition,QOS,Assoc},
// PriorityMaxAge, PriorityDecayHalfLife, PriorityCalcPeriod,
// PriorityFavorSmall, PriorityFlags), the scheduler (SchedulerType and
// SchedulerParameters' bf_interval, bf_window, bf_resolution,
// bf_max_job_test, bf_max_job_user, bf_continue, sched_interval,
// sched_min_interval, batch_sched_delay), OverTimeLimit, KillWait,
// AccountingStorageEnforce (whether it enforces limits), Epilog (whether
// there is one) and the PartitionName lines (Nodes,
// MaxTime, DefaultTime, MaxNodes, PriorityJobFactor, PriorityTier and
// their old alias Priority, Default; PartitionName=DEFAULT sets the
// defaults of the lines after it; a NodeSet line with Nodes= names a set
// that a partition's Nodes may use, once it is defined). A partition's
// PriorityJobFactor and PriorityTier are Slurm's default, 1, unless the
// file sets them.
//
// The syntax is Slurm's: keys in any case, '#' to the end of the line a
// comment (unless escaped as \#), a '\' at the end of a line continues
// it, several Key=Value pairs on a line, values in double quotes when
// they hold blanks; a key given twice keeps its last value, as Slurm
// does. Node lists are hostlist expressions ("node[01-04,7],gpu[1-2]").
// Times take Slurm's forms: minutes ("60"), "MM:SS", "HH:MM:SS",
// "D-HH", "D-HH:MM", "D-HH:MM:SS", and UNLIMITED, read as Slurm 22.05
// reads them (no field is range-checked: "1-99:99:99" is 7481 minutes;
// a time whose seconds overflow Slurm's 32-bit int keeps the value Slurm
// computes, with a note, or is refused where Slurm refuses it); they are
// converted to seconds (whole minutes, rounded up, as Slurm keeps them).
// OverTimeLimit is read as Slurm reads a number (octal "010" is 8; 65535
// is UNLIMITED).
//
// The second result says what the Config leaves out, so that a site sees
// what the model does not know of its file: an "ignored: KEY (lines)"
// entry for every key, PriorityFlags flag, SchedulerParameters option
// and PartitionName key it did not use (NodeName, Include, PreemptType,
// bf_max_job_part, AllowAccounts, ...), and a "note: ..." for each
// reading that changed a value (PriorityType=priority/basic sets every
// weight to 0; a sub-second sched_min_interval is none). A malformed
// value is an error naming its line and key; so is a hostlist that would
// expand to more than 262144 names. A UTF-8 byte-order mark before the
// first key is skipped; UTF-16 text (a NUL byte in a line) is an error
// that says so, as is a file of backslash continuations that join to
// nothing. ParseConf reads no other file.
func ParseConf(r io.Reader) (Config, []string, error) {
	p := &confParser{ignoredAt: map[string]*confIgnored{}, seen: map[string]int{}, parts: map[string]int{},
		nodeSets: map[string][]string{}, featureSets: map[string]int{}, literal: map[string]int{},
		// Slurm's defaults: a partition left without them counts 1,
		// against a PriorityJobFactor=0 elsewhere.
		pdef: Partition{PriorityJobFactor: 1, PriorityTier: 1}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxConfLine)
	var logical strings.Builder
	num, first := 0, 0
	// conts counts the lines continued (the first at firstCont), and text
	// says whether any logical line holds more than blanks: a file of
	// continuations alone joined to nothing, and ran as Slurm's defaults
	// without a word.
	conts, firstCont, text := 0, 0, false
	for sc.Scan() {
		num++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if num == 1 {
			// An editor's UTF-8 byte-order mark made the first key
			// unknown ("ignored: \ufeffPriorityWeightAge"), its value lost.
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if err := confText("slurm.conf", line, num); err != nil {
			return Config{}, nil, err
		}
		line = confStripComment(line)
		if logical.Len() == 0 {
			first = num
		}
		cont := confContinued(line)
		if cont {
			line = line[:len(line)-1]
			if conts++; conts == 1 {
				firstCont = num
			}
		}
		if logical.Len()+len(line) > maxConfLine {
			return Config{}, nil, fmt.Errorf("slurm.conf line %d: a line continued past %d bytes", first, maxConfLine)
		}
		logical.WriteString(line)
		if cont {
			// Slurm joins the next line right after the backslash.
			continue
		}
		text = text || strings.TrimSpace(logical.String()) != ""
		err := p.line(confUnescape(logical.String()), first)
		logical.Reset()
		if err != nil {
			return Config{}, nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Config{}, nil, fmt.Errorf("slurm.conf line %d: longer than %d bytes", num+1, maxConfLine)
		}
		return Config{}, nil, fmt.Errorf("slurm.conf: %w", err)
	}
	if logical.Len() > 0 {
		text = text || strings.TrimSpace(logical.String()) != ""
		if err := p.line(confUnescape(logical.String()), first); err != nil {
			return Config{}, nil, err
		}
	}
	if conts > 0 && !text {
		// An error, as for the other files that cannot be a site's
		// slurm.conf (UTF-16, NUL bytes): an empty file, or comments
		// alone, are Slurm's defaults as written.
		return Config{}, nil, fmt.Errorf("slurm.conf line %d: %d backslash continuations and no setting: the file's lines join to nothing (Slurm's defaults would run without a word)", firstCont, conts)
	}
	return p.finish()
}

// confParser holds what ParseConf has read so far.
type confParser struct {
	c Config
	// ignoredAt collects the unused keys with their lines, in the order
	// first seen (ignored).
	ignoredAt map[string]*confIgnored
	ignored   []string
	notes     []string
	seen      map[string]int // lower-case top-level key → line of its last value
	names     int            // node names expanded so far
	pdef      Partition      // PartitionName=DEFAULT
	pdefNodes bool           // PartitionName=DEFAULT gave Nodes=
	parts     map[string]int // partition name → index in c.Partitions
	prioType  string

	// NodeSet lines: a set's nodes (Nodes=), or the line of a set
	// defined by Feature=, which the model cannot resolve.
	nodeSets    map[string][]string
	featureSets map[string]int
	// literal node names partitions used, with the line of the first
	// use: a NodeSet defined after a partition named it is an error.
	literal map[string]int
}

type confIgnored struct {
	lines []int
	why   string
}

// confPair is one Key=Value of a line.
type confPair struct{ key, value string }

// ignore records an unused key (with a reason, or "").
func (p *confParser) ignore(key string, line int, why string) {
	k := p.ignoredAt[key]
	if k == nil {
		k = &confIgnored{why: why}
		p.ignoredAt[key] = k
		p.ignored = append(p.ignored, key)
	}
	if len(k.lines) == 0 || k.lines[len(k.lines)-1] != line {
		k.lines = append(k.lines, line)
	}
}

func (p *confParser) note(line int, format string, args ...any) {
	p.notes = append(p.notes, fmt.Sprintf("note: line %d: ", line)+fmt.Sprintf(format, args...))
}

// confReasons say why a common key is left out.
var confReasons = map[string]string{
	"nodename":                 "nodes come from the simulated machine (their names, in order, are its nodes')",
	"frontendname":             "nodes come from the simulated machine",
	"downnodes":                "nodes come from the simulated machine",
	"include":                  "included files are not read: append their text",
	"priorityweighttres":       "TRES weights are not modelled",
	"priorityusageresetperiod": "usage is decayed, never reset",
	"preempttype":              "preemption is not modelled",
	"preemptmode":              "preemption is not modelled",
	"prioritysitefactorplugin": "the site factor is not modelled",
	"priorityparameters":       "not modelled",
}

// confLineKeys are keys whose value names an object and whose line's other
// pairs describe it (Slurm's "expline" keys).
var confLineKeys = map[string]bool{
	"partitionname": true, "nodename": true, "nodeset": true, "frontendname": true,
	"downnodes": true, "switchname": true,
}

func (p *confParser) line(s string, num int) error {
	trimmed := strings.TrimSpace(s)
	if trimmed == "" {
		return nil
	}
	if strings.EqualFold(strings.Fields(trimmed)[0], "include") {
		p.ignore("Include", num, confReasons["include"])
		return nil
	}
	pairs, err := confSplit(s)
	if err != nil {
		return fmt.Errorf("slurm.conf line %d: %w", num, err)
	}
	for i, kv := range pairs {
		lk := strings.ToLower(kv.key)
		if confLineKeys[lk] {
			switch lk {
			case "partitionname":
				return p.partition(kv.value, pairs[i+1:], num)
			case "nodeset":
				return p.nodeSet(kv.value, pairs[i+1:], num)
			case "nodename":
				if !strings.EqualFold(kv.value, "DEFAULT") {
					names, err := expandHostlist(kv.value, &p.names, nil)
					if err != nil {
						return fmt.Errorf("slurm.conf line %d: NodeName: %w", num, err)
					}
					p.c.NodeNames = append(p.c.NodeNames, names...)
				}
			}
			p.ignore(kv.key, num, confReasons[lk])
			return nil
		}
		if err := p.top(kv, lk, num); err != nil {
			return fmt.Errorf("slurm.conf line %d: %s: %w", num, confClip(kv.key), err)
		}
	}
	return nil
}

// top applies one key outside a PartitionName line.
func (p *confParser) top(kv confPair, lk string, num int) error {
	if !confTopKeys[lk] {
		p.ignore(kv.key, num, confReasons[lk])
		return nil
	}
	if prev, ok := p.seen[lk]; ok {
		p.note(num, "%s given again (also line %d): the last value is used, as Slurm does", kv.key, prev)
	}
	p.seen[lk] = num
	v := kv.value
	c := &p.c
	switch lk {
	case "priorityweightage":
		return confWeight(v, &c.WeightAge)
	case "priorityweightfairshare":
		return confWeight(v, &c.WeightFairshare)
	case "priorityweightjobsize":
		return confWeight(v, &c.WeightJobSize)
	case "priorityweightpartition":
		return confWeight(v, &c.WeightPartition)
	case "priorityweightqos":
		return confWeight(v, &c.WeightQOS)
	case "priorityweightassoc":
		return confWeight(v, &c.WeightAssoc)
	case "prioritymaxage":
		s, unlimited, err := p.minutes(kv.key, v, num)
		switch {
		case err != nil:
			return err
		case unlimited:
			return errors.New("UNLIMITED is not modelled (the age factor would never grow)")
		case s == 0:
			// Slurm's age factor is 1 from the start: one second is the
			// closest the zero value allows.
			c.MaxAge = 1
			p.note(num, "PriorityMaxAge=0: every job's age factor is 1 at once (taken as 1 second)")
		default:
			c.MaxAge = s
		}
	case "prioritydecayhalflife":
		s, unlimited, err := p.minutes(kv.key, v, num)
		switch {
		case err != nil:
			return err
		case unlimited || s == 0:
			c.DecayHalfLife = -1
		default:
			c.DecayHalfLife = s
		}
	case "prioritycalcperiod":
		s, unlimited, err := p.minutes(kv.key, v, num)
		switch {
		case err != nil:
			return err
		case unlimited || s == 0:
			return errors.New("want at least 1 minute, as Slurm does")
		}
		c.CalcPeriod = s
	case "priorityfavorsmall":
		return confBool(v, &c.FavorSmall)
	case "priorityflags":
		c.ClassicFairshare = false
		for f := range strings.SplitSeq(v, ",") {
			switch f = strings.TrimSpace(f); strings.ToUpper(f) {
			case "":
			case "NO_FAIR_TREE":
				c.ClassicFairshare = true
			case "FAIR_TREE":
				// Fair Tree is the default since 19.05.
			default:
				p.ignore("PriorityFlags="+confClip(f), num, "")
			}
		}
	case "prioritytype":
		switch t := strings.ToLower(v); t {
		case "priority/basic", "priority/multifactor":
			p.prioType = t
		default:
			p.ignore("PriorityType="+confClip(v), num, "taken as priority/multifactor")
			p.prioType = "priority/multifactor"
		}
	case "schedulertype":
		switch t := strings.ToLower(v); t {
		case "sched/backfill":
			c.Builtin = false
		case "sched/builtin":
			c.Builtin = true
		default:
			p.ignore("SchedulerType="+confClip(v), num, "taken as sched/backfill")
			c.Builtin = false
		}
	case "schedulerparameters":
		return p.schedParams(v, num)
	case "overtimelimit":
		n, unlimited, err := confUint16(v)
		switch {
		case err != nil:
			return err
		case unlimited:
			p.ignore("OverTimeLimit=UNLIMITED", num, "jobs are killed at their time limit")
			c.OverTimeLimit = 0
			return nil
		}
		c.OverTimeLimit = n * 60
	case "killwait":
		n, unlimited, err := confUint16(v)
		switch {
		case err != nil:
			return err
		case unlimited:
			n = math.MaxUint16 // (not a special value for KillWait)
		case n == 0:
			n = -1
		}
		c.KillWait = n
	case "accountingstorageenforce":
		return confEnforce(v, &c.EnforceLimits)
	case "epilog":
		c.Epilog = strings.TrimSpace(v) != ""
	}
	return nil
}

// confEnforce reads AccountingStorageEnforce as Slurm does
// (_validate_accounting_storage_enforce): a comma-separated list in any
// case; limits, 2, safe and all enforce limits; an unknown word is an
// error (slurmctld refuses the file).
func confEnforce(v string, limits *bool) error {
	*limits = false
	for f := range strings.SplitSeq(v, ",") {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "limits", "2", "safe", "all":
			*limits = true
		case "", "associations", "1", "wckeys", "qos", "nojobs", "nosteps":
		default:
			return fmt.Errorf("unknown value %q", confClip(f))
		}
	}
	return nil
}

// confTopKeys are the keys outside PartitionName lines that ParseConf
// uses.
var confTopKeys = map[string]bool{
	"priorityweightage": true, "priorityweightfairshare": true, "priorityweightjobsize": true,
	"priorityweightpartition": true, "priorityweightqos": true, "priorityweightassoc": true,
	"prioritymaxage": true, "prioritydecayhalflife": true, "prioritycalcperiod": true,
	"priorityfavorsmall": true, "priorityflags": true, "prioritytype": true,
	"schedulertype": true, "schedulerparameters": true, "overtimelimit": true,
	"killwait": true, "accountingstorageenforce": true, "epilog": true,
}

// schedParams reads SchedulerParameters, a comma-separated list of
// options and option=value pairs. A key given twice replaces the whole
// list, so the options not given return to their defaults.
func (p *confParser) schedParams(v string, num int) error {
	c := &p.c
	c.BackfillInterval, c.BackfillWindow, c.BackfillResolution = 0, 0, 0
	c.BackfillMaxJobTest, c.BackfillMaxJobUser, c.BackfillContinue = 0, 0, false
	c.SchedInterval, c.SchedMinInterval, c.BatchSchedDelay = 0, 0, 0
	bfOff := false
	for opt := range strings.SplitSeq(v, ",") {
		opt = strings.TrimSpace(opt)
		if opt == "" {
			continue
		}
		name, val, hasVal := strings.Cut(opt, "=")
		ln := strings.ToLower(name)
		var err error
		need := func(lo, hi int64, dst *int64) {
			if !hasVal {
				err = errors.New("needs a value")
				return
			}
			*dst, err = confInt(val, lo, hi)
		}
		switch ln {
		case "bf_interval":
			if hasVal && strings.TrimSpace(val) == "-1" {
				// Slurm 22.05+: no backfill cycle; the main scheduler
				// alone is sched/builtin.
				bfOff = true
				continue
			}
			need(1, 10800, &c.BackfillInterval)
		case "bf_window":
			var m int64
			need(1, 43200, &m)
			c.BackfillWindow = m * 60
		case "bf_resolution":
			need(1, 3600, &c.BackfillResolution)
		case "bf_max_job_test":
			need(1, 1_000_000, &c.BackfillMaxJobTest)
		case "bf_max_job_user":
			need(0, 10_000, &c.BackfillMaxJobUser)
		case "bf_continue":
			c.BackfillContinue = true
		case "sched_interval":
			need(0, math.MaxInt32, &c.SchedInterval)
			if err == nil && c.SchedInterval == 0 {
				err = errors.New("0 is not modelled (it stops the periodic main scheduler)")
			}
		case "batch_sched_delay":
			need(0, math.MaxInt32, &c.BatchSchedDelay)
			if err == nil && c.BatchSchedDelay == 0 {
				c.BatchSchedDelay = -1
			}
		case "sched_min_interval":
			var us int64
			need(0, 1_000_000_000, &us)
			if err != nil {
				break
			}
			s := (us + 500_000) / 1_000_000
			switch {
			case s == 0:
				c.SchedMinInterval = -1
				if us > 0 {
					p.note(num, "sched_min_interval=%d µs is under half a second: no throttling at the simulation's one-second resolution", us)
				}
			default:
				c.SchedMinInterval = s
				if s*1_000_000 != us {
					p.note(num, "sched_min_interval=%d µs rounded to %d s", us, s)
				}
			}
		default:
			p.ignore("SchedulerParameters="+confClip(name), num, "")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", confClip(name), err)
		}
	}
	if bfOff {
		c.Builtin = true
		p.note(num, "bf_interval=-1: no backfill cycle, taken as sched/builtin")
	}
	return nil
}

// partition reads one PartitionName line: name, then its pairs.
func (p *confParser) partition(name string, pairs []confPair, num int) error {
	isDefault := strings.EqualFold(name, "DEFAULT")
	if name == "" {
		return fmt.Errorf("slurm.conf line %d: PartitionName without a name", num)
	}
	var pt Partition
	if isDefault {
		pt = p.pdef
	} else {
		if i, dup := p.parts[name]; dup {
			return fmt.Errorf("slurm.conf line %d: partition %q defined twice (first as partition %d)", num, confClip(name), i+1)
		}
		pt = p.pdef
		pt.Name = name
		pt.Nodes = slices.Clip(pt.Nodes)
	}
	hasNodes := p.pdefNodes
	for _, kv := range pairs {
		if err := p.partKey(&pt, kv, num); err != nil {
			return fmt.Errorf("slurm.conf line %d: PartitionName=%s %s: %w", num, confClip(name), confClip(kv.key), err)
		}
		hasNodes = hasNodes || strings.EqualFold(kv.key, "Nodes")
	}
	if isDefault {
		p.pdef, p.pdefNodes = pt, hasNodes
		return nil
	}
	if !hasNodes {
		p.note(num, "PartitionName=%s names no Nodes: taken as every node", confClip(name))
	}
	if pt.MaxTime > 0 && pt.DefaultTime > pt.MaxTime {
		// slurmctld logs "DefaultTime exceeds MaxTime" and drops the
		// DefaultTime (read_config.c): a site's file that Slurm runs
		// with is not an error here.
		p.note(num, "PartitionName=%s DefaultTime %d s exceeds MaxTime %d s: dropped, as Slurm does (jobs without a limit get MaxTime)",
			confClip(name), pt.DefaultTime, pt.MaxTime)
		pt.DefaultTime = 0
	}
	p.parts[name] = len(p.c.Partitions)
	p.c.Partitions = append(p.c.Partitions, pt)
	return nil
}

func (p *confParser) partKey(pt *Partition, kv confPair, num int) error {
	v := kv.value
	switch strings.ToLower(kv.key) {
	case "nodes":
		if strings.EqualFold(v, "ALL") {
			pt.Nodes = nil
			return nil
		}
		nodes, err := p.partitionNodes(v, num)
		if err != nil {
			return err
		}
		pt.Nodes = nodes
	case "maxtime":
		s, unlimited, err := p.minutes(kv.key, v, num)
		switch {
		case err != nil:
			return err
		case unlimited:
			pt.MaxTime = 0
		case s == 0:
			return errors.New("0 lets no job run; not modelled")
		default:
			pt.MaxTime = s
		}
	case "defaulttime":
		if strings.EqualFold(v, "NONE") {
			pt.DefaultTime = 0
			return nil
		}
		s, unlimited, err := p.minutes(kv.key, v, num)
		switch {
		case err != nil:
			return err
		case unlimited:
			pt.DefaultTime = 0
		case s == 0:
			return errors.New("0 lets no job run; not modelled")
		default:
			pt.DefaultTime = s
		}
	case "maxnodes":
		if confUnlimited(v) {
			pt.MaxNodes = 0
			return nil
		}
		n, err := confCount(v, math.MaxUint32-2)
		if err != nil {
			return err
		}
		if n == 0 {
			return errors.New("0 lets no job run; not modelled")
		}
		pt.MaxNodes = n
	case "priorityjobfactor":
		return confFactor(v, &pt.PriorityJobFactor)
	case "prioritytier":
		return confFactor(v, &pt.PriorityTier)
	case "priority":
		// The name before 16.05 for both.
		if err := confFactor(v, &pt.PriorityJobFactor); err != nil {
			return err
		}
		pt.PriorityTier = pt.PriorityJobFactor
	case "default":
		return confBool(v, &pt.Default)
	case "oversubscribe", "shared":
		// EXCLUSIVE: whole nodes. NO is select/cons_tres's own rule (no
		// CPU holds two jobs); YES and FORCE share CPUs, not modelled.
		switch u := strings.ToUpper(v); {
		case u == "EXCLUSIVE":
			pt.Exclusive = true
		case u == "NO":
			pt.Exclusive = false
		default:
			pt.Exclusive = false
			p.ignore("PartitionName "+confClip(kv.key)+"="+confClip(u), num, "jobs do not share CPUs")
		}
	case "state":
		if !strings.EqualFold(v, "UP") {
			p.ignore("PartitionName State="+confClip(strings.ToUpper(v)), num, "every partition is up")
		}
	default:
		p.ignore("PartitionName "+confClip(kv.key), num, "")
	}
	return nil
}

// nodeSet reads a NodeSet line: its name, then Nodes= (a hostlist) or
// Feature= (nodes by feature, which the model does not know).
func (p *confParser) nodeSet(name string, pairs []confPair, num int) error {
	if name == "" {
		return fmt.Errorf("slurm.conf line %d: NodeSet without a name", num)
	}
	if at, used := p.literal[name]; used {
		return fmt.Errorf("slurm.conf line %d: NodeSet %s is defined after line %d uses it: move the NodeSet line up", num, confClip(name), at)
	}
	for _, kv := range pairs {
		switch strings.ToLower(kv.key) {
		case "nodes":
			nodes, err := expandHostlist(kv.value, &p.names, nil)
			if err != nil {
				return fmt.Errorf("slurm.conf line %d: NodeSet=%s Nodes: %w", num, confClip(name), err)
			}
			p.nodeSets[name] = nodes
		case "feature":
			p.featureSets[name] = num
		default:
			p.ignore("NodeSet "+confClip(kv.key), num, "")
		}
	}
	return nil
}

// partitionNodes expands a partition's Nodes=, node sets included.
func (p *confParser) partitionNodes(v string, num int) ([]string, error) {
	nodes, err := expandHostlist(v, &p.names, p.nodeSets)
	if err != nil {
		return nil, err
	}
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if at, ok := p.featureSets[item]; ok {
			return nil, fmt.Errorf("node set %s is defined by Feature= (line %d): node features are not modelled; give the set Nodes=", confClip(item), at)
		}
		if _, set := p.nodeSets[item]; !set && !strings.ContainsAny(item, "[]") {
			if _, seen := p.literal[item]; !seen {
				p.literal[item] = num
			}
		}
	}
	return nodes, nil
}

// finish applies what depends on the whole file and renders the report.
func (p *confParser) finish() (Config, []string, error) {
	c := p.c
	weights := []*int64{&c.WeightAge, &c.WeightFairshare, &c.WeightJobSize, &c.WeightPartition, &c.WeightQOS, &c.WeightAssoc}
	set := false
	for _, w := range weights {
		set = set || *w != 0
	}
	switch {
	case p.prioType == "priority/basic" && set:
		for _, w := range weights {
			*w = 0
		}
		p.notes = append(p.notes, "note: PriorityType=priority/basic: every PriorityWeight set to 0 (jobs in submission order)")
	case p.prioType == "" && set:
		p.notes = append(p.notes, "note: PriorityType not set: the weights are used as priority/multifactor does "+
			"(Slurm 22.05 and older default to priority/basic, which ignores them)")
	}
	p.checkNodeNames(&c)
	var defaults []string
	for _, pt := range c.Partitions {
		if pt.Default {
			defaults = append(defaults, pt.Name)
		}
	}
	if len(defaults) > 1 {
		p.notes = append(p.notes, "note: several partitions have Default=YES: "+strings.Join(defaults, ", "))
	}
	var out []string
	for _, key := range p.ignored {
		k := p.ignoredAt[key]
		s := "ignored: " + key + " (" + confLines(k.lines) + ")"
		if k.why != "" {
			s += ": " + k.why
		}
		out = append(out, s)
	}
	return c, append(out, p.notes...), nil
}

// checkNodeNames leaves c.NodeNames empty, with a note, when they cannot
// name the machine's nodes: a name given twice, or a partition's node
// that no NodeName line names (its line in an Include'd file, which is
// not read). Partitions then confine no job to their nodes.
func (p *confParser) checkNodeNames(c *Config) {
	if len(c.NodeNames) == 0 {
		return
	}
	at := make(map[string]bool, len(c.NodeNames))
	why := ""
	for _, n := range c.NodeNames {
		if at[n] {
			why = "node " + confClip(n) + " is named twice"
			break
		}
		at[n] = true
	}
	for i := 0; why == "" && i < len(c.Partitions); i++ {
		for _, n := range c.Partitions[i].Nodes {
			if !at[n] {
				why = "partition " + confClip(c.Partitions[i].Name) + "'s node " + confClip(n) + " is on no NodeName line"
				break
			}
		}
	}
	if why != "" {
		c.NodeNames = nil
		p.notes = append(p.notes, "note: "+why+": the NodeName lines do not name the machine's nodes, and partitions confine no job to their nodes")
	}
}

// confLines renders line numbers: "line 3", "lines 3, 5-7 and 12 more".
func confLines(lines []int) string {
	if len(lines) == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	var parts []string
	shown := 0
	for i := 0; i < len(lines) && len(parts) < 8; {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		} else {
			parts = append(parts, strconv.Itoa(lines[i]))
		}
		shown += j - i + 1
		i = j + 1
	}
	s := "lines " + strings.Join(parts, ", ")
	if shown < len(lines) {
		s += fmt.Sprintf(" and %d more", len(lines)-shown)
	}
	return s
}

// confText refuses a line of input what (slurm.conf, shares) that is not
// text: UTF-16 (as an editor or Windows PowerShell's > saves a file) read
// as every key unknown, a NUL after each character, and the simulation
// ran Slurm's defaults with exit 0 (slurmctld, reading C strings, would
// not see the keys either).
func confText(what, line string, num int) error {
	const iconv = "make it UTF-8 first: iconv -f UTF-16 -t UTF-8"
	switch {
	case num == 1 && (strings.HasPrefix(line, "\xff\xfe") || strings.HasPrefix(line, "\xfe\xff")):
		return fmt.Errorf("%s line 1: UTF-16 text (byte-order mark FF FE or FE FF): %s", what, iconv)
	case strings.IndexByte(line, 0) >= 0 && utf16text.Line(line):
		return fmt.Errorf("%s line %d: a NUL byte, not text (UTF-16 without a byte-order mark? %s)", what, num, iconv)
	case strings.IndexByte(line, '\r') >= 0 && strings.TrimSpace(line[strings.IndexByte(line, '\r')+1:]) != "":
		// Lines ended by CR alone: the whole file one line, a comment
		// (slurm.conf ran as Slurm's defaults) or a header of many
		// columns and no row (an empty fair-share tree).
		if num > 1 {
			// Past line 1 the file has LF ends: a block of CR-ended
			// lines pasted in, or one stray CR, which tr would make a
			// line of its own (a comment's tail a key).
			return fmt.Errorf("%s line %d: a CR inside the line at byte %d, not at its end: lines ended by CR alone from there (make them LF: tr '\\r' '\\n'), or a stray CR (delete it)",
				what, num, strings.IndexByte(line, '\r')+1)
		}
		return fmt.Errorf("%s line %d: lines ended by CR alone (classic Mac OS), read as one line; make them LF first: tr '\\r' '\\n'", what, num)
	case strings.IndexByte(line, 0) >= 0:
		// A stray NUL, or a block of them (a crash's zero-filled tail):
		// iconv from UTF-16 would garble such a file.
		return fmt.Errorf("%s line %d: a NUL byte at byte %d, not text (a damaged file?)", what, num, strings.IndexByte(line, 0)+1)
	}
	return nil
}

// confStripComment cuts a line at its first '#' not escaped by an odd number
// of backslashes, as Slurm does (quotes do not protect a '#').
func confStripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if bs%2 == 0 {
				return s[:i]
			}
			bs = 0
		case '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// confContinued reports whether a line (comment stripped) ends in an
// unescaped backslash.
func confContinued(s string) bool {
	bs := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		bs++
	}
	return bs%2 == 1
}

// confUnescape drops each escaping backslash ("\#" is "#", "\\" is "\").
func confUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// confSplit cuts a logical line into Key=Value pairs: blanks around '='
// allowed, a value in double quotes may hold blanks.
func confSplit(s string) ([]confPair, error) {
	var out []confPair
	i := 0
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }
	for {
		for i < len(s) && blank(s[i]) {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		k := i
		for i < len(s) && !blank(s[i]) && s[i] != '=' {
			i++
		}
		key := s[k:i]
		for i < len(s) && blank(s[i]) {
			i++
		}
		if i == len(s) || s[i] != '=' {
			return nil, fmt.Errorf("%q is not Key=Value", confClip(key))
		}
		if key == "" {
			return nil, errors.New("'=' without a key")
		}
		i++
		for i < len(s) && blank(s[i]) {
			i++
		}
		var val string
		if i < len(s) && s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("%s: unclosed quote", confClip(key))
			}
			val = s[i+1 : i+1+end]
			i += end + 2
		} else {
			v := i
			for i < len(s) && !blank(s[i]) {
				i++
			}
			val = s[v:i]
		}
		out = append(out, confPair{key, val})
	}
}

func confUnlimited(v string) bool {
	return strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") || v == "-1"
}

// confCount reads a non-negative integer up to hi.
func confCount(v string, hi int64) (int64, error) { return confInt(v, 0, hi) }

func confInt(v string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", confClip(v))
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is outside [%d, %d]", n, lo, hi)
	}
	return n, nil
}

func confWeight(v string, dst *int64) error {
	n, err := confCount(v, math.MaxUint32)
	*dst = n
	return err
}

// confFactor reads a partition's PriorityJobFactor or PriorityTier (uint16).
func confFactor(v string, dst *int64) error {
	n, err := confCount(v, math.MaxUint16-2)
	*dst = n
	return err
}

func confBool(v string, dst *bool) error {
	switch strings.ToLower(v) {
	case "yes", "true", "1", "up":
		*dst = true
	case "no", "false", "0", "down":
		*dst = false
	default:
		return fmt.Errorf("%q is not YES or NO", confClip(v))
	}
	return nil
}

// minutes reads the time v of key as Slurm 22.05 does (slurmTimeMins):
// seconds (whole minutes), or unlimited; an error where Slurm refuses the
// file ("Bad value"). Where Slurm's 32-bit arithmetic overflows, its
// value is kept, with a note.
func (p *confParser) minutes(key, v string, num int) (int64, bool, error) {
	m, exact := slurmTimeMins(v)
	switch {
	case m == slurmInfinite && exact != slurmInfinite:
		p.note(num, "%s=%s overflows Slurm's 32-bit time arithmetic: Slurm 22.05 takes it as UNLIMITED, and so does the model", key, confClip(v))
		return 0, true, nil
	case m == slurmInfinite:
		return 0, true, nil
	case m < 0 && exact >= 0:
		return 0, false, fmt.Errorf("%q overflows Slurm's 32-bit time arithmetic to a negative value (it is over 2^31-60 seconds): Slurm refuses it", confClip(v))
	case m < 0:
		return 0, false, fmt.Errorf("%q is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED): Slurm refuses it", confClip(v))
	case int64(m) != exact:
		p.note(num, "%s=%s overflows Slurm's 32-bit time arithmetic: Slurm 22.05 takes it as %d minutes, and so does the model", key, confClip(v), m)
	}
	return int64(m) * 60, false, nil
}

// confDigits reads a non-negative decimal of at most 12 digits.
func confDigits(s string) (int64, error) {
	if s == "" || len(s) > 12 {
		return 0, errors.New("bad number")
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("bad number")
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, nil
}

// confClip shortens a value quoted in a message to about 64 bytes.
func confClip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// hostRange is one "lo-hi" (or single number) of a bracket, with the
// width the numbers are zero-padded to (the digits of lo, as Slurm's
// hostlist does: "[01-10]" pads to 2, "[1-10]" not at all).
type hostRange struct{ lo, hi, width int64 }

// expandHostlist expands a Slurm hostlist expression ("node[01-04,7],
// gpu[1-2]", "rack[1-2]-n[1-3]" for every combination) into node names,
// each once, in order. used counts the names expanded so far in the file:
// an expression that would take it past maxNodeNames is refused before
// any name is made.
func expandHostlist(s string, used *int, sets map[string][]string) ([]string, error) {
	var items []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			if depth++; depth > 1 {
				return nil, fmt.Errorf("hostlist %q: nested '['", confClip(s))
			}
		case ']':
			if depth--; depth < 0 {
				return nil, fmt.Errorf("hostlist %q: ']' without '['", confClip(s))
			}
		case ',':
			if depth == 0 {
				items = append(items, s[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("hostlist %q: '[' without ']'", confClip(s))
	}
	items = append(items, s[start:])
	var out []string
	seen := map[string]bool{}
	for _, item := range items {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if set, ok := sets[item]; ok {
			if *used+len(set) > maxNodeNames {
				return nil, fmt.Errorf("hostlist %q: more than %d node names in the file; refused", confClip(s), maxNodeNames)
			}
			*used += len(set)
			for _, name := range set {
				if !seen[name] {
					seen[name] = true
					out = append(out, name)
				}
			}
			continue
		}
		// Literal text and bracket groups, alternating: lits[k] comes
		// before groups[k]; the last literal after the last group.
		var lits []string
		var groups [][]hostRange
		rest := item
		n := int64(1)
		for {
			open := strings.IndexByte(rest, '[')
			if open < 0 {
				lits = append(lits, rest)
				break
			}
			end := strings.IndexByte(rest, ']')
			lits = append(lits, rest[:open])
			g, cnt, err := hostRanges(rest[open+1 : end])
			if err != nil {
				return nil, fmt.Errorf("hostlist %q: %w", confClip(s), err)
			}
			if n > int64(maxNodeNames)/cnt {
				n = int64(maxNodeNames) + 1
			} else {
				n *= cnt
			}
			groups = append(groups, g)
			rest = rest[end+1:]
		}
		if int64(*used)+n > maxNodeNames {
			return nil, fmt.Errorf("hostlist %q: more than %d node names in the file; refused", confClip(s), maxNodeNames)
		}
		*used += int(n)
		names := []string{lits[0]}
		for k, g := range groups {
			next := make([]string, 0, len(names)*int(rangeCount(g)))
			for _, prefix := range names {
				for _, r := range g {
					for v := r.lo; v <= r.hi; v++ {
						num := strconv.FormatInt(v, 10)
						if pad := int(r.width) - len(num); pad > 0 {
							num = strings.Repeat("0", pad) + num
						}
						next = append(next, prefix+num+lits[k+1])
					}
				}
			}
			names = next
		}
		for _, name := range names {
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("hostlist %q names no node", confClip(s))
	}
	return out, nil
}

// hostRanges reads the inside of a bracket, "01-04,7", with the number
// of values it spans (at most maxNodeNames+1: more is refused anyway).
func hostRanges(s string) ([]hostRange, int64, error) {
	var out []hostRange
	var n int64
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		if !isRange {
			hi = lo
		}
		a, err1 := confDigits(lo)
		b, err2 := confDigits(hi)
		if err1 != nil || err2 != nil {
			return nil, 0, fmt.Errorf("range %q is not N or N-M", confClip(part))
		}
		if b < a {
			return nil, 0, fmt.Errorf("range %q runs backwards", confClip(part))
		}
		out = append(out, hostRange{a, b, int64(len(lo))})
		n = min(n+b-a+1, int64(maxNodeNames)+1)
	}
	return out, n, nil
}

func rangeCount(g []hostRange) int64 {
	var n int64
	for _, r := range g {
		n += r.hi - r.lo + 1
	}
	return n
}
