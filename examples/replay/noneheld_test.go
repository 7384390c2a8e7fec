package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// On one processor, jobs of 100 s submitted 50 s apart wait longer and
// longer (job k waits 50k s): every wait a bound can be made of, those of
// the jobs started by then, is below the wait of the job asked about, so
// every method answers and no bound holds. The RMS over-prediction is
// over the bounds that held: "–" and null, not the 0 s an RMS over
// nothing is stored as.
func TestRMSNoneHeld(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 1\n")
	for k := 1; k <= 400; k++ {
		fmt.Fprintf(&b, "%d %d 0 100 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n", k, 50*k)
	}
	path := filepath.Join(t.TempDir(), "grow.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^  \S.{43} +(\S+) of (\d+) bounds held, median bound .*, RMS over-prediction (\S+),`)
	lines := line.FindAllStringSubmatch(out.String(), -1)
	if len(lines) != len(methods) {
		t.Fatalf("%d QBETS lines, want %d:\n%s", len(lines), len(methods), out.String())
	}
	for _, l := range lines {
		if l[1] != "0.0%" || l[2] == "0" || l[3] != "–" {
			t.Errorf("want 0.0%% of some bounds held and RMS –: %s", l[0])
		}
	}
	out.Reset()
	if err := command(context.Background(), []string{"-trace", path, "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		QBETS []struct {
			Method      string
			Correctness *float64
			Answered    int
			RMS         *float64 `json:"rms_over_prediction_s"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.QBETS) != len(methods) {
		t.Fatalf("%d qbets methods, want %d", len(r.QBETS), len(methods))
	}
	for _, m := range r.QBETS {
		if m.Answered == 0 || m.Correctness == nil || *m.Correctness != 0 || m.RMS != nil {
			t.Errorf("%s: answered %d, correctness %v, rms %v; want some answered, correctness 0, rms null", m.Method, m.Answered, m.Correctness, m.RMS)
		}
	}
}
