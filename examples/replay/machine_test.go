package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The synthetic workload's bounds are a usage error too: -machine 1 was
// exit 1 (synth's "need 2 to 16777216") after the flags were accepted.
func TestMachineFlagSynthBounds(t *testing.T) {
	for _, m := range []string{"1", "20000000"} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"-machine", m}, strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.HasPrefix(errs.String(), "replay: -machine "+m+": machine size "+m) {
			t.Errorf("-machine %s: exit %d, %q; want 2 naming the size", m, code, errs.String())
		}
	}
}

// A -load the model cannot reach is a usage error too, as in examples/synth:
// -load 1e9 passed the flag checks and failed with exit 1 when the run made
// the workload (synth finds the reachable range only when it solves for it).
func TestLoadFlagUnreachable(t *testing.T) {
	for _, l := range []string{"1e9", "0.001"} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"-load", l}, strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.HasPrefix(errs.String(), "replay: -load ") || !strings.Contains(errs.String(), ": target load") {
			t.Errorf("-load %s: exit %d, %q; want 2 naming the load", l, code, errs.String())
		}
	}
}
