package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// TestDamageStall: a strict read that stops at a malformed line of a gzip
// log reads on for the stream's own error (swf.OpenReader). On standard
// input that stalls after the line (a writer that keeps it open) the
// command waited for the writer, forever for one that never closes; a
// plain input's error ends it at once. It now waits damageIdle for a
// byte, and the line's error stands.
func TestDamageStall(t *testing.T) {
	defer func(d time.Duration) { damageIdle = d }(damageIdle)
	damageIdle = 50 * time.Millisecond
	stdin, release := clitest.StalledGzip()
	defer release()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := runContext(context.Background(), []string{"-"}, stdin, &out, &errb)
		done <- result{code, errb.String()}
	}()
	select {
	case r := <-done:
		if r.code != 1 || !strings.Contains(r.stderr, "standard input") || !strings.Contains(r.stderr, "line 3") || !strings.Contains(r.stderr, "wrong number of fields: 17") {
			t.Errorf("exit %d, %q; want the line's error", r.code, r.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("simulate waited 20 s for an input that stalled after its error")
	}
}
