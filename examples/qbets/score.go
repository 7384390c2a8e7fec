package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// queueScore is one queue of a scored log, as -json prints it. Counts are
// plain names (answered and correct as in replay -json), their shares in
// [0, 1] carry _share: answered was a share beside the counts jobs and
// scored. The medians are null when no bound was given.
type queueScore struct {
	Trace         string   `json:"trace"`
	Queue         int64    `json:"queue"` // SWF field 15; -1 when the log has none
	Name          string   `json:"queue_name,omitempty"`
	Jobs          int      `json:"jobs"`
	Scored        int      `json:"scored"`         // after the training period (first 10%)
	Answered      int      `json:"answered"`       // scored jobs that got a bound
	AnsweredShare float64  `json:"answered_share"` // of the scored jobs
	Correct       int      `json:"correct"`        // bounds that held
	CorrectShare  *float64 `json:"correct_share"`  // of the bounds; null: no bound
	Down          int      `json:"refused_down"`
	MedianBound   *float64 `json:"median_bound_s"`
	MedianRatio   *float64 `json:"median_ratio"` // median bound / wait (waits floored at 1 s)
	Quantile      float64  `json:"q"`
	Confidence    float64  `json:"c"`
	SkippedJobs   int      `json:"skipped_jobs"` // of the log: unknown wait or submit time
	// TrailingZeros is the zero bytes after the log's last gzip member,
	// ignored (simulate's and swfstat's key; the text's note).
	TrailingZeros int64 `json:"trailing_zero_bytes"`
	// Skipped is the log's malformed lines skipped (-lenient).
	cli.Skipped
	// Rejected counts the jobs of the log left out by sanitize's reason
	// (cli.InRange): larger_than_machine (above 2^40 processors),
	// time_out_of_range (a time or estimate above 2^40 s), as simulate and forecast
	// key them; it was one out_of_range_jobs.
	Rejected     map[string]int `json:"rejected,omitempty"`
	RMSOverPred  *float64       `json:"rms_over_s"` // over the bounds that held; null: none held
	NoHistory    int            `json:"refused_no_history"`
	ChangePoints int            `json:"change_points"`
	// Waited is the queue's jobs that waited at all (wait > 0). With none,
	// a bound of 0 s holds for every job and the row says nothing of
	// QBETS: the text says so under the table (when a bound was given).
	Waited int `json:"waited"`
	// OneInstant: the queue's jobs (two or more) were all submitted at one
	// instant, so each was predicted before any later wait was known and
	// the row says nothing of QBETS (the text says so under the table).
	OneInstant bool `json:"one_instant,omitempty"`
}

// scoreLogs scores every log of o.files per queue with full QBETS at
// (o.q, o.c). A log that cannot be read is reported and the others still
// print; the errors are returned together at the end.
func scoreLogs(w, stderr io.Writer, o options) error {
	cfg := replay.Config{Predictor: qbets.Config{Quantile: o.q, Confidence: o.c}}
	if err := cfg.Validate(); err != nil {
		return err
	}
	bad := 0
	for _, path := range o.files {
		rows, err := scoreLog(path, cfg, o.lenient)
		if err != nil {
			fmt.Fprintf(stderr, "qbets: %v\n", err) // it names the log
			bad++
			continue
		}
		if o.json {
			enc := json.NewEncoder(w)
			for _, r := range rows {
				if err := enc.Encode(r); err != nil {
					return err
				}
			}
			continue
		}
		printScores(w, path, rows)
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d logs could not be scored", bad, len(o.files))
	}
	return nil
}

// scoreLog replays one log per queue. Its errors name the log
// (cli.ReadLog's already do). lenient skips malformed lines (counted).
func scoreLog(path string, cfg replay.Config, lenient bool) ([]queueScore, error) {
	hdr, jobs, st, zeros, err := cli.ReadLogLenient(path, lenient)
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 { // as every command says it of an empty log
		return nil, fmt.Errorf("%s: no job lines", path)
	}
	rows, err := scoreJobs(path, hdr, jobs, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range rows {
		rows[i].TrailingZeros = zeros
		rows[i].Skipped = cli.SkippedOf(st)
	}
	return rows, nil
}

// scoreJobs replays the jobs of the log at path per queue.
func scoreJobs(path string, hdr *swf.Header, jobs []swf.Job, cfg replay.Config) ([]queueScore, error) {
	read := len(jobs)
	jobs, far := cli.InRange(jobs) // a wait of 2^63 − 1 failed the whole log
	byQ, skipped := replay.Queues(jobs)
	if len(byQ) == 0 {
		why := ""
		if len(far) > 0 {
			why = ", left out: " + cli.Reasons(far)
		}
		return nil, fmt.Errorf("no job with a known wait (%d jobs%s)", read, why)
	}
	var rejected map[string]int
	if len(far) > 0 {
		rejected = cli.ReasonKeys(far)
	}
	var out []queueScore
	for _, q := range slices.Sorted(maps.Keys(byQ)) {
		r, err := replay.Replay(byQ[q], cfg)
		if err != nil {
			return nil, fmt.Errorf("queue %d: %w", q, err)
		}
		eff := cfg.Predictor
		// No bound, no share held nor RMS: null, as the median bound
		// (they were 0, "correct 0.0%"). The RMS is over the bounds
		// that held: none held, none either (0 read as exact bounds).
		var correct, rms *float64
		if r.Answered() > 0 {
			c := r.Correctness()
			correct = &c
		}
		if r.Correct() > 0 {
			e := r.RMS()
			rms = &e
		}
		waited := 0
		for i := range byQ[q] {
			if byQ[q][i].Wait > 0 {
				waited++
			}
		}
		out = append(out, queueScore{
			Trace: traceBase(path), Queue: q, Name: strings.TrimSpace(queueName(hdr, q)),
			Jobs: r.Jobs, Scored: r.Scored,
			Answered: r.Answered(), AnsweredShare: share(r.Answered(), r.Scored),
			Correct: r.Correct(), CorrectShare: correct,
			Down: r.Down, NoHistory: r.NoHistory,
			MedianBound: finite(r.MedianBound()), MedianRatio: finite(r.MedianRatio()),
			Quantile: eff.Quantile, Confidence: eff.Confidence, SkippedJobs: skipped, Rejected: rejected,
			RMSOverPred: rms, ChangePoints: r.ChangePoints, Waited: waited, OneInstant: oneInstant(byQ[q]),
		})
	}
	return out, nil
}

func share(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// printScores prints one log's queues as a Markdown table.
func printScores(w io.Writer, path string, rows []queueScore) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s: full QBETS, q = %g, C = %g, first 10%% of each queue trains", traceBase(path), rows[0].Quantile, rows[0].Confidence)
	if rows[0].SkippedJobs > 0 {
		fmt.Fprintf(w, " (%d jobs without a known wait skipped)", rows[0].SkippedJobs)
	}
	if len(rows[0].Rejected) > 0 {
		fmt.Fprintf(w, " (skipped: %s)", reasonsText(rows[0].Rejected))
	}
	if z := rows[0].TrailingZeros; z > 0 {
		fmt.Fprintf(w, " (%s)", cli.PaddingNote(z))
	}
	fmt.Fprint(w, "\n\n")
	if n := rows[0].Skipped.Note(); n != "" {
		fmt.Fprintf(w, "%s\n\n", n)
	}
	scoreTable(w, rows)
	var idle []string
	for _, r := range rows {
		// A queue without a bound (too short a history) shows "–": no
		// bound held there, and the note would say one did.
		if r.Waited == 0 && r.Answered > 0 {
			idle = append(idle, fmt.Sprint(r.Queue))
		}
	}
	if len(idle) > 0 {
		// 100% correct with a median bound of 0 s read as a result.
		fmt.Fprintf(w, "\ndegenerate: no job of queue %s waited at all, so a bound of 0 s holds for every one: the row says nothing of QBETS\n", strings.Join(idle, ", "))
	}
	var once []string
	for _, r := range rows {
		if r.OneInstant {
			once = append(once, fmt.Sprint(r.Queue))
		}
	}
	if len(once) > 0 {
		// 270 of 300 refused for no history read as QBETS's failing.
		fmt.Fprintf(w, "\ndegenerate: every job of queue %s submitted at one instant, so each was predicted before any later wait was known: the row says nothing of QBETS\n", strings.Join(once, ", "))
	}
}

// oneInstant says whether two or more jobs share one submit time and
// no job has another.
func oneInstant(jobs []swf.Job) bool {
	for i := range jobs {
		if jobs[i].Submit != jobs[0].Submit {
			return false
		}
	}
	return len(jobs) > 1
}

// scoreTable prints one log's queues as a Markdown table.
func scoreTable(w io.Writer, rows []queueScore) {
	fmt.Fprint(w, "| queue | jobs | answered | correct | median bound | median bound/wait | refused: no history / down |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		name := fmt.Sprint(r.Queue)
		if r.Name != "" {
			name += " " + r.Name
		}
		correct := "–"
		if r.CorrectShare != nil {
			correct = fmt.Sprintf("%.1f%%", 100**r.CorrectShare)
		}
		fmt.Fprintf(w, "| %s | %d | %.1f%% | %s | %s | %s | %d / %d |\n", name, r.Jobs, 100*r.AnsweredShare, correct,
			seconds(r.MedianBound), ratioCell(r.MedianRatio), r.NoHistory, r.Down)
	}
}

func seconds(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.0f s", *v)
}

func ratioCell(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.2f", *v)
}

// reasonsText is -json's reason keys as text: {"time_out_of_range": 1} →
// "1 time out of range".
func reasonsText(keys map[string]int) string {
	by := make(map[string]int, len(keys))
	for k, n := range keys {
		by[strings.ReplaceAll(k, "_", " ")] = n
	}
	return cli.Reasons(by)
}
