package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestPlotActivityKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("reads KTH and detects its flurries (~1 s)")
	}
	dir := tracetest.DirOf(t, tracetest.KTH)
	out := t.TempDir()
	var b strings.Builder
	if err := plotActivity(&b, dir, out, "kth", setup{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"flurries-kth-sp2-activity.png", "flurries-kth-sp2-activity.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() < 2000 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(b.String(), "Weekly activity, kth:") {
		t.Errorf("output: %q", b.String())
	}
}

func TestPlotActivityBadLog(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"A-1-x.swf", "A-2-y.swf"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("1 0 0 1 1 -1 -1 1 1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for spec, want := range map[string]string{
		"B":   "no trace in",
		"A":   "2 traces in",
		"A-1": "no user IDs",
	} {
		err := plotActivity(&strings.Builder{}, dir, t.TempDir(), spec, setup{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"`+spec+`"`) {
			t.Errorf("log %q: err = %v, want %q and the log named", spec, err, want)
		}
	}
}
