package cli

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// A log's jobs may name several partitions (SWF field 16, "partition
// number"; the header's MaxPartitions and "Partition: n name" lines):
// SDSC-Par's interactive and batch, LLNL-Atlas's and CEA-Curie's Slurm
// partitions, a multi-cluster log's clusters. The commands simulate one
// pool of the header's MaxProcs, which is the archive's reading of a
// machine whose partitions it sizes as one (every shipped log that names
// partitions gives one MaxProcs for the whole machine), and plainly wrong
// for clusters that never shared a processor (DAS2's five, SHARCNET's
// ten). No field tells the two apart, so the commands say it, once, in
// one line that names both readings and the way to the other
// (simulate -partition N), rather than warn on logs read as the archive
// means them.

// PartitionCount counts a log's jobs by partition as they are read
// (Add), for the note of Partitions.
type PartitionCount struct {
	byNum   map[int64]*PartitionJobs
	last    *PartitionJobs // the previous job's: a log's jobs come in runs of one partition
	unknown int
	// beyond counts the jobs of partitions past the first
	// MaxPartitions the log named, not told apart: a log naming a
	// million (a number a job) held a map of them all, 600 MB in a
	// streamed simulate that otherwise holds 40, and wrote them all in
	// -json (90 MB).
	beyond int
}

// MaxPartitions bounds the partitions a PartitionCount tells apart, far
// above any archive log's (CEA-Curie's jobs name 18; SHARCNET's clusters
// are 10).
const MaxPartitions = 1000

// Add counts j. (Small enough to inline: a log without partitions, -1
// throughout, pays an increment a job.)
func (c *PartitionCount) Add(j *swf.Job) {
	if j.Partition < 0 {
		c.unknown++
		return
	}
	c.add(j)
}

func (c *PartitionCount) add(j *swf.Job) {
	p := j.Partition
	e := c.last
	if e == nil || e.Number != p {
		if c.byNum == nil {
			c.byNum = map[int64]*PartitionJobs{}
		}
		if e = c.byNum[p]; e == nil {
			if len(c.byNum) == MaxPartitions {
				c.beyond++
				return
			}
			e = &PartitionJobs{Number: p}
			c.byNum[p] = e
		}
		c.last = e
	}
	e.Jobs++
	e.Largest = max(e.Largest, j.Size())
}

// Count is the number of partitions the jobs named, told apart (at most
// MaxPartitions).
func (c *PartitionCount) Count() int { return len(c.byNum) }

// Partitions is what a report says of a log whose jobs name more than one
// partition; -json's "partitions" (absent for a log of one partition or
// none).
type Partitions struct {
	// ByPartition is each partition's jobs, by number, with the name the
	// header gives it ("Partition: 1 interactive").
	ByPartition []PartitionJobs `json:"by_partition"`
	// NoPartition counts the jobs without one (field 16 is -1).
	NoPartition int `json:"no_partition_jobs,omitempty"`
	// Beyond counts the jobs of partitions past the first MaxPartitions
	// the log named, which ByPartition leaves out, not told apart.
	Beyond int `json:"jobs_beyond_max_partitions,omitempty"`
	// Pool is the processors of the one pool the command took for all
	// of them (0 when it took none: swfstat).
	Pool int64 `json:"one_pool_processors,omitempty"`
	// ReadAs says how a command read field 16 when not as partitions of
	// one pool: "slurm_qos", simulate -slurm-conf's policy, which reads it
	// as each job's QOS and takes its partition from field 15.
	ReadAs string `json:"read_as,omitempty"`
}

// PartitionJobs is one partition's jobs.
type PartitionJobs struct {
	Number int64  `json:"partition"`
	Name   string `json:"name,omitempty"`
	Jobs   int    `json:"jobs"`
	// Largest is its largest job, processors allocated, else requested:
	// a lower bound of the partition's size, which headers rarely give.
	Largest int64 `json:"largest_job"`
}

// Partitions is the note's figures, with the names of h's Partition
// lines, nil when the jobs named fewer than two partitions.
func (c *PartitionCount) Partitions(h *swf.Header) *Partitions {
	if len(c.byNum) < 2 {
		return nil
	}
	return &Partitions{ByPartition: c.All(h), NoPartition: c.unknown, Beyond: c.beyond}
}

// All is the jobs of each partition, by number, with the names of h's
// Partition lines.
func (c *PartitionCount) All(h *swf.Header) []PartitionJobs {
	names := PartitionNames(h, c.byNum)
	var all []PartitionJobs
	for _, n := range slices.Sorted(maps.Keys(c.byNum)) {
		e := *c.byNum[n]
		e.Name = names[n]
		all = append(all, e)
	}
	return all
}

// PartitionsOf counts jobs (PartitionCount).
func PartitionsOf(h *swf.Header, jobs []swf.Job) *Partitions {
	var c PartitionCount
	for i := range jobs {
		c.Add(&jobs[i])
	}
	return c.Partitions(h)
}

// PartitionNames reads the header's "Partition: n name" lines of the
// numbers of want: number → name, its spaces and tabs one space,
// printable (CEA-Curie's hold "`;" and "z+i5U=:"), at most
// maxPartitionName bytes (a name of megabytes was the whole of a note).
// A line without a number names nothing; the first line of a number
// wins, as a single-valued key's does. (Only want's: a header of 10^5
// lines was a map of them all, 3 times simulate's memory.)
func PartitionNames[V any](h *swf.Header, want map[int64]V) map[int64]string {
	names := map[int64]string{}
	if h == nil {
		return names
	}
	for _, e := range h.Partition {
		f := strings.Fields(e)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if _, dup := names[n]; err != nil || dup {
			continue
		}
		if _, ok := want[n]; !ok {
			continue
		}
		name := strings.Join(f[1:], " ")
		if len(name) > maxPartitionName {
			name = strings.ToValidUTF8(name[:maxPartitionName], "") + "…"
		}
		names[n] = Printable(name)
	}
	return names
}

// maxPartitionName bounds a partition's name as a note says it.
const maxPartitionName = 64

// Label is the partition as a note names it: "2 batch", or "2".
func (e PartitionJobs) Label() string {
	if e.Name == "" || e.Name == strconv.FormatInt(e.Number, 10) {
		return strconv.FormatInt(e.Number, 10)
	}
	return fmt.Sprintf("%d %s", e.Number, e.Name)
}

// notedPartitions is how many partitions the text names, the largest by
// jobs; -json has them all.
const notedPartitions = 4

// Note is the text's line: the jobs by partition and how the command
// took them (how: "simulated as one pool of 400 processors (header
// MaxProcs)"), and how to simulate one partition alone.
func (p *Partitions) Note(how string) string {
	count, jobs := p.JobsText()
	w := fmt.Sprintf("the jobs name %s partitions (SWF field 16; jobs: %s", count, jobs)
	return w + "); " + how + ", the archive's reading when they share one machine; " +
		"if they are separate machines (clusters), simulate -partition N simulates one alone"
}

// JobsText is the note's count of partitions ("18", "more than 1000")
// and its list of their jobs ("25727 in partition 1 pbatch, …, 3 in
// none"), the largest first.
func (p *Partitions) JobsText() (count, jobs string) {
	by := slices.Clone(p.ByPartition)
	slices.SortStableFunc(by, func(a, b PartitionJobs) int { return cmp.Compare(b.Jobs, a.Jobs) })
	parts := make([]string, 0, notedPartitions+1)
	for i, e := range by {
		if i == notedPartitions && len(by) > i+1 { // (one more is named: not "in 1 more partitions")
			rest := 0
			for _, e := range by[i:] {
				rest += e.Jobs
			}
			parts = append(parts, fmt.Sprintf("%d in %d more partitions", rest, len(by)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%d in partition %s", e.Jobs, e.Label()))
	}
	count = strconv.Itoa(len(by))
	if p.Beyond > 0 {
		count = fmt.Sprintf("more than %d", len(by))
		parts = append(parts, fmt.Sprintf("%d in partitions past the first %d, not told apart", p.Beyond, len(by)))
	}
	if p.NoPartition > 0 {
		parts = append(parts, fmt.Sprintf("%d in none", p.NoPartition))
	}
	return count, strings.Join(parts, ", ")
}
