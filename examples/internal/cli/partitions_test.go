package cli

import (
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
)

// The header's partition lines are read with a tab or spaces after the
// number, a hostile name printable; a line without a number names
// nothing, and the first line of a number wins.
func TestPartitionNames(t *testing.T) {
	h := &swf.Header{Partition: []string{" 1  interactive  ", "2\tbatch", "x debug", "1 again", "3", "4 \x1b]0;t\a"}}
	want := map[int64]string{1: "interactive", 2: "batch", 3: "", 4: `"\x1b]0;t\a"`}
	if got := PartitionNames(h); !reflect.DeepEqual(got, want) {
		t.Errorf("PartitionNames = %v, want %v", got, want)
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
