package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
)

// iblVariant is Karnak's not-queued prediction at arrival (as
// replay.NewIBL's) with the knobs the diagnosis turns: the estimate
// (ibl.Config.Estimate), the neighbour count, the base's size and the
// feature weights.
type iblVariant struct {
	sys  *ibl.System
	base *ibl.Base
	in   map[int64][]ibl.Value
}

func newIBLVariant(cfg ibl.Config) (*iblVariant, error) {
	cfg.Features = ibl.NotQueuedFeatures()
	b, err := ibl.New(cfg)
	if err != nil {
		return nil, err
	}
	return &iblVariant{sys: &ibl.System{}, base: b, in: map[int64][]ibl.Value{}}, nil
}

func (v *iblVariant) Observe(ev replay.Event, j *swf.Job) error {
	ij := ibl.Job{ID: j.ID, Queue: fmt.Sprint("q", j.Queue), User: fmt.Sprint("u", j.User),
		Project: fmt.Sprint("g", j.Group), Name: fmt.Sprint("x", j.Executable), Cores: max(j.Size(), 0), ReqTime: j.ReqTime, Submit: j.Submit}
	switch ev {
	case replay.Arrive:
		v.in[j.ID] = v.sys.NotQueued(ij, j.Submit)
		return v.sys.Submit(ij)
	case replay.Start:
		if err := v.base.Insert(ibl.Experience{In: v.in[j.ID], Wait: float64(j.Wait)}); err != nil {
			return err
		}
		delete(v.in, j.ID)
		return v.sys.Start(j.ID, j.Submit+j.Wait)
	case replay.End:
		return v.sys.End(j.ID)
	}
	return nil
}

func (v *iblVariant) Predict(j *swf.Job, _ int64) (replay.Prediction, error) {
	pr, err := v.base.Predict(v.in[j.ID], 90)
	if err != nil {
		return replay.Prediction{Reason: err.Error()}, nil
	}
	return replay.Prediction{OK: true, Point: pr.Wait, Lower: math.NaN(), Upper: math.NaN()}, nil
}

// apqByCase is replay's APQ that remembers, answer by answer, the
// neighbourhood case and the method of §II-C1 (apq.Prediction) that
// answered.
type apqByCase struct {
	*replay.APQ
	tags []string
}

func (a *apqByCase) Predict(j *swf.Job, now int64) (replay.Prediction, error) {
	p, err := a.APQ.Predict(j, now)
	if p.OK {
		l := a.Last()
		a.tags = append(a.tags, l.Case+" / "+l.Method)
	}
	return p, err
}

// diagnosis is one predictor's errors: within ×2, mean |log10|, the median
// of log10(predicted / real) (its bias: > 0 over-predicts) and the shares
// of jobs it over- and under-predicts by more than ×2.
type diagnosis struct {
	within2, meanLog, medianLog, over, under float64
}

// row is d's line of an error table.
func (d diagnosis) row(name string) string {
	return fmt.Sprintf("| %s | %.1f | %.3f | %+.2f | %.1f | %.1f |\n", name, 100*d.within2, d.meanLog, d.medianLog, 100*d.over, 100*d.under)
}

func diagnose(answers []replay.Outcome) diagnosis {
	var d diagnosis
	var ls []float64
	for _, a := range answers {
		l := math.Log10(math.Max(a.Point, floor) / math.Max(float64(a.Wait), floor))
		ls = append(ls, l)
		d.meanLog += math.Abs(l)
		switch {
		case l > math.Log10(2)+1e-12:
			d.over++
		case l < -math.Log10(2)-1e-12:
			d.under++
		default:
			d.within2++
		}
	}
	n := float64(len(ls))
	slices.Sort(ls)
	d.medianLog = ls[len(ls)/2]
	d.within2, d.meanLog, d.over, d.under = d.within2/n, d.meanLog/n, d.over/n, d.under/n
	return d
}

// diagnosisDigest pins the README's diagnosis region (KTH-SP2 and
// SDSC-Par; about 8 minutes of CPU, 24 minutes on a loaded 2-core
// machine, so behind BATCHQ_LONG like the scoreboard). Regenerate with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run TestReadmeDiagnosis -timeout 1h
const diagnosisDigest = "01cb500ce767a038561fcb71432b0933744786da62b74e901fe4100fab09f6b6"

// TestReadmeDiagnosis is the measurement behind the README's account of
// why IBL and APQ lose to the naive baseline: it replays KTH-SP2 with the
// naive baseline, IBL and APQ as configured by default and with one knob
// turned at a time, tabulates the errors of each and APQ's answers by the
// model that gave them, and scores the fixed IBL on SDSC-Par too.
func TestReadmeDiagnosis(t *testing.T) {
	readme.CheckLong(t, "README.md", map[string]string{"diagnosis": diagnosisDigest}, func() map[string][]byte {
		return map[string][]byte{"diagnosis": diagnosisTables(t)}
	})
}

// variant is one row of a diagnosis table.
type variant struct {
	name string
	mk   func() (replay.Predictor, error)
}

func iblRow(name string, cfg ibl.Config) variant {
	return variant{name, func() (replay.Predictor, error) { return newIBLVariant(cfg) }}
}

func apqRow(name string, cfg apq.Config) variant {
	return variant{name, func() (replay.Predictor, error) {
		a, err := replay.NewAPQ(cfg)
		return &apqByCase{APQ: a}, err
	}}
}

var naiveRow = variant{"naive", func() (replay.Predictor, error) { return &forecast.Naive{}, nil }}

// kthVariants are the rows of the KTH-SP2 table, the naive baseline first.
func kthVariants() []variant {
	timeOff := []float64{1, 1, 1, 1, 1, 1, 0}
	return []variant{
		naiveRow,
		iblRow("ibl default: kernel mean of the waits, k = 56, base 10,000", ibl.Config{}),
		iblRow("ibl, k = 8", ibl.Config{N: 8}),
		iblRow("ibl, Estimate geomean (kernel mean of log wait)", ibl.Config{Estimate: "geomean"}),
		iblRow("ibl, Estimate median", ibl.Config{Estimate: "median"}),
		iblRow("ibl, geomean, k = 8", ibl.Config{Estimate: "geomean", N: 8}),
		iblRow("ibl, median, k = 8", ibl.Config{Estimate: "median", N: 8}),
		iblRow("ibl, geomean, k = 200", ibl.Config{Estimate: "geomean", N: 200}),
		iblRow("ibl, geomean, base 1,000", ibl.Config{Estimate: "geomean", MaxSize: 1000}),
		iblRow("ibl, geomean, no Time feature", ibl.Config{Estimate: "geomean", Weights: timeOff}),
		apqRow("apq (paper defaults)", apq.Config{}),
		apqRow("apq, LogWait (learns log wait)", apq.Config{LogWait: true}),
		apqRow("apq, OutlierFrac 1 (sdm unless all of N_k is noise)", apq.Config{OutlierFrac: 1}),
		apqRow("apq, OutlierFrac 1e-9 (ridge unless none of N_k is noise)", apq.Config{OutlierFrac: 1e-9}),
		apqRow("apq, SDMMinJobs 30", apq.Config{SDMMinJobs: 30}),
		apqRow("apq, LogWait, OutlierFrac 1", apq.Config{LogWait: true, OutlierFrac: 1}),
		apqRow("apq, LogWait, OutlierFrac 1e-9", apq.Config{LogWait: true, OutlierFrac: 1e-9}),
	}
}

// parVariants score the fixed IBL on a second log.
func parVariants() []variant {
	return []variant{
		naiveRow,
		iblRow("ibl default: kernel mean of the waits, k = 56, base 10,000", ibl.Config{}),
		iblRow("ibl, geomean, k = 8", ibl.Config{Estimate: "geomean", N: 8}),
		iblRow("ibl, median, k = 8", ibl.Config{Estimate: "median", N: 8}),
		apqRow("apq (paper defaults)", apq.Config{}),
		apqRow("apq, LogWait", apq.Config{LogWait: true}),
	}
}

// replayVariants replays the log with the variants, two goroutines at a
// time (the replays are independent), and returns their scores in order.
func replayVariants(t *testing.T, name string, vs []variant) (string, []replay.Score, []replay.Predictor) {
	path := tracetest.Path(t, name)
	_, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := replay.Queues(jobs)
	all, err := replay.All(q)
	if err != nil {
		t.Fatal(err)
	}
	preds := make([]replay.Predictor, len(vs))
	for i, v := range vs {
		if preds[i], err = v.mk(); err != nil {
			t.Fatal(err)
		}
	}
	scores := make([]replay.Score, len(vs))
	errs := make([]error, len(vs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range vs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			sc, err := replay.Run(context.Background(), slices.Clone(all), replay.Options{}, preds[i])
			if err == nil {
				scores[i] = sc[0]
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return tracetest.ShortName(path), scores, preds
}

func diagnosisTables(t *testing.T) []byte {
	var b bytes.Buffer
	errorTable := func(log string, vs []variant, sc []replay.Score) {
		fmt.Fprintf(&b, "%s, at each submission after the first 10%%:\n\n", log)
		b.WriteString("| predictor | within ×2 % | mean \\|log10\\| | median log10(predicted / real) | over ×2 % | under ×2 % |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|\n")
		for i, v := range vs {
			d := diagnose(sc[i].Answers)
			b.WriteString(d.row(v.name))
		}
	}
	vs := kthVariants()
	log, sc, preds := replayVariants(t, tracetest.KTH, vs)
	errorTable(log, vs, sc)
	// APQ's answers by the case and model that gave them.
	fmt.Fprintf(&b, "\n%s, APQ's answers by neighbourhood case / model (§II-C1):\n\n", log)
	b.WriteString("| apq configuration | case / model | answers % | within ×2 % | median log10(predicted / real) |\n")
	b.WriteString("|---|---|---:|---:|---:|\n")
	for i, v := range vs {
		a, ok := preds[i].(*apqByCase)
		if !ok {
			continue
		}
		// a tag per answered prediction: only scored jobs are predicted
		// (replay.Options' zero value), so tags and answers align
		if len(a.tags) != len(sc[i].Answers) {
			t.Fatalf("%s: %d tags for %d answers", v.name, len(a.tags), len(sc[i].Answers))
		}
		by := map[string][]replay.Outcome{}
		for k, o := range sc[i].Answers {
			by[a.tags[k]] = append(by[a.tags[k]], o)
		}
		for _, tag := range slices.Sorted(maps.Keys(by)) {
			d := diagnose(by[tag])
			fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %+.2f |\n", v.name, tag, 100*float64(len(by[tag]))/float64(len(sc[i].Answers)), 100*d.within2, d.medianLog)
		}
	}
	b.WriteString("\n")
	vs = parVariants()
	log, sc, _ = replayVariants(t, tracetest.SDSCPar, vs)
	errorTable(log, vs, sc)
	return b.Bytes()
}

// TestReadmeSliceDiagnosis is the CI slice of TestReadmeDiagnosis
// (BATCHQ_LONG=1, about 2 s of CPU): the naive baseline's row of both of
// its error tables, recomputed through the same replay and diagnose, must
// be the README's (the other rows replay IBL and APQ, minutes each; the
// region is pinned by its digest).
func TestReadmeSliceDiagnosis(t *testing.T) {
	if !readme.Long() {
		t.Skipf("replays KTH-SP2 and SDSC-Par: set %s=1", readme.LongEnv)
	}
	region := readme.RegionOf(t, "README.md", "diagnosis")
	for _, name := range []string{tracetest.KTH, tracetest.SDSCPar} {
		_, sc, _ := replayVariants(t, name, []variant{naiveRow})
		d := diagnose(sc[0].Answers)
		row := d.row("naive")
		if !strings.Contains(region, row) {
			t.Errorf("%s: README region diagnosis lacks the recomputed row\n%s", name, row)
		}
	}
}

// TestReadmeDiagnosisProse: the figures of the prose under the diagnosis
// region are the region's, which its digest pins (cheap: no replay); a
// regeneration that moves a figure fails here until the prose follows.
func TestReadmeDiagnosisProse(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	prose := regexp.MustCompile(`\s+`).ReplaceAllString(string(doc), " ")
	region := readme.RegionOf(t, "README.md", "diagnosis")
	kthPart, rest, ok1 := strings.Cut(region, "APQ's answers by")
	casePart, parPart, ok2 := strings.Cut(rest, "SDSC-Par, at each")
	if !ok1 || !ok2 {
		t.Fatal("diagnosis region: the case table or the SDSC-Par table not found")
	}
	k, p := parseRows([]byte(kthPart)), parseRows([]byte(parPart))
	cases := map[string][]string{} // "configuration / case / model"
	for l := range strings.Lines(casePart) {
		if c := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|"); len(c) == 5 {
			for i := range c {
				c[i] = strings.TrimSpace(c[i])
			}
			cases[c[0]+" / "+c[1]] = c
		}
	}
	row := func(rows map[string][]string, name string) []string {
		t.Helper()
		r, ok := rows[name]
		if !ok {
			t.Fatalf("diagnosis region: no row %q", name)
		}
		return r
	}
	naive, def := row(k, "naive"), row(k, "ibl default: kernel mean of the waits, k = 56, base 10,000")
	apqDef, logW := row(k, "apq (paper defaults)"), row(k, "apq, LogWait (learns log wait)")
	ridge, both := row(k, "apq, OutlierFrac 1e-9 (ridge unless none of N_k is noise)"), row(k, "apq, LogWait, OutlierFrac 1e-9")
	med8, pNaive := row(k, "ibl, median, k = 8"), row(p, "naive")
	pMed8, pDef := row(p, "ibl, median, k = 8"), row(p, "ibl default: kernel mean of the waits, k = 56, base 10,000")
	pAPQ, pLog := row(p, "apq (paper defaults)"), row(p, "apq, LogWait")
	sdmAll := row(cases, "apq (paper defaults) / B / SDM")
	cRidge := row(cases, "apq, OutlierFrac 1e-9 (ridge unless none of N_k is noise) / C / ridge")
	cKNN := row(cases, "apq, OutlierFrac 1e-9 (ridge unless none of N_k is noise) / C / k-NN")
	bestW, bestL := 0.0, math.Inf(1)
	for name, r := range k {
		if strings.HasPrefix(name, "apq") {
			bestW, bestL = max(bestW, cell(r[1])), min(bestL, cell(r[2]))
		}
	}
	if of1 := row(k, "apq, OutlierFrac 1 (sdm unless all of N_k is noise)"); !slices.Equal(of1[1:], apqDef[1:]) {
		t.Errorf("the prose says OutlierFrac 1 changes nothing: %v against %v", of1, apqDef)
	}
	for _, want := range []string{
		fmt.Sprintf("APQ's answers are a median %.0f times the real wait, IBL's %.1f times (%s and %s in log10)", math.Pow(10, cell(apqDef[3])), math.Pow(10, cell(def[3])), apqDef[3], def[3]),
		fmt.Sprintf("(%s%% and %s%% of the jobs)", apqDef[4], def[4]),
		fmt.Sprintf("raises IBL from %s%% to %s%% within ×2 at k = 56, and `\"geomean\"` (the mean of log wait, as measured before) to %s%%", def[1], row(k, "ibl, Estimate median")[1], row(k, "ibl, Estimate geomean (kernel mean of log wait)")[1]),
		fmt.Sprintf("IBL reaches **%s%% within ×2 and a mean \\|log10\\| error of %s, beating the naive baseline's %s%% and %s**", med8[1], med8[2], naive[1], naive[2]),
		fmt.Sprintf("**%s%% and %s against the baseline's %s%% and %s** (the default IBL: %s%% and %s)", pMed8[1], pMed8[2], pNaive[1], pNaive[2], pDef[1], pDef[2]),
		fmt.Sprintf("8 neighbours give %s%%, 200 give %s%%; a base of the last 1,000 jobs instead of 10,000 gives %s%% and dropping the Time feature %s%%",
			row(k, "ibl, geomean, k = 8")[1], row(k, "ibl, geomean, k = 200")[1], row(k, "ibl, geomean, base 1,000")[1], row(k, "ibl, geomean, no Time feature")[1]),
		fmt.Sprintf("(second table, %s%%)", sdmAll[2]),
		fmt.Sprintf("(`OutlierFrac 1` changes nothing: %s%%)", apqDef[1]),
		fmt.Sprintf("(`SDMMinJobs 30`) does not help (%s%%)", row(k, "apq, SDMMinJobs 30")[1]),
		fmt.Sprintf("the default answers on KTH-SP2 are the same (%s%%)", apqDef[1]),
		fmt.Sprintf("lowers the bias from %s to %s and gives %s%% within ×2 on KTH-SP2", apqDef[3], logW[3], logW[1]),
		fmt.Sprintf("from %s%% to **%s%% within ×2 (%s), above the naive baseline's %s%% (%s)**", pAPQ[1], pLog[1], pLog[2], pNaive[1], pNaive[2]),
		fmt.Sprintf("gives %s%% (ridge answers %s%% of the jobs at %s; k-NN %s%% at %s), and with `LogWait` too %s%% at the lowest \\|log10\\| error of the APQ rows, %s",
			ridge[1], cRidge[2], cRidge[4], cKNN[2], cKNN[4], both[1], both[2]),
		fmt.Sprintf("(best %.1f%% against %s%%)", bestW, naive[1]),
		fmt.Sprintf("not the forecaster (%s%% on KTH-SP2, %s%% on SDSC-Par, in the scoreboard below)",
			row(parseRows([]byte(readme.RegionOf(t, "README.md", "log-KTH-SP2"))), "forecast")[2],
			row(parseRows([]byte(readme.RegionOf(t, "README.md", "log-SDSC-Par"))), "forecast")[2]),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("README prose on the diagnosis lacks, from the region: %s", want)
		}
	}
	if fmt.Sprintf("%.3f", bestL) != both[2] {
		t.Errorf("the prose calls %s the lowest |log10| error of the APQ rows; it is %.3f", both[2], bestL)
	}
}
