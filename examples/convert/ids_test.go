package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -ids writes one line per job whatever a JSON log's job id holds: an id
// with a newline or a NUL (Philly's jobid is any string) is written
// quoted; it was written raw, and "app 1\n2 evil" made a line "2 evil"
// that mapped job 2 to another id.
func TestIDsOneLinePerJob(t *testing.T) {
	log, err := os.ReadFile(testdata + "gpu-philly.json")
	if err != nil {
		t.Fatal(err)
	}
	evil := bytes.Replace(log, []byte(`"application_1506638472019_20001"`), []byte(`"app 1\n2 evil\u0000x"`), 1)
	dir := t.TempDir()
	in, ids := filepath.Join(dir, "philly.json"), filepath.Join(dir, "ids.txt")
	if err := os.WriteFile(in, evil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "", "-from", "gpu", in, "-o", filepath.Join(dir, "x.swf"), "-ids", ids); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(ids)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 5 || lines[0] != `1 "app 1\n2 evil\x00x"` || lines[1] != "2 application_1506638472019_20002" {
		t.Errorf("ids file %q; want 5 lines, the first quoted", lines)
	}
}
