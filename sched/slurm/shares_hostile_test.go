package slurm

import (
	"os"
	"strings"
	"testing"
)

// TestReadSharesHostile: a shares file that gives no tree, or a wrong
// one, is an error, not an empty or altered tree the simulation runs with
// in silence (the hostile-input audit of -shares): a header line alone
// (sshare, sacctmgr, QOS), a file whose lines end in CR alone (read as
// one header line of 50 columns), and a root account given a parent (an
// "account root" under physics, users of root moved under it).
func TestReadSharesHostile(t *testing.T) {
	long, err := os.ReadFile("testdata/sshare-long.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"sshare header only", "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\n", "shares: no association after the header line"},
		{"sacctmgr header only", "Account|Par Name|User|Share\n", "shares: no association after the header line"},
		{"qos header only", "Name|Priority\n", "shares: no QOS after the header line (line 1): give the qos output with its lines, or leave the file out if the site has no QOS beyond the default"},
		{"CR line ends", strings.ReplaceAll(string(long), "\n", "\r"), "lines ended by CR alone"},
		{"root with a parent", "Account|Par Name|User|Share\nroot|||1\nphysics|root||1\nroot|physics||1\n", "sacctmgr line 4: the root account has parent \"physics\""},
	} {
		var c Config
		err := c.ReadShares(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v (%d associations, %d QOS), want an error with %q", tc.name, err, len(c.Associations), len(c.QOS), tc.want)
		}
	}
}

// TestParseConfCROnly: a slurm.conf whose lines end in CR alone is
// named as such; it was "no setting in it (empty, or comments only)"
// (its first line a comment, the whole file read as that line).
func TestParseConfCROnly(t *testing.T) {
	b, err := os.ReadFile("testdata/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ParseConf(strings.NewReader(strings.ReplaceAll(string(b), "\n", "\r")))
	if err == nil || !strings.Contains(err.Error(), "lines ended by CR alone") {
		t.Errorf("slurm.conf with CR line ends: %v; want an error that names them", err)
	}
}

// TestParseConfStrayCR: a CR inside a line past the first of an LF file
// (one pasted into a comment) is named where it is, not as a file of
// CR-ended lines "read as one line", whose advice, tr '\r' '\n', would
// have made the comment's tail a line of its own.
func TestParseConfStrayCR(t *testing.T) {
	_, _, err := ParseConf(strings.NewReader("ClusterName=x\n# a comment\rpasted\nPriorityType=priority/multifactor\n"))
	want := "slurm.conf line 2: a CR inside the line at byte 12, not at its end"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "read as one line") {
		t.Errorf("a stray CR in line 2: %v; want an error with %q", err, want)
	}
}
