package swf

import (
	"strings"
	"testing"
)

// The SWF definition separates fields by white space, which the peers'
// readers (Python's str.split) and C's isspace take to include a form feed
// and a vertical tab: a line with them between its fields, or a form feed
// alone (an old log's page break), was malformed. They read as blanks,
// the job's values those of the line with spaces.
func TestFormFeedVerticalTabBlanks(t *testing.T) {
	plain := "1 0 10 3600 16 142.00 35100.00 16 7200 -1 1 1 1 -1 -1 -1 -1 -1"
	hostile := "\f1\v0 10\f3600 16 142.00 35100.00 16 7200 -1 1 1 1 -1 -1 -1 -1\v-1\f"
	read := func(in string) ([]Job, Stats) {
		t.Helper()
		r := NewReader(strings.NewReader(in))
		jobs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		return jobs, r.Stats()
	}
	want, _ := read("; MaxProcs: 16\n" + plain + "\n")
	got, st := read("; MaxProcs: 16\n\f\n" + hostile + "\n\v\n" + strings.ReplaceAll(plain, " ", "\f") + "\r\n")
	if len(got) != 2 || got[0] != want[0] || got[1] != want[0] || st.Skipped != 0 {
		t.Errorf("got %+v (stats %+v), want twice %+v", got, st, want[0])
	}
	// A demand line's tokens too.
	got, _ = read("; MaxProcs: 16\n;=\fcores=4\vmem=100\n" + plain + "\n")
	if len(got) != 1 || got[0].Demand == nil || got[0].Demand.Cores != 4 {
		t.Errorf("demand: %+v", got)
	}
}
