package main

import (
	"io"
	"testing"
)

// The -replay bar follows the skeleton's rule: on a terminal by default,
// never under -json (output for scripts) unless -progress asks, and
// -progress=false turns it off. It was drawn whenever stderr was a
// terminal, -json or not, and slurmfeed had no -progress.
func TestReplayBarOn(t *testing.T) {
	for _, c := range []struct {
		args     []string
		terminal bool
		want     bool
	}{
		{nil, true, true},
		{[]string{"-json"}, true, false},
		{[]string{"-json", "-progress"}, true, true},
		{[]string{"-progress=false"}, true, false},
		{nil, false, false},
		{[]string{"-progress"}, false, true},
	} {
		o, err := parse(append([]string{"-replay", "testdata/live.jsonl.gz"}, c.args...), io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if got := o.barOn(c.terminal); got != c.want {
			t.Errorf("%q on a terminal %v: bar %v, want %v", c.args, c.terminal, got, c.want)
		}
	}
}
