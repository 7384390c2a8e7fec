package convert

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// headerTable returns the header's entries under key in Other.
func headerTable(h *swf.Header, key string) []string {
	var out []string
	for _, kv := range h.Other {
		if kv.Key == key {
			out = append(out, kv.Value)
		}
	}
	return out
}

// TestAccounts: with Options.Accounts, Group is the account and
// Partition the QOS, each numbered in order of first use and named in
// the header; without it, Group stays the Unix group.
func TestAccounts(t *testing.T) {
	job := func(id, group, account, qos string) string {
		return sacctLine(with(with(with(good(id), "Group", group), "Account", account), "QOS", qos))
	}
	in := strings.ReplaceAll(SacctFormat, ",", "|") + "\n" +
		job("1", "staff", "physics", "normal") + job("2", "staff", "chem", "high") +
		job("3", "users", "physics", "") + job("4", "users", "", "normal")
	res, err := Sacct(strings.NewReader(in), Options{Accounts: true})
	if err != nil {
		t.Fatal(err)
	}
	var groups, parts []int64
	for _, j := range res.Jobs {
		groups, parts = append(groups, j.Group), append(parts, j.Partition)
	}
	if want := []int64{1, 2, 1, -1}; !slices.Equal(groups, want) {
		t.Errorf("Group = %v, want %v (the accounts)", groups, want)
	}
	if want := []int64{1, 2, -1, 1}; !slices.Equal(parts, want) {
		t.Errorf("Partition = %v, want %v (the QOS)", parts, want)
	}
	h := res.Header
	if got, want := headerTable(h, "Account"), []string{"1 physics", "2 chem"}; !slices.Equal(got, want) {
		t.Errorf("Account lines %q, want %q", got, want)
	}
	if got := headerTable(h, "Group"); got != nil {
		t.Errorf("Group lines %q with Accounts", got)
	}
	if want := []string{"1 normal", "2 high"}; !slices.Equal(h.Partition, want) || h.MaxPartitions != 2 || h.Partitions != "Slurm QOS" {
		t.Errorf("Partition lines %q (MaxPartitions %d, Partitions %q), want %q", h.Partition, h.MaxPartitions, h.Partitions, want)
	}
	if a := res.Report.Anomalies; a[noteNoAccount] != 1 || a[noteNoQOS] != 1 {
		t.Errorf("anomalies %v, want one %q and one %q", a, noteNoAccount, noteNoQOS)
	}
	if !slices.ContainsFunc(h.Note, func(s string) bool { return strings.HasPrefix(s, "Group is the Slurm account") }) {
		t.Errorf("no note on Group and Partition: %q", h.Note)
	}

	hidden, err := Sacct(strings.NewReader(in), Options{Accounts: true, HideNames: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := headerTable(hidden.Header, "Account"); got != nil || len(hidden.Header.Partition) != 2 {
		t.Errorf("HideNames: Account lines %q (want none), Partition lines %q (want kept)", got, hidden.Header.Partition)
	}

	plain, err := Sacct(strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range plain.Jobs {
		if j.Partition != -1 {
			t.Errorf("without Accounts job %d has Partition %d", j.ID, j.Partition)
		}
	}
	if got, want := headerTable(plain.Header, "Group"), []string{"1 staff", "2 users"}; !slices.Equal(got, want) {
		t.Errorf("without Accounts: Group lines %q, want %q", got, want)
	}
	if plain.Header.Partition != nil || headerTable(plain.Header, "Account") != nil {
		t.Error("without Accounts the header has QOS or account lines")
	}
}

// TestAccountsReal reads the account and QOS of Slurm 22.05's own
// outputs (every job of those runs ran as root in QOS normal).
func TestAccountsReal(t *testing.T) {
	for _, tc := range []struct{ format, path string }{
		{"jobcomp", "testdata/slurm-22.05/run1-jobcomp.txt"},
		{"sacct-json", "testdata/slurm-22.05/run1-sacct.json.gz"},
	} {
		res := convertFile(t, tc.format, tc.path, Options{Accounts: true})
		if len(res.Jobs) == 0 {
			t.Fatalf("%s: no jobs", tc.path)
		}
		for _, j := range res.Jobs {
			if j.Group != 1 || j.Partition != 1 {
				t.Errorf("%s: job %d Group %d Partition %d, want 1 and 1", tc.path, j.ID, j.Group, j.Partition)
			}
		}
		if a, p := headerTable(res.Header, "Account"), res.Header.Partition; !slices.Equal(a, []string{"1 root"}) || !slices.Equal(p, []string{"1 normal"}) {
			t.Errorf("%s: Account lines %q, Partition lines %q", tc.path, a, p)
		}
	}
	// sacct output without the Account and QOS columns says so.
	res := convertFile(t, "sacct", "testdata/slurm-22.05/run1-sacct-parsable2.txt", Options{Accounts: true})
	for _, c := range []string{"Account", "QOS"} {
		if !slices.Contains(res.Report.Notes, "column "+c+" absent: no "+c+" numbers (Options.Accounts)") {
			t.Errorf("no note on the absent %s column: %q", c, res.Report.Notes)
		}
	}
	if res.Report.Anomalies[noteNoAccount] != len(res.Jobs) {
		t.Errorf("%d jobs without an account counted, want %d", res.Report.Anomalies[noteNoAccount], len(res.Jobs))
	}
	// PBS logs keep their groups.
	pbs := convertFile(t, "pbs", "testdata/pbs-torque.log", Options{Accounts: true})
	if pbs.Header.Partition != nil || headerTable(pbs.Header, "Account") != nil ||
		!slices.ContainsFunc(pbs.Report.Notes, func(s string) bool { return strings.Contains(s, "Options.Accounts") }) {
		t.Errorf("PBS with Accounts: Partition %q, notes %q", pbs.Header.Partition, pbs.Report.Notes)
	}
}

// TestAccountsSnapshot: a queue snapshot's SWF carries the accounts and
// QOS with Options.Accounts (the test files: accounts physics, chem,
// astro in order of submission; every job in QOS normal).
func TestAccountsSnapshot(t *testing.T) {
	for _, path := range []string{"testdata/snapshot/scontrol-show-job-o.txt", "testdata/snapshot/slurmrestd-v0.0.40.json"} {
		f := openFile(t, path)
		s, err := QueueSnapshot(f, Options{Accounts: true})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range append(s.Running, s.Waiting...) {
			if q.QOS != "normal" {
				t.Errorf("%s: job %s QOS %q", path, q.ID, q.QOS)
			}
		}
		res := s.SWF()
		accounts := map[string]string{}
		for _, e := range headerTable(res.Header, "Account") {
			num, name, _ := strings.Cut(e, " ")
			accounts[num] = name
		}
		for k, j := range res.Jobs {
			var q QueuedJob
			for _, c := range append(s.Running, s.Waiting...) {
				if c.ID == res.IDs[k] {
					q = c
				}
			}
			if accounts[strconv.FormatInt(j.Group, 10)] != q.Account || j.Partition != 1 {
				t.Errorf("%s: job %s Group %d (%q), Partition %d; want account %q, QOS 1", path, res.IDs[k], j.Group,
					accounts[strconv.FormatInt(j.Group, 10)], j.Partition, q.Account)
			}
		}
		if !slices.Equal(res.Header.Partition, []string{"1 normal"}) || len(accounts) < 2 {
			t.Errorf("%s: Partition lines %q, accounts %v", path, res.Header.Partition, accounts)
		}
		plain, err := QueueSnapshot(openFile(t, path), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r := plain.SWF(); r.Header.Partition != nil || headerTable(r.Header, "Account") != nil || r.Jobs[0].Group != -1 {
			t.Errorf("%s without Accounts: Partition %q, Group %d", path, r.Header.Partition, r.Jobs[0].Group)
		}
	}
}

func openFile(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
