package slurmtest

import (
	"fmt"
	"strings"
	"testing"
)

// outcomeTB stands in for a test in prepare: it records a skip or a
// failure and stops prepare there, as the testing package would.
type outcomeTB struct {
	testing.TB
	name            string
	skipped, failed string
}

type stopped struct{}

func (o *outcomeTB) Helper()      {}
func (o *outcomeTB) Name() string { return o.name }
func (o *outcomeTB) Skip(a ...any) {
	o.skipped = fmt.Sprint(a...)
	panic(stopped{})
}
func (o *outcomeTB) Skipf(f string, a ...any) { o.Skip(fmt.Sprintf(f, a...)) }
func (o *outcomeTB) Fatal(a ...any) {
	o.failed = fmt.Sprint(a...)
	panic(stopped{})
}
func (o *outcomeTB) Fatalf(f string, a ...any) { o.Fatal(fmt.Sprintf(f, a...)) }

func runPrepare(o *outcomeTB) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
		}
	}()
	prepare(o)
}

// With BATCHQ_SLURM_ELSEWHERE set (.ci/run runs the live tests in a go
// test of their own), a live test the pattern selects is skipped, also
// with CI=true and with Slurm installed; one it does not select fails
// (it would run in neither go test), and so does a pattern that is not
// a regular expression.
func TestElsewhere(t *testing.T) {
	t.Setenv("CI", "true")
	for _, c := range []struct {
		pattern, name string
		skip          bool
		msg           string
	}{
		{`^Test(LiveSlurm|SlurmArray)$`, "TestLiveSlurm", true, "run in a go test of their own"},
		{`^Test(LiveSlurm|SlurmArray)$`, "TestSlurmArray/sub", true, "run in a go test of their own"},
		{`^Test(LiveSlurm|SlurmArray)$`, "TestLiveSlurmNew", false, "would not select it"},
		{`^Test(Live`, "TestLiveSlurm", false, "missing closing )"},
	} {
		t.Setenv(ElsewhereEnv, c.pattern)
		o := &outcomeTB{name: c.name}
		runPrepare(o)
		got, other := o.failed, o.skipped
		if c.skip {
			got, other = o.skipped, o.failed
		}
		if !strings.Contains(got, c.msg) || other != "" {
			t.Errorf("%s=%s, %s: skipped %q, failed %q; want %s with %q", ElsewhereEnv, c.pattern, c.name,
				o.skipped, o.failed, map[bool]string{true: "a skip", false: "a failure"}[c.skip], c.msg)
		}
	}
}
