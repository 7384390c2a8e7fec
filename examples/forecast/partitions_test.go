package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// partitionLogs are the shipped logs with waits whose jobs name more than
// one partition (SWF field 16).
var partitionLogs = []string{"SDSC-Par-1996-3.1-cln.swf.gz", "CEA-Curie-2011-2.1-cln.swf.gz"}

// partitionsDigest pins the README's partitions region (SDSC-Par and
// CEA-Curie replayed with forecast and naive: about 2 min of CPU).
// Regenerate with
//
//	BATCHQ_LONG=1 BATCHQ_UPDATE_README=1 go test ./examples/forecast -run TestReadmePartitions -timeout 1h
const partitionsDigest = "39aff1195e39a296bdfc8f4109432e88a5f150caa41db95eca4e54909da0682d"

// TestReadmePartitions scores the forecaster and the naive baseline on
// the partitioned logs through the scoreboard's replay and scoring, by
// the job's partition.
func TestReadmePartitions(t *testing.T) {
	got := map[string][]byte{}
	readme.CheckLong(t, "README.md", map[string]string{"partitions": partitionsDigest}, func() map[string][]byte {
		var b bytes.Buffer
		for _, f := range partitionLogs {
			text, err := partitionTable(tracetest.Path(t, f))
			if err != nil {
				t.Fatal(err)
			}
			b.Write(text)
		}
		got["partitions"] = b.Bytes()
		t.Logf("\n%s", b.Bytes())
		return got
	})
}

// partitionTable is one log's rows by partition: the jobs scored, the
// share that waited more than 2 minutes, and forecast's and naive's
// within ×2 and mean |log10|, scored as the scoreboard scores them
// (scoreOn's steps: the same rejections, replay and conformal wrappers).
func partitionTable(path string) ([]byte, error) {
	h, jobs, _, _, err := cli.ReadLogLenient(path, false)
	if err != nil {
		return nil, err
	}
	machine, err := h.MachineSize()
	if err != nil {
		return nil, err
	}
	cli.MadeUpIDs(jobs)
	jobs, _ = reject(jobs)
	byQueue, _ := replay.Queues(jobs)
	all, err := replay.All(byQueue)
	if err != nil {
		return nil, err
	}
	names := []string{"forecast", "naive"}
	sc, err := newScorers(names, machine)
	if err != nil {
		return nil, err
	}
	ps := make([]replay.Predictor, len(sc))
	for i := range sc {
		ps[i] = sc[i].p
	}
	type tally struct {
		rows   [2]row
		waited int
	}
	parts := map[int64]*tally{}
	var total tally
	opt := replay.Options{OnPredict: func(_ int, j *swf.Job, now int64, ans []replay.Prediction) {
		wait := float64(j.Submit + j.Wait - now)
		p := parts[j.Partition]
		if p == nil {
			p = &tally{}
			parts[j.Partition] = p
		}
		for _, t := range []*tally{p, &total} {
			if wait > waitedLong {
				t.waited++
			}
			for i, a := range ans {
				t.rows[i].add(a, wait, sc[i].w)
			}
		}
	}}
	if _, err := replay.Run(context.Background(), all, opt, ps...); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s, the %s jobs scored (after the first 10%%):\n\n", tracetest.ShortName(path), thousands(total.rows[0].answered))
	b.WriteString("| partition (field 16) | jobs | waited > 2 min % | forecast within ×2 % | naive within ×2 % | forecast mean \\|log10\\| | naive mean \\|log10\\| |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	keys := slices.SortedFunc(maps.Keys(parts), func(a, b int64) int {
		return cmp.Or(cmp.Compare(parts[b].rows[0].answered, parts[a].rows[0].answered), cmp.Compare(a, b))
	})
	line := func(name string, t *tally) {
		f, n := &t.rows[0], &t.rows[1]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.3f | %.3f |\n", name, thousands(f.answered), share(t.waited, f.answered),
			pct(f.share(f.within2)), pct(n.share(n.within2)), f.absLog/float64(f.answered), n.absLog/float64(n.answered))
	}
	for _, k := range keys {
		line(fmt.Sprint(k), parts[k])
	}
	line("all", &total)
	b.WriteString("\n")
	return b.Bytes(), nil
}
