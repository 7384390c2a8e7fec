package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
)

// TestSmall runs the program on two synthetic days with figures and checks
// that every block of the report is there and every figure was written.
func TestSmall(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"-days", "2", "-out", dir}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"synthetic: Lublin–Feitelson model, 128 nodes", "EASY++", "PERFECT++",
		"binomial method, full history", "bounds held", "VARQ", "request: 4 nodes", "carried out under EASY", "Done in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if errs.Len() > 0 {
		t.Errorf("stderr not empty without a terminal: %q", errs.String())
	}
	for _, f := range []string{"waits", "schedulers", "varq"} {
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(dir, f+ext)); err != nil || st.Size() < 1000 {
				t.Errorf("%s%s: %v", f, ext, err)
			}
		}
	}
}

// TestSameAsReplayPackage checks the example's causal loop against
// qbets/replay on the same simulated waits: the binomial method with and
// without trimming must score identically.
func TestSameAsReplayPackage(t *testing.T) {
	w, err := synthetic(3, 128, 0.7, 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := simulate(context.Background(), "EASY", w.machine, w.jobs, func(float64) {})
	if err != nil {
		t.Fatal(err)
	}
	q, err := replayQBETS(res.Records, 1<<62, nil, func(float64) {})
	if err != nil {
		t.Fatal(err)
	}
	var js []replay.Job
	for _, r := range res.Records {
		if r.Start >= 0 {
			js = append(js, replay.Job{Submit: r.Job.Submit, Wait: r.Wait, Nodes: int(r.Job.Size()), Walltime: r.Job.ReqTime})
		}
	}
	for _, k := range []int{mTrim, mFull} {
		want, err := replay.Replay(js, replay.Config{Predictor: methods[k].cfg})
		if err != nil {
			t.Fatal(err)
		}
		got := q.scores[k]
		if got.predicted != want.Predicted || got.correct != want.Correct || got.noPrediction != want.NoPrediction {
			t.Errorf("%s: ours %d/%d held (%d without), qbets/replay %d/%d (%d without)",
				methods[k].name, got.correct, got.predicted, got.noPrediction, want.Correct, want.Predicted, want.NoPrediction)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, args := range [][]string{{"-days", "0"}, {"-days", "0.01"}, {"-load", "-1"}, {"-machine", "-4"}, {"stray"}, {"-trace", "/nonexistent.swf"}} {
		var out, errs bytes.Buffer
		if err := run(context.Background(), args, &out, &errs); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// TestTrace runs the program on the smallest real log (KTH, 28k jobs).
func TestTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("a real trace; not in -short")
	}
	path := tracetest.Path(t, tracetest.KTH)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-trace", path}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "KTH-SP2-1996-2.1-cln.swf.gz, 100 processors") {
		t.Errorf("unexpected report:\n%s", out.String())
	}
}
