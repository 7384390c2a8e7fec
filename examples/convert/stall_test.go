//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStalledInputError: a conversion that fails on what it has read ends
// at once, even when its input (a named pipe) stalls after that: the
// command waited for the copier, blocked in a read of the pipe until its
// writer went on or closed.
func TestStalledInputError(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "stalled.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipe:", err)
	}
	release := make(chan struct{})
	defer close(release)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		// exactly what the format's sniffing peeks (64 KiB): the
		// conversion fails having taken all there is, the copier is
		// reading again
		line := "this is not an sacct table, just a line of 64 bytes of text....\n"
		w.WriteString(strings.Repeat(line, 64<<10/len(line)))
		<-release // the writer stalls, the pipe open
	}()
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = runCmd(t, "", "-from", "sacct", fifo, "-o", filepath.Join(t.TempDir(), "out.swf"))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("convert did not end on a bad input whose writer stalls")
	}
	if code == 0 || !strings.Contains(stderr, "convert:") {
		t.Errorf("exit %d, stderr %q: want an error", code, stderr)
	}
}
