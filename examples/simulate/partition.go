package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// selection is -partition's outcome: the partition simulated alone.
type selection struct {
	Partition int64  `json:"partition"`
	Name      string `json:"name,omitempty"`
	Jobs      int    `json:"jobs"`
	// LeftOut is the jobs of the other partitions and those of none
	// (field 16 -1), not simulated.
	LeftOut int `json:"left_out"`
	// SizeGuess says how the machine size was taken when neither
	// -machine nor -nodes gave it: "peak logged use" (the most
	// processors the partition's jobs held at once in the log's own
	// schedule) or "largest job", each a lower bound of its size, which
	// headers rarely give; "header" when that bound exceeds the whole
	// machine's size (Over says which); "" when -machine or -nodes gave
	// the size.
	SizeGuess string `json:"size_guess,omitempty"`
	Over      string `json:"size_guess_over_header,omitempty"`
	// HeaderUnread, with a guess, says why the header's whole machine,
	// which bounds it, could not be read (no MaxProcs or MaxNodes line,
	// one not read as a size, one above 2^40 processors): the guess is
	// then unbounded but by 2^40, which it was without a word.
	HeaderUnread string `json:"header_size_unread,omitempty"`
}

// selectPartition keeps the jobs of tr's partition p (-partition),
// in place, and returns what it kept.
func selectPartition(tr *trace, p int64) (*selection, error) {
	var c cli.PartitionCount
	kept := tr.jobs[:0]
	for i := range tr.jobs {
		c.Add(&tr.jobs[i])
		if tr.jobs[i].Partition == p {
			kept = append(kept, tr.jobs[i])
		}
	}
	left := len(tr.jobs) - len(kept)
	clear(tr.jobs[len(kept):])
	tr.jobs = kept
	if len(kept) == 0 {
		return nil, fmt.Errorf("%s: -partition %d: no job names partition %d (%s)", tr.name, p, p, partitionsText(tr.header, &c))
	}
	return &selection{Partition: p, Name: cli.PartitionNames(tr.header, map[int64]bool{p: true})[p], Jobs: len(kept), LeftOut: left}, nil
}

// partitionLines are the report's lines of the partitions: the jobs by
// partition simulated as one pool, or -partition's.
func partitionLines(info *runInfo, line func(k, format string, a ...any)) {
	if s := info.selected; s != nil {
		line("partition", "%s alone (-partition): %d jobs, %d of other partitions or of none left out",
			(cli.PartitionJobs{Number: s.Partition, Name: s.Name}).Label(), s.Jobs, s.LeftOut)
	}
	if p := info.partitions; p != nil && p.ReadAs == "slurm_qos" {
		count, jobs := p.JobsText()
		line("partitions", "the jobs name %s partitions in SWF field 16 (jobs: %s), which the Slurm policy reads as their QOS; "+
			"it takes a job's partition from field 15 (the queue), which is -1 on %d of the log's lines: the jobs among them ran in the default partition "+
			"(swf/convert writes a Slurm log's partitions to field 15 and its QOS to field 16)", count, jobs, info.slurmNoQueue)
	} else if p != nil {
		line("partitions", "%s", p.Note(poolText(info)))
	}
}

// poolText is how the run took the partitions, for the note.
func poolText(info *runInfo) string {
	if info.nodes != nil {
		return "simulated on one machine, the nodes of -nodes"
	}
	return fmt.Sprintf("simulated as one pool of %d processors (%s)", info.cfg.MachineSize, info.machineFrom)
}

// errPartitions is how many partitions -partition's error names.
const errPartitions = 20

// partitionsText names the partitions c counted, for -partition's error.
func partitionsText(h *swf.Header, c *cli.PartitionCount) string {
	if c.Count() == 0 {
		return "no job names one: field 16 is -1 throughout"
	}
	var names []string
	all := c.All(h)
	for i, e := range all {
		if i == errPartitions { // (a log may name a thousand)
			more := fmt.Sprintf("%d more", len(all)-i)
			if len(all) == cli.MaxPartitions {
				more = fmt.Sprintf("at least %d more", len(all)-i)
			}
			names = append(names, more)
			break
		}
		names = append(names, fmt.Sprintf("%s: %d jobs", e.Label(), e.Jobs))
	}
	return "the log's: " + strings.Join(names, ", ")
}

// partitionSize is the machine size of partition sel, guessed from its
// jobs: the most processors they held at once in the log's own schedule
// (submit + wait to its end), else its largest job, each a lower bound of
// the partition's size, no more than the header's whole machine (whole,
// 0 if unknown).
func partitionSize(jobs []swf.Job, whole int64) (size int64, from, over string) {
	type event struct{ t, d int64 }
	var ev []event
	var largest int64
	for i := range jobs {
		j := &jobs[i]
		n := j.Size()
		if n <= 0 || n > cli.MaxSize {
			continue
		}
		if j.Status.Partial() {
			continue // (a part of a job whose summary line is counted: twice its processors)
		}
		largest = max(largest, n)
		if j.Submit < 0 || j.Wait < 0 || j.RunTime <= 0 || j.Submit > sanitize.MaxTime || j.Wait > sanitize.MaxTime || j.RunTime > sanitize.MaxTime {
			continue
		}
		start := j.Submit + j.Wait
		ev = append(ev, event{start, n}, event{start + j.RunTime, -n})
	}
	// Ends before starts at one instant: a job ending frees its
	// processors for one starting then.
	slices.SortFunc(ev, func(a, b event) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d)) })
	var use, peak int64
	for _, e := range ev {
		use += e.d
		if peak = max(peak, use); peak > cli.MaxSize {
			break // (refused as a size: the sum stops before it can wrap)
		}
	}
	size, from = largest, "largest job"
	if peak > largest {
		size, from = peak, "peak logged use"
	}
	if whole > 0 && size > whole {
		size, from, over = whole, "header", from
	}
	return size, from, over
}

// size is the machine of the selected partition when -machine gives
// none: partitionSize's guess from the jobs of tr (those kept), no more
// than whole, the header's size (0: none).
func (s *selection) size(tr *trace, whole int64) (int64, string, error) {
	n, from, over := partitionSize(tr.jobs, whole)
	s.SizeGuess, s.Over = from, over
	unread := ""
	if whole <= 0 {
		s.HeaderUnread = headerUnread(tr.header)
		unread = "; not bounded by the header's whole machine, unread: " + s.HeaderUnread
	}
	n, note, err := s.guess(tr, n, from, over)
	return n, note + unread, err
}

// headerUnread is why the header gives no whole machine to bound a
// partition's guess by, as machineSize refuses it.
func headerUnread(h *swf.Header) string {
	p, err := h.MachineSize()
	if err == nil {
		err = cli.CheckMachine(p)
	}
	if err == nil {
		return ""
	}
	return strings.TrimPrefix(err.Error(), "swf: ")
}

// guess checks the size n that partitionSize guessed from from (over:
// what the header's size capped) and says how it was taken.
func (s *selection) guess(tr *trace, n int64, from, over string) (int64, string, error) {
	what := fmt.Sprintf("partition %s", (cli.PartitionJobs{Number: s.Partition, Name: s.Name}).Label())
	if n <= 0 {
		return 0, "", fmt.Errorf("%s: -partition %d: no job of %s gives a size to guess its machine by; pass -machine P", tr.name, s.Partition, what)
	}
	if err := cli.CheckMachine(n); err != nil {
		return 0, "", fmt.Errorf("%s: -partition %d: %w; pass -machine P (the size is %s's %s)", tr.name, s.Partition, err, what, from)
	}
	switch from {
	case "header":
		more := "its jobs held more at once in the log"
		if over == "largest job" {
			more = "its largest job is larger"
		}
		return n, fmt.Sprintf("header's whole machine: %s is at most that, %s; a guess, pass -machine P", what, more), nil
	case "peak logged use":
		return n, fmt.Sprintf("a guess: the most processors %s's jobs held at once in the log; pass -machine P", what), nil
	}
	return n, fmt.Sprintf("a guess: %s's largest job; pass -machine P", what), nil
}
