package slurmtest

import "testing"

// TestSacctmgrParent: an account with a Parent is added under it (site
// qos-tree's sub-accounts), the others under root, in the order given.
func TestSacctmgrParent(t *testing.T) {
	s := &Site{QOS: map[string]int64{"high": 100}, Accounts: []Account{
		{Name: "physics", Shares: 30},
		{Name: "theory", Shares: 1, Parent: "physics", Users: []User{{Name: "bq-alice", Shares: 1, QOS: "normal,high"}}},
	}}
	want := "add qos high priority=100\n" +
		"add account physics fairshare=30\n" +
		"add account theory fairshare=1 parent=physics\n" +
		"add user bq-alice account=theory fairshare=1 qos=normal,high\n"
	if got := s.Sacctmgr(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
