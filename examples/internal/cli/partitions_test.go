package cli

import (
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// The header's partition lines are read with a tab or spaces after the
// number, a hostile name printable; a line without a number names
// nothing, and the first line of a number wins.
func TestPartitionNames(t *testing.T) {
	h := &swf.Header{Partition: []string{" 1  interactive  ", "2\tbatch", "x debug", "1 again", "3", "4 \x1b]0;t\a",
		"5 a\t\tb", "6 " + strings.Repeat("中", 1e5), "7 unwanted"}}
	want := map[int64]string{1: "interactive", 2: "batch", 3: "", 4: `"\x1b]0;t\a"`, 5: "a b", 6: strings.Repeat("中", 21) + "…"}
	wanted := map[int64]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 8: true}
	if got := PartitionNames(h, wanted); !reflect.DeepEqual(got, want) {
		t.Errorf("PartitionNames = %v, want %v", got, want)
	}
}

// A log naming more partitions than MaxPartitions (a number a job) is
// counted in bounded memory: the first MaxPartitions told apart, the
// jobs of the others counted together, and the note says so.
func TestPartitionCountBounded(t *testing.T) {
	var c PartitionCount
	for i := range MaxPartitions + 5 {
		j := swf.NewJob()
		j.Partition = 1<<63 - 1 - int64(i)
		c.Add(&j)
	}
	p := c.Partitions(nil)
	if c.Count() != MaxPartitions || len(p.ByPartition) != MaxPartitions || p.Beyond != 5 {
		t.Fatalf("count %d, %d told apart, %d beyond; want %d, %d, 5", c.Count(), len(p.ByPartition), p.Beyond, MaxPartitions, MaxPartitions)
	}
	if n := p.Note("x"); !strings.Contains(n, "the jobs name more than 1000 partitions") || !strings.Contains(n, "5 in partitions past the first 1000, not told apart") {
		t.Errorf("Note = %q", n)
	}
}

// Jobs of one partition, or of none, give no note; of two, one with the
// jobs of none counted apart.
func TestPartitionsOf(t *testing.T) {
	job := func(p, size int64) swf.Job {
		j := swf.NewJob()
		j.Partition, j.AllocProcs = p, size
		return j
	}
	if p := PartitionsOf(nil, []swf.Job{job(1, 4), job(1, 8), job(-1, 2)}); p != nil {
		t.Errorf("one partition: %+v, want nil", p)
	}
	p := PartitionsOf(nil, []swf.Job{job(2, 4), job(1, 8), job(2, 16), job(-1, 2)})
	want := &Partitions{ByPartition: []PartitionJobs{{Number: 1, Jobs: 1, Largest: 8}, {Number: 2, Jobs: 2, Largest: 16}}, NoPartition: 1}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("PartitionsOf = %+v, want %+v", p, want)
	}
	if got, w := p.Note("taken as one pool"), "the jobs name 2 partitions (SWF field 16; jobs: 2 in partition 2, 1 in partition 1, 1 in none); taken as one pool, "+
		"the archive's reading when they share one machine; if they are separate machines (clusters), simulate -partition N simulates one alone"; got != w {
		t.Errorf("Note = %q\nwant %q", got, w)
	}
}
