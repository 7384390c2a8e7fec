package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// fakeEASY stands in for the simulator to test the experiment's plumbing:
// "wait" is the mean estimate, "bsld" the mean estimate/run time.
func fakeEASY(_ context.Context, jobs []swf.Job, _ int64) (float64, float64, error) {
	var w, b float64
	for _, j := range jobs {
		w += float64(j.ReqTime) / 60
		b += float64(j.ReqTime+1) / float64(j.RunTime+1)
	}
	return w / float64(len(jobs)), b / float64(len(jobs)), nil
}

func TestValidatePlumbing(t *testing.T) {
	tracetest.Path(t, tracetest.KTH)
	o := options{logs: "kth", seeds: 3, fSeeds: 2, workers: 2}
	var a, b bytes.Buffer
	if err := validateAll(context.Background(), &a, nil, o, fakeEASY); err != nil {
		t.Fatal(err)
	}
	o.plot = t.TempDir() // the same run also draws Fig 5.13's bars
	if err := validateAll(context.Background(), &b, nil, o, fakeEASY); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".png", ".svg"} {
		if fi, err := os.Stat(filepath.Join(o.plot, "estimates-easy"+ext)); err != nil || fi.Size() == 0 {
			t.Errorf("-plot: estimates-easy%s not written (%v)", ext, err)
		}
	}
	if a.String() != b.String() {
		t.Error("same seeds, different tables")
	}
	for _, want := range []string{"| real | 1 |", "| model (vanl) | 3 |", "| f=0 | 1 |", "| f=300 | 2 |", "| Φ (10%) | 3 |", "| shfl | 3 |"} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, a.String())
		}
	}
}

// The thesis's claim (§5.12.3, Fig 5.13) on the real simulator: the modal
// model lands closer to the real-estimate EASY result than the f-model at
// every f > 0 on the four logs of Ch. 5 (KTH as KTH4H, its 4-hour part; the
// whole KTH log fails, see TestKTHIllegalPairings). A few seeds keep the
// test short, so it asks for 3 of 4 and KTH4H among them: at 100 seeds
// (README) all four win, but SDSC's margin over f = 100 and 300 (distance
// 0.05 vs 0.06) is within the noise of 3 seeds.
func TestModelCloserThanFModel(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates EASY 80 times on the four logs")
	}
	for _, s := range shortNames {
		tracetest.Path(t, s.file)
	}
	o := options{seeds: 3, fSeeds: 3, workers: 2, noExtra: true}
	wins := 0
	for _, name := range []string{"ctc", "kth4h", "sdsc", "blue"} {
		lv, err := validateLog(context.Background(), name, o, runEASY, nil)
		if err != nil {
			t.Fatal(err)
		}
		beats, every := lv.modelBeatsF()
		m, _ := lv.row("model (vanl)")
		t.Logf("%s: model distance %.3f, beats f>0: %v", name, lv.distance(m), beats)
		if every {
			wins++
		} else if name == "kth4h" {
			t.Errorf("kth4h: the model is not closer than every f > 0: %v", beats)
		}
	}
	if wins < 3 {
		t.Errorf("the model beats every f > 0 on %d of 4 logs; the thesis claims all four", wins)
	}
}
