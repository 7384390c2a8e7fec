package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestRunsOnATraceSlice(t *testing.T) {
	p := tracetest.Path(t, tracetest.SDSCBlue)
	var out bytes.Buffer
	opt := options{paths: []string{p}, jobs: 5000, seed: 1, fractions: []float64{0.10}, targets: []float64{0.5}}
	if err := run(&out, opt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1152 processors, 5000 sane jobs", "| 10 | 0.50 |", "| 0.54 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
