package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/batchq/batchq/internal/inflate"
)

// convertFirst returns the error for a trace that is a GPU cluster job
// table convert -from gpu reads (Helios, Acme, Philly), which the SWF
// reader would only call a bad job number, nil if it is none: their
// processors are GPUs and their demands need the converter. It looks at
// the first 64 KiB (decompressed) for the marks convert's own sniffing
// uses: a CSV header naming job_id, gpu_num, submit_time and start_time,
// or a JSON list with Philly's keys.
func convertFirst(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r, closers, err := inflate.Prefix(f, path)
	if err != nil {
		return nil
	}
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i].Close()
		}
	}()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(r, head)
	head = bytes.TrimPrefix(head[:n], []byte("\xef\xbb\xbf"))
	first, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	what := ""
	switch {
	case len(first) > 0 && (first[0] == '[' || first[0] == '{') &&
		(bytes.Contains(head, []byte(`"submitted_time"`)) || bytes.Contains(head, []byte(`"attempts"`))):
		what = "a Microsoft Philly job log"
	case hasColumns(first, "job_id", "gpu_num", "submit_time", "start_time"):
		what = "a SenseTime Helios or Shanghai AI Lab Acme job table"
	default:
		return nil
	}
	return fmt.Errorf("%s: %s, not an SWF log: convert it first: convert -from gpu FILE -o OUT.swf", path, what)
}

// hasColumns reports whether a CSV header line names every column.
func hasColumns(line []byte, names ...string) bool {
	cols := map[string]bool{}
	for _, c := range bytes.Split(bytes.TrimSpace(line), []byte(",")) {
		cols[string(bytes.Trim(bytes.TrimSpace(c), `"`))] = true
	}
	for _, n := range names {
		if !cols[n] {
			return false
		}
	}
	return true
}
