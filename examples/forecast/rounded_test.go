package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log whose run times are written with a fraction (SWF allows it) is
// read with them rounded, and the count said in the text and in -json
// (cli.Skipped's note and key, swfstat's key): forecast said nothing of
// the rule that changed its jobs.
func TestRoundedTimesSaid(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "%d %d %d 100.5 4 -1 -1 4 200 -1 1 %d 1 -1 1 -1 -1 -1\n", i, 10*i, 5*(i%7), 1+i%3)
	}
	path := filepath.Join(t.TempDir(), "frac.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, "-predictors", "naive", path)
	if code != 0 || !strings.Contains(out, "200 time fields written with a fraction read rounded to the nearest second") {
		t.Errorf("exit %d, %s\n%s; want the 200 rounded run times said", code, errs, out)
	}
	code, out, errs = runCmd(t, "-predictors", "naive", "-json", path)
	var r struct {
		Rounded *int `json:"time_fields_rounded"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); code != 0 || err != nil || r.Rounded == nil || *r.Rounded != 200 {
		t.Errorf("exit %d, %v, %s\n%s; want time_fields_rounded 200", code, err, errs, out)
	}
}
