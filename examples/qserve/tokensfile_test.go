package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A tokens file that is no regular file is refused for what it is, at
// once: a directory was refused for its mode ("lets other users read
// it; chmod 600"), and a FIFO of mode 0600 was read until a writer
// closed it, the service not started meanwhile. A file beyond the bound
// is refused by its size, unread.
func TestTokensFileRegular(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "d")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.OpenFile(big, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxTokensFile + 1); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct{ path, want string }{
		{sub, "not a regular file"}, {fifo, "not a regular file"}, {big, "bytes, at most"},
	} {
		done := make(chan error, 1)
		go func() { _, err := readTokens(c.path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", filepath.Base(c.path), err, c.want)
			}
		case <-time.After(5 * time.Second):
			// Unblock the reader: a writer opens and closes the FIFO.
			if w, err := os.OpenFile(c.path, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Errorf("%s: still reading after 5 s", filepath.Base(c.path))
			<-done
		}
	}
}
