package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunsOnThreeMachines(t *testing.T) {
	var paths []string
	for _, name := range []string{tracetest.SDSCBlue, tracetest.CTC, tracetest.KTH} {
		paths = append(paths, tracetest.Path(t, name))
	}
	var out bytes.Buffer
	opt := options{paths: paths, days: 10, count: 2, step: 30, trials: table62[:1]}
	if err := run(&out, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| 4, 1h, 4h | 0.90 |") {
		t.Errorf("output lacks the first trial:\n%s", out.String())
	}
}
