package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// A trace that is neither a file nor a short name says what a name may
// be: "-logs ctc,kt4h" said only "stat kt4h: no such file or directory".
func TestUnknownTraceNamesShortNames(t *testing.T) {
	var stdout, errs bytes.Buffer
	err := command(t.Context(), []string{"-trace", filepath.Join(t.TempDir(), "kt4h"), "-out", "-"}, &stdout, &errs)
	if err == nil || !strings.Contains(err.Error(), "no such file") || !strings.Contains(err.Error(), "short name: blue, ctc, ") {
		t.Errorf("%v; want the stat error and the short names", err)
	}
	for name := range shortNames { // (the list is made from them: it was written out, and would go stale)
		if err == nil || !strings.Contains(err.Error(), " "+name+",") && !strings.HasSuffix(err.Error(), " "+name+")") {
			t.Errorf("%v; want %s among the short names", err, name)
		}
	}
}
