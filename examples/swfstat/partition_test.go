package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
)

func statOf(t *testing.T, args ...string) (string, map[string]any) {
	t.Helper()
	var out, errs strings.Builder
	if code := run(context.Background(), args, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs.String())
	}
	text := out.String()
	out.Reset()
	if code := run(context.Background(), append([]string{"-json"}, args...), strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("-json %v: exit %d: %s", args, code, errs.String())
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out.String()), &m); err != nil {
		t.Fatal(err)
	}
	return text, m
}

// The jobs of a log that name several partitions are counted per
// partition, with the header's names, and the note says the offered load
// takes them as one pool; -json has them under "partitions". It said
// nothing of them.
func TestPartitionsCounted(t *testing.T) {
	p := clitest.DAS2File(t, 4, true)
	text, _ := statOf(t, p)
	for _, re := range []string{
		`(?m)^jobs per partition \(field 16\):$`,
		`(?m)^ +partition 1 fs0 +12 +42\.9% +largest job 48 *$`,
		`(?m)^ +partition 5 fs4 +4 +14\.3% +largest job 40 *$`,
		`(?m)^note: the jobs name 5 partitions \(SWF field 16; .*\); the offered load above takes them as one pool of 400 processors, .*simulate -partition N simulates one alone$`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("text lacks %s:\n%s", re, text)
		}
	}
	out := clitest.Exec(run, "", "-json", p)
	if ps := clitest.PartitionsOf(t, out.Stdout); ps == nil || len(ps.ByPartition) != 5 || ps.Pool != 400 ||
		ps.ByPartition[0] != (cli.PartitionJobs{Number: 1, Name: "fs0", Jobs: 12, Largest: 48}) {
		t.Errorf("-json partitions %+v", ps)
	}
}

// The shipped logs that name partitions say them; those that do not
// (KTH-SP2: field 16 is -1 throughout) print and write what they did.
func TestPartitionsShipped(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
	}{{tracetest.SDSCPar, 2}, {tracetest.LLNL, 4}, {tracetest.CEACurie, 18}, {tracetest.KTH, 0}} {
		text, m := statOf(t, tracetest.Path(t, c.name))
		ps, _ := m["partitions"].(map[string]any)
		by, _ := ps["by_partition"].([]any)
		if len(by) != c.n || strings.Contains(text, "partition") != (c.n > 0) {
			t.Errorf("%s: %d partitions in -json, want %d; text:\n%s", c.name, len(by), c.n, text)
		}
	}
}
