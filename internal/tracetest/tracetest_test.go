package tracetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindPrefix(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"SDSC-SP2-1998.swf.gz", "SDSC-BLUE-2000.swf.gz", "KTH.swf", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := FindPrefix(dir, "sdsc-blue"); err != nil || filepath.Base(p) != "SDSC-BLUE-2000.swf.gz" {
		t.Errorf("sdsc-blue: %q, %v", p, err)
	}
	if _, err := FindPrefix(dir, "SDSC"); err == nil || !strings.Contains(err.Error(), "2 traces") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := FindPrefix(dir, "notes"); err == nil || !strings.Contains(err.Error(), "no trace") {
		t.Errorf("non-trace file matched: %v", err)
	}
}
