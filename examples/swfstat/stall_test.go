package main

import (
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
	clitest.CheckDamageStall(t, "swfstat", run)
}
