package replay_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// madeUpLog is 600 jobs numbered 1… in line order, submitted in bursts
// that share a submit time (so that IBL's queue order, submit then
// number, meets ties), each with a wait that overlaps the next arrivals.
func madeUpLog() []swf.Job {
	rng := rand.New(rand.NewPCG(7, 11))
	jobs := make([]swf.Job, 600)
	t := int64(0)
	for i := range jobs {
		if rng.IntN(3) == 0 {
			t += rng.Int64N(900)
		}
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime = int64(i+1), t, rng.Int64N(7200), 60+rng.Int64N(3600)
		j.AllocProcs, j.ReqTime = 1<<rng.IntN(6), 3600*(1+rng.Int64N(4))
		j.User, j.Group, j.Executable, j.Queue = rng.Int64N(9), rng.Int64N(3), rng.Int64N(5), rng.Int64N(2)
		jobs[i] = j
	}
	return jobs
}

// predictions replays jobs through APQ, IBL (with queued snapshots) and
// QBETS, every job predicted, and returns each answer as text (job
// number left out: it is what differs), and the scores.
func predictions(t *testing.T, jobs []swf.Job) (string, []replay.Score) {
	t.Helper()
	a, err := replay.NewAPQ(apq.Config{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := replay.NewIBL(ibl.Config{}, ibl.Config{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	q, err := replay.NewQBETS(qbets.Config{}, true)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	opt := replay.Options{PredictAll: true, Snapshot: 1800, OnPredict: func(i int, j *swf.Job, now int64, p []replay.Prediction) {
		out = fmt.Appendf(out, "%d@%d %v\n", i, now, p)
	}}
	s, err := replay.Run(context.Background(), jobs, opt, a, b, q)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), s
}

// A job without a number (-1, 0) is replayed as sched numbers it, 10^18 +
// its position: a log of -1s gets the predictions of the same log
// numbered in line order, and a log numbered in part those of the log
// numbered as sched would. Before, APQ stopped the replay on the second
// -1 ("job -1 is already in the system") and IBL on "submitted twice".
func TestRunMadeUpIDs(t *testing.T) {
	orig := madeUpLog()
	want, ws := predictions(t, orig)
	if ws[0].MadeUpIDs != 0 || ws[0].Answered() < 100 || ws[1].Answered() < 100 || ws[1].Queued.Answered() < 100 {
		t.Fatalf("the numbered log: %d numbered, APQ %d, IBL %d, IBL queued %d answers", ws[0].MadeUpIDs, ws[0].Answered(), ws[1].Answered(), ws[1].Queued.Answered())
	}
	for _, c := range []struct {
		name string
		id   func(i int, id int64) int64 // the copy's number of line i
	}{
		{"all -1", func(int, int64) int64 { return swf.Unknown }},
		{"all 0", func(int, int64) int64 { return 0 }},
		{"mixed", func(i int, id int64) int64 { return []int64{id, -1, 0}[i%3] }},
	} {
		jobs := make([]swf.Job, len(orig))
		ref := make([]swf.Job, len(orig)) // the copy numbered as sched numbers it
		missing := 0
		for i, j := range orig {
			j.ID = c.id(i, j.ID)
			jobs[i] = j
			if jobid.Missing(j.ID) {
				j.ID = jobid.MadeUp(int64(i + 1))
				missing++
			}
			ref[i] = j
		}
		got, gs := predictions(t, jobs)
		w := want
		if missing < len(orig) { // numbered in part: against the copy as sched numbers it
			w, _ = predictions(t, ref)
		}
		if got != w {
			t.Errorf("%s: the predictions differ from the numbered log's", c.name)
		}
		for k := range gs {
			if gs[k].MadeUpIDs != missing {
				t.Errorf("%s: score %d counts %d numbered, want %d", c.name, k, gs[k].MadeUpIDs, missing)
			}
			if q := gs[k].Queued; q != nil && q.MadeUpIDs != missing { // (every Score of the Run, the snapshots' too)
				t.Errorf("%s: score %d's Queued counts %d numbered, want %d", c.name, k, q.MadeUpIDs, missing)
			}
		}
		for i := range jobs {
			if jobs[i].ID != c.id(i, orig[i].ID) {
				t.Fatalf("%s: Run wrote the caller's job %d", c.name, i)
			}
		}
	}
}

// Only the replayed jobs count: with To, those after it are neither
// replayed nor numbered.
func TestRunMadeUpIDsTo(t *testing.T) {
	jobs := madeUpLog()
	for i := range jobs {
		jobs[i].ID = swf.Unknown
	}
	b, err := replay.NewIBL(ibl.Config{}, ibl.Config{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := replay.Run(context.Background(), jobs, replay.Options{From: 10, To: 100}, b)
	if err != nil {
		t.Fatal(err)
	}
	if s[0].MadeUpIDs != 100 {
		t.Errorf("%d numbered, want the 100 replayed", s[0].MadeUpIDs)
	}
}

// Hostile numbers: a real number repeated while the first job is live, or
// a real one at or above 10^18 that a made-up one takes, stop APQ and IBL
// with an error naming the number, never a panic or a job mixed up in
// silence; a number 2^63 − 1 is one like any other.
func TestRunMadeUpIDsHostile(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(jobs []swf.Job)
		fail bool
	}{
		{"duplicate live", func(jobs []swf.Job) { jobs[5].ID = jobs[4].ID }, true},
		{"real takes a made-up number", func(jobs []swf.Job) { jobs[3].ID, jobs[4].ID = jobid.MadeUp(5), -1 }, true},
		{"2^63 − 1", func(jobs []swf.Job) { jobs[3].ID = 1<<63 - 1 }, false},
		{"10^18 + 1 and -1s later", func(jobs []swf.Job) {
			jobs[0].ID = jobid.MadeUp(1)
			for i := 300; i < len(jobs); i++ {
				jobs[i].ID = -1
			}
		}, false},
	} {
		jobs := madeUpLog()
		for i := range jobs {
			jobs[i].Wait = 3600 // every job live when the next arrives
		}
		c.edit(jobs)
		for _, mk := range []func() (replay.Predictor, error){
			func() (replay.Predictor, error) { return replay.NewAPQ(apq.Config{}) },
			func() (replay.Predictor, error) { return replay.NewIBL(ibl.Config{}, ibl.Config{}, 0) },
		} {
			p, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			_, err = replay.Run(context.Background(), jobs, replay.Options{}, p)
			if (err != nil) != c.fail {
				t.Errorf("%s: %T: error %v, want one: %v", c.name, p, err, c.fail)
			}
		}
	}
}

// The first 3,000 jobs of KTH-SP2 with every number -1 get the
// predictions of the log as numbered (APQ, IBL with queued snapshots,
// QBETS per queue; every answer compared as printed).
func TestRunMadeUpIDsKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("three predictors over 3,000 jobs of KTH-SP2, twice (about 15 s)")
	}
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	byQ, _ := replay.Queues(jobs[:3000])
	all, err := replay.All(byQ)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := predictions(t, all)
	for i := range all {
		all[i].ID = swf.Unknown
	}
	got, s := predictions(t, all)
	if got != want || s[0].MadeUpIDs != len(all) {
		t.Errorf("without numbers: %d numbered; the predictions differ: %v", s[0].MadeUpIDs, got != want)
	}
}
