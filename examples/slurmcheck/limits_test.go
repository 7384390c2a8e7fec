package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestNoTimeLimit: sacct prints TimelimitRaw UNLIMITED for a job of no
// limit and Partition_Limit for one whose limit was never set;
// slurmcheck refused a recording holding either ("UNLIMITED" is not a
// whole number). Each is now a job without a limit of its own, planned
// as Slurm's backfill plans it: with its partition's MaxTime (job 4 is
// in partition long, MaxTime=10: 600 s), a year when the partition has
// none; counted by form in the report, text and JSON. (An empty one, a
// limit of 0, is refused: TestHostileRecording.)
func TestNoTimeLimit(t *testing.T) {
	edit := func(t *testing.T, limit, conf string) *recording {
		t.Helper()
		return job4Long(t, func(r map[string]any) {
			r["sacct"] = sacctField(r["sacct"].(string), 4, 10, limit)
			if conf != "" {
				r["slurm_conf"] = strings.Replace(r["slurm_conf"].(string), "PartitionName=long Nodes=n[1-4] MaxTime=10 ", conf, 1)
			}
		})
	}
	for _, c := range []struct{ limit, form string }{{"UNLIMITED", "UNLIMITED"}, {"Partition_Limit", "Partition_Limit"}} {
		rec := edit(t, c.limit, "")
		ch, err := prepare(rec)
		if err != nil {
			t.Fatalf("%q: %v", c.limit, err)
		}
		if got := ch.jobs[ch.index["4"]].ReqTime; got != 600 {
			t.Errorf("%q: job 4 planned with a limit of %d s, want long's MaxTime, 600 s", c.limit, got)
		}
		res, err := compare(rec)
		if err != nil {
			t.Fatalf("%q: %v", c.limit, err)
		}
		if len(res.NoTimeLimit) != 1 || res.NoTimeLimit[c.form] != 1 {
			t.Errorf("%q: counted %v, want 1 %s", c.limit, res.NoTimeLimit, c.form)
		}
		if want := "1 job without a time limit in sacct's TimelimitRaw (1 " + c.form + "), planned with their partition's MaxTime"; !strings.Contains(table(res), want) {
			t.Errorf("%q: report lacks %q:\n%s", c.limit, want, table(res))
		}
		js, _ := json.Marshal(res)
		if !strings.Contains(string(js), `"no_time_limit":{"`+c.form+`":1}`) {
			t.Errorf("%q: JSON lacks the count: %s", c.limit, js)
		}
	}
	// A partition without MaxTime: a year, as Slurm's YEAR_MINUTES.
	ch, err := prepare(edit(t, "UNLIMITED", "PartitionName=long Nodes=n[1-4] MaxTime=UNLIMITED "))
	if err != nil {
		t.Fatal(err)
	}
	if got := ch.jobs[ch.index["4"]].ReqTime; got != 365*86400 {
		t.Errorf("no MaxTime: job 4 planned with %d s, want a year", got)
	}
	// The committed recordings have none: their report says nothing of it.
	res, err := compare(edit(t, "5", ""))
	if err != nil {
		t.Fatal(err)
	}
	if res.NoTimeLimit != nil || strings.Contains(table(res), "without a time limit") {
		t.Errorf("numeric limits: %v, %q", res.NoTimeLimit, table(res))
	}
}

// TestLimitAboveMaxTime: a job whose numeric time limit lies above its
// partition's MaxTime (a QOS of flag PartitionTimeLimit lets it in) is
// planned by Slurm's backfill with the MaxTime (_attempt_backfill:
// MIN(time_limit, part MaxTime)). slurmcheck gave the policy the limit
// itself, which the policy cancels as above MaxTime, and refused the
// recording ("simulated 199 of 200 jobs"). It is now cut to the MaxTime
// (job 4, in long of MaxTime=10, with 20 minutes: 600 s), counted in
// the report, text and JSON; a limit at the MaxTime is not counted.
func TestLimitAboveMaxTime(t *testing.T) {
	edit := func(t *testing.T, limit string) *recording {
		t.Helper()
		return job4Long(t, func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 10, limit) })
	}
	rec := edit(t, "20")
	ch, err := prepare(rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := ch.jobs[ch.index["4"]].ReqTime; got != 600 {
		t.Errorf("job 4 planned with a limit of %d s, want long's MaxTime, 600 s", got)
	}
	res, err := compare(rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.LimitsCut != 1 {
		t.Errorf("counted %d limits cut, want 1", res.LimitsCut)
	}
	if want := "1 job with a time limit above its partition's MaxTime, planned with that MaxTime"; !strings.Contains(table(res), want) {
		t.Errorf("report lacks %q:\n%s", want, table(res))
	}
	if js, _ := json.Marshal(res); !strings.Contains(string(js), `"limits_cut_to_max_time":1`) {
		t.Errorf("JSON lacks the count: %s", js)
	}
	// A limit at MaxTime is the job's own: not cut, not counted.
	res, err = compare(edit(t, "10"))
	if err != nil {
		t.Fatal(err)
	}
	if res.LimitsCut != 0 || strings.Contains(table(res), "above its partition's MaxTime") {
		t.Errorf("a limit at MaxTime counted as cut: %d, %q", res.LimitsCut, table(res))
	}
}

// TestLimitCutRunsPast: a job whose limit is cut to its partition's
// MaxTime (TestLimitAboveMaxTime) but that ran past the MaxTime, as a QOS
// of flag PartitionTimeLimit lets it (Slurm kills it at its own limit),
// was killed by the simulations at the MaxTime (Run's KillAtEstimate): a
// run silently shortened. The recording is refused, naming the job.
// Job 4 (long, MaxTime=10) with 20 minutes, run 700 s (sacct's End −
// Start, its log lines dropped); at 600 s it is kept.
func TestLimitCutRunsPast(t *testing.T) {
	edit := func(t *testing.T, run int64) *recording {
		t.Helper()
		return job4Long(t, func(r map[string]any) {
			s := r["sacct"].(string)
			start, err := strconv.ParseInt(strings.Split(strings.Split(s, "\n")[4], "|")[7], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			s = sacctField(s, 4, 10, "20")
			s = sacctField(s, 4, 8, strconv.FormatInt(start+run, 10))
			r["sacct"] = sacctField(s, 4, 9, strconv.FormatInt(run, 10))
			var log []any
			for _, l := range r["slurmctld_log"].([]any) {
				if l.(map[string]any)["id"] != "4" {
					log = append(log, l)
				}
			}
			r["slurmctld_log"] = log
		})
	}
	_, err := compare(edit(t, 700))
	if want := "(Slurm 4): ran 700 s, past its partition long's MaxTime of 600 s"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a cut job that ran past MaxTime: error %v, want one containing %q", err, want)
	}
	ch, err := prepare(edit(t, 600))
	if err != nil {
		t.Fatal(err)
	}
	if j := ch.jobs[ch.index["4"]]; j.RunTime != 600 || j.ReqTime != 600 {
		t.Errorf("job 4 run %d s, limit %d s; want 600, 600", j.RunTime, j.ReqTime)
	}
}

// job4Long is the live recording with edit applied, after checking that
// sacct's line 4 is job 4 in partition long of MaxTime=10, the case the
// limits' tests edit.
func job4Long(t *testing.T, edit func(r map[string]any)) *recording {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(liveRecording, &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.Split(r["sacct"].(string), "\n")[4], "4|bq-alice|physics|long|") ||
		!strings.Contains(r["slurm_conf"].(string), "PartitionName=long Nodes=n[1-4] MaxTime=10 ") {
		t.Fatal("sacct line 4 is not job 4 in partition long of MaxTime=10: not the case tested")
	}
	edit(r)
	b, _ := json.Marshal(r)
	rec, err := decodeRecording(b, "x.json")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
