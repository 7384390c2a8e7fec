package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// Zero padding after a gzip log's last member is ignored and said in the
// report (so in -json's text too), in simulate's and swfstat's words: apq
// read through swf.ReadFile, which drops the count, and said nothing.
func TestGzipPaddingNoted(t *testing.T) {
	dir := t.TempDir()
	clitest.Pad(t, clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 300, 16), 1000)
	for _, js := range []bool{false, true} {
		args := []string{"-traces", dir, "-tables", "VI", "-quick"}
		if js {
			args = append(args, "-json")
		}
		var out, errs bytes.Buffer
		if code := run(t.Context(), args, strings.NewReader(""), &out, &errs); code != 0 ||
			!strings.Contains(out.String(), "trace SDSC-SP2-1998-4.2-cln.swf.gz: 1000 zero bytes after the last gzip member ignored") {
			t.Errorf("-json %v: exit %d, %s\n%s; want the padding said", js, code, errs.String(), out.String())
		}
	}
}

// A log whose job numbers repeat (here each odd number twice) (logs concatenated, a scheduler's
// numbers wrapped) has the later copies left out and counted in the
// report: IBL keys its jobs by number, and table V stopped with "ibl: job
// 1 submitted twice".
func TestDuplicateIDsLeftOut(t *testing.T) {
	dir := t.TempDir()
	p := clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf", 600, 16)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for l := range strings.Lines(string(b)) {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(f[0], ";") {
			if n, _ := strconv.Atoi(f[0]); n%2 == 0 { // every even job under the number before
				l = strconv.Itoa(n-1) + strings.TrimPrefix(l, f[0])
			}
		}
		lines = append(lines, l)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".gz", []byte(strings.Join(lines, "")), 0o644); err != nil { // (read as plain text)
		t.Fatal(err)
	}
	for _, js := range []bool{false, true} {
		args := []string{"-traces", dir, "-tables", "V", "-quick"}
		if js {
			args = append(args, "-json")
		}
		var out, errs bytes.Buffer
		if code := run(t.Context(), args, strings.NewReader(""), &out, &errs); code != 0 ||
			!strings.Contains(out.String(), "trace SDSC-SP2-1998-4.2-cln.swf.gz: 300 jobs left out: duplicate ID") {
			t.Errorf("-json %v: exit %d, %s\n%s; want the duplicate left out and said", js, code, errs.String(), out.String())
		}
	}
}
