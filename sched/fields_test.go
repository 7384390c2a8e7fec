package sched_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// fieldCase is one row of Peer's table of missing fields: a
// change to the base line, and whether the run kills at the estimate.
type fieldCase struct {
	label string
	edit  func(j *swf.Job)
	kill  bool
}

// The base line: submit 100, run r = 500, f5 = 4, f8 = 6, estimate e =
// 1000, on a machine of P = 16 beside a job whose estimate E = 7200 is the
// largest of the load. Every value is distinct, so that the table can name
// where each simulated value came from.
const (
	fieldP, fieldE = 16, 7200
)

func fieldBase() swf.Job {
	j := job(2, 100, 500, 4, 1000)
	j.ReqProcs, j.Wait, j.User, j.Status = 6, 0, 3, 1
	return j
}

var fieldCases = []fieldCase{
	{"every field present", func(*swf.Job) {}, false},
	{"f1 job number -1", func(j *swf.Job) { j.ID = -1 }, false},
	{"f2 submit -1", func(j *swf.Job) { j.Submit = -1 }, false},
	{"f3 wait -1", func(j *swf.Job) { j.Wait = -1 }, false},
	{"f4 run -1", func(j *swf.Job) { j.RunTime = -1 }, false},
	{"f4 run -1, submit 0", func(j *swf.Job) { j.RunTime, j.Submit = -1, 0 }, false},
	{"f4 run 0", func(j *swf.Job) { j.RunTime = 0 }, false},
	{"f5 allocated -1", func(j *swf.Job) { j.AllocProcs = -1 }, false},
	{"f8 requested -1", func(j *swf.Job) { j.ReqProcs = -1 }, false},
	{"f5 and f8 -1", func(j *swf.Job) { j.AllocProcs, j.ReqProcs = -1, -1 }, false},
	{"f9 estimate -1", func(j *swf.Job) { j.ReqTime = -1 }, false},
	{"f9 estimate -1, kill", func(j *swf.Job) { j.ReqTime = -1 }, true},
	{"f11 status -1", func(j *swf.Job) { j.Status = -1 }, false},
	{"f12 user -1", func(j *swf.Job) { j.User = -1 }, false},
	{"run 1500 > estimate", func(j *swf.Job) { j.RunTime = 1500 }, false},
	{"run 1500 > estimate, kill", func(j *swf.Job) { j.RunTime = 1500 }, true},
	{"f5 and f8 32 > P", func(j *swf.Job) { j.AllocProcs, j.ReqProcs = 32, 32 }, false},
	{"f5 and f8 32 > P, run -1", func(j *swf.Job) { j.AllocProcs, j.ReqProcs, j.RunTime = 32, 32, -1 }, false},
}

var fieldModes = []struct {
	name string
	peer sched.Peer
}{{"default", sched.PeerNone}, {"pyss", sched.PeerPyss}, {"predictsim", sched.PeerPredictsim}}

// describe runs the case's line under peer and says what the simulator
// made of it, naming each value by where it came from.
func describe(t *testing.T, c fieldCase, peer sched.Peer) string {
	t.Helper()
	line := fieldBase()
	c.edit(&line)
	cfg := sched.EASY(fieldP).WithPeer(peer)
	cfg.KillAtEstimate = c.kill
	res, err := sched.Run(context.Background(), cfg, []swf.Job{job(1, 0, 10, 1, fieldE), line})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Rejected.Excluded {
		if e.Index == 1 {
			return "rejected: " + e.Reason.String()
		}
	}
	var r *sched.Record // the line's, the second (its number may be made up)
	if len(res.Records) == 2 {
		r = &res.Records[1]
	}
	if r == nil || r.Start < 0 {
		t.Fatalf("%s, %v: the line neither rejected nor run", c.label, peer)
	}
	// Names by priority: a value that is the line's own is named so.
	type name struct {
		v int64
		s string
	}
	names := []name{{line.RunTime, "r"}, {line.ReqTime, "e"}, {line.AllocProcs, "f5"}, {line.ReqProcs, "f8"},
		{fieldE, "E"}, {fieldP, "P"}, {1, "1"}}
	sym := func(v int64) string {
		for _, n := range names {
			if n.v == v {
				return n.s
			}
		}
		return fmt.Sprint(v)
	}
	s := fmt.Sprintf("%s/%s/%s", sym(r.RunTime), sym(r.Estimate), sym(r.Size))
	if sub := r.Start - r.Wait; sub != line.Submit {
		s += fmt.Sprintf(" @%d", sub)
	}
	if ch := r.Changes(); len(ch) > 0 {
		s += " " + strings.Join(ch, "+")
	}
	return s
}

// missingFieldTable is Peer's table: for each case, what each
// mode made of the line, one row per case so that the table stays short.
func missingFieldTable(t *testing.T) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(w, "case")
	for _, m := range fieldModes {
		fmt.Fprintf(w, "\t%s", m.name)
	}
	fmt.Fprintln(w)
	base := map[sched.Peer]string{}
	for i, c := range fieldCases {
		fmt.Fprint(w, c.label)
		for _, m := range fieldModes {
			d := describe(t, c, m.peer)
			if i == 0 {
				base[m.peer] = d
			} else if d == base[m.peer] {
				d = "="
			}
			fmt.Fprintf(w, "\t%s", d)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	var out strings.Builder
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if l != "" {
			out.WriteString("//\t" + strings.TrimRight(l, " \n") + "\n")
		}
	}
	return out.String()
}

// Peer's doc's table of missing fields is what the code does: each
// row runs a two-job trace in each mode (see fieldBase). It fails when
// peer.go's table differs; BATCHQ_UPDATE_README=1 rewrites it.
func TestMissingFieldTable(t *testing.T) {
	want := missingFieldTable(t)
	doc, err := os.ReadFile("peer.go")
	if err != nil {
		t.Fatal(err)
	}
	// The table is the preformatted block after the paragraph that names
	// this test.
	lines := strings.SplitAfter(string(doc), "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "//") && strings.Contains(l, "TestMissingFieldTable") {
			at = i
		}
	}
	if at < 0 || at+2 >= len(lines) || lines[at+1] != "//\n" {
		t.Fatal("peer.go: no paragraph naming TestMissingFieldTable followed by the table")
	}
	from, to := at+2, at+2
	for to < len(lines) && (strings.HasPrefix(lines[to], "//\t") || lines[to] == "//\n" && to+1 < len(lines) && strings.HasPrefix(lines[to+1], "//\t")) {
		to++
	}
	got := strings.Join(lines[from:to], "")
	if got == want {
		return
	}
	if os.Getenv("BATCHQ_UPDATE_README") == "1" {
		out := strings.Join(lines[:from], "") + want + strings.Join(lines[to:], "")
		if err := os.WriteFile("peer.go", []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("peer.go: table of missing fields rewritten")
		return
	}
	t.Errorf("peer.go's table of missing fields (Peer's doc) differs from the code (BATCHQ_UPDATE_README=1 go test ./sched -run MissingFieldTable rewrites it); want:\n%s", want)
}
