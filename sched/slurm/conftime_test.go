package slurm

import (
	"fmt"
	"strings"
	"testing"
)

// What Slurm 22.05.8 (Debian 12) did with these values, observed on
// scripts/slurm-cluster.sh's private Slurm on 2026-11-29: each accepted
// MaxTime as slurmctld showed it (scontrol show partition), each refused
// one as scontrol refused the file ("Bad value \"...\" for MaxTime").
// The minutes are those displays converted by hand (5-04:41:00 is
// 5*1440+4*60+41).
var slurmObservedTimes = []struct {
	v    string
	mins int64 // -1: unlimited; -2: refused
}{
	{"1-99:99:99", 7481},         // 5-04:41:00: no field is range-checked
	{"2-", 2880},                 // 2-00:00:00: "%d-%d" stops after the days
	{"99:99", 101},               // 01:41:00: 99 min 99 s, rounded up
	{"0:99:99", 101},             // 01:41:00
	{"007", 7},                   // 00:07:00
	{"24855-0", 35791200},        // 24855-00:00:00
	{"0-596523:13:07", 35791394}, // 24855-03:14:00: 2^31-1-60 seconds, rounded up
	{"49711-0", 1052},            // 17:32:00: 49711 days overflow to 63104 s
	{"-1", -1},                   // UNLIMITED
	{"-2", -2},
	{"1-2:", -2},
	{"24856-0", -2}, // overflows to a negative number of seconds
	{"0-596523:14:07", -2},
	{"+5", -2},
	{"5x", -2},
	{"1:2:3:4", -2},
	{"1--2", -2},
	{"::5", -2},
	{"99999999999", -2},
	{"1-:", -2},
	{"1-:5", -2},
}

func TestParseConfTimesAsSlurm(t *testing.T) {
	for _, tc := range slurmObservedTimes {
		in := fmt.Sprintf("PriorityWeightAge=1\nPartitionName=p MaxTime=%s", tc.v)
		c, notes, err := ParseConf(strings.NewReader(in))
		switch {
		case tc.mins == -2:
			if err == nil || !strings.Contains(err.Error(), "line 2: PartitionName=p MaxTime") {
				t.Errorf("MaxTime=%s: got %v, want an error naming line 2 and MaxTime (Slurm refuses it)", tc.v, err)
			}
			continue
		case err != nil:
			t.Errorf("MaxTime=%s: %v; Slurm accepts it", tc.v, err)
			continue
		}
		want := tc.mins * 60
		if tc.mins == -1 {
			want = 0 // unlimited
		}
		if got := c.Partitions[0].MaxTime; got != want {
			t.Errorf("MaxTime=%s: %d s, Slurm %d s", tc.v, got, want)
		}
		overflow := tc.v == "49711-0"
		noted := strings.Contains(strings.Join(notes, "\n"), "overflows Slurm's 32-bit")
		if noted != overflow {
			t.Errorf("MaxTime=%s: overflow noted %v, want %v (%q)", tc.v, noted, overflow, notes)
		}
	}
	// Values of 0, which ParseConf refuses for MaxTime (no job could
	// run), observed as DefaultTime and MaxTime 00:00:00.
	for _, v := range []string{"-0", "-99999999999999999999", "0", "00:00:00"} {
		if m, _ := slurmTimeMins(v); m != 0 {
			t.Errorf("time_str2mins(%q) = %d, Slurm 0", v, m)
		}
	}
}

// A sum of seconds that wraps onto INFINITE (-1) or NO_VAL (-2), which
// time_str2mins then returns as they are: MaxTime unlimited, with the
// overflow noted, or refused as overflowing (from Slurm's source, not
// observed: 2^32-1 and 2^32-2 seconds).
func TestParseConfTimesWrapOntoSentinels(t *testing.T) {
	in := "PriorityWeightAge=1\nPartitionName=p MaxTime="
	c, notes, err := ParseConf(strings.NewReader(in + "49710-6:28:15"))
	if err != nil || c.Partitions[0].MaxTime != 0 || !strings.Contains(strings.Join(notes, "\n"), "overflows Slurm's 32-bit time arithmetic: Slurm 22.05 takes it as UNLIMITED") {
		t.Errorf("MaxTime=49710-6:28:15 (2^32-1 s): %v, notes %q; want unlimited, the overflow noted", err, notes)
	}
	if _, _, err := ParseConf(strings.NewReader(in + "49710-6:28:14")); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("MaxTime=49710-6:28:14 (2^32-2 s): %v; want refused as an overflow", err)
	}
}

// OverTimeLimit as Slurm 22.05.8 read it (scontrol show config; refusals
// by scontrol): a number as strtoul reads it, 65535 is UNLIMITED.
func TestParseConfOverTimeLimitAsSlurm(t *testing.T) {
	for _, tc := range []struct {
		v    string
		mins int64 // -1: UNLIMITED (no extension, reported as ignored); -2: refused
	}{
		{"010", 8}, // octal: "OverTimeLimit = 8 min"
		{"90", 90},
		{"65535", -1},
		{"UNLIMITED", -1},
		{"1:30", -2},  // "is not a valid number"
		{"-1", -2},    // "is less than zero"
		{"70000", -2}, // "is greater than 65535"
	} {
		c, ignored, err := ParseConf(strings.NewReader("\nOverTimeLimit=" + tc.v))
		switch {
		case tc.mins == -2:
			if err == nil || !strings.Contains(err.Error(), "line 2: OverTimeLimit") {
				t.Errorf("OverTimeLimit=%s: got %v, want an error naming line 2 (Slurm refuses it)", tc.v, err)
			}
		case err != nil:
			t.Errorf("OverTimeLimit=%s: %v; Slurm accepts it", tc.v, err)
		case tc.mins == -1:
			if c.OverTimeLimit != 0 || !strings.Contains(strings.Join(ignored, "\n"), "OverTimeLimit=UNLIMITED") {
				t.Errorf("OverTimeLimit=%s: %d s, ignored %q; want UNLIMITED reported", tc.v, c.OverTimeLimit, ignored)
			}
		case c.OverTimeLimit != tc.mins*60:
			t.Errorf("OverTimeLimit=%s: %d s, Slurm %d min", tc.v, c.OverTimeLimit, tc.mins)
		}
	}
}
