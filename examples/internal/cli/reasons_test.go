package cli

import (
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

func TestReasons(t *testing.T) {
	rep := sanitize.Report{Excluded: []sanitize.Excluded{{Reason: sanitize.NoSize}, {Reason: sanitize.DuplicateID}, {Reason: sanitize.NoSize}}}
	if got, want := Reasons(ByReason(rep)), "1 duplicate ID, 2 no size"; got != want {
		t.Errorf("Reasons = %q, want %q", got, want)
	}
	if got := ReasonKeys(ByReason(rep)); len(got) != 2 || got["duplicate_ID"] != 1 || got["no_size"] != 2 {
		t.Errorf("ReasonKeys = %v, want duplicate_ID 1 and no_size 2", got)
	}
	if got := Reasons(ByReason(sanitize.Report{})); got != "" {
		t.Errorf("Reasons of none = %q, want \"\"", got)
	}
}

func TestFirstIDs(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 0}, {ID: 2, Submit: 1}, {ID: 1, Submit: 2}, {ID: 3, Submit: 3}, {ID: 2, Submit: 4}}
	kept, dups := FirstIDs(jobs)
	if dups != 2 || len(kept) != 3 || kept[0].Submit != 0 || kept[1].Submit != 1 || kept[2].ID != 3 {
		t.Errorf("FirstIDs: %v, %d left out; want jobs 1, 2, 3 as first read and 2 left out", kept, dups)
	}
}
