package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A damaged recording is refused or compared in bounded time: a
// slurmctld_log time at -2^63 or 2^53, or a sacct Submit of -1 or 2^63-1,
// made the Slurm side's 250 ms sampling loop run for hours (or wrap).
func TestHostileRecording(t *testing.T) {
	for _, c := range []struct {
		edit func(r map[string]any)
		want string // in the error, or in why Slurm's pace is not measured ("": compared whole)
	}{
		{func(r map[string]any) { logAt(r, 3)["start_ms"] = -9223372036854775808 }, "not a time of a live run"},
		{func(r map[string]any) { logAt(r, 5)["end_ms"] = 9007199254740993 }, "not a time of a live run"},
		{func(r map[string]any) { logAt(r, 5)["end_ms"] = 4000000000000 }, "span"},
		{func(r map[string]any) { r["submitted_ms"].([]any)[2] = 0 }, "not a time of a live run"},
		// (decays_ms and the samples' t_ms were not checked: -5 ms was
		// Slurm's first recalculation, 2^63-1 wrapped in a two-run shift)
		{func(r map[string]any) { r["decays_ms"].([]any)[0] = -5 }, "decays_ms -5 ms is not a time of a live run"},
		{func(r map[string]any) { r["decays_ms"].([]any)[1] = 9223372036854775807 }, "not a time of a live run"},
		{func(r map[string]any) { r["decays_ms"].([]any)[1] = 4000000000000 }, "span"},
		{func(r map[string]any) { r["samples"].([]any)[3].(map[string]any)["t_ms"] = 0 }, "samples t_ms 0 ms is not a time of a live run"},
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 5, "-1") }, "out of range"},
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 5, "9223372036854775807") }, "out of range"},
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 5, "Unknown") }, ""},
		// A field not a number is named by its column (it was "field 11:
		// strconv.ParseInt: parsing ...: invalid syntax"), an empty QOS
		// list by its key (it was "shares: empty input", naming sshare).
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 10, "2-03:04:05") }, `field 11 (TimelimitRaw): "2-03:04:05" is not a whole number`},
		// (UNLIMITED was refused here as not a whole number: TestNoTimeLimit.)
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 10, "Unknown") }, `(TimelimitRaw): "Unknown" is not a limit`},
		// An empty TimelimitRaw is a limit of 0, which Slurm's backfill
		// plans as ending at once: it was planned as no limit (MaxTime,
		// a year), and a "0" was planned with the largest limit seen.
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 10, "") }, `(TimelimitRaw): "" is a limit of 0 minutes`},
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 10, "0") }, `(TimelimitRaw): "0" is a limit of 0 minutes`},
		{func(r map[string]any) { r["sacctmgr_qos"] = "" }, "sacctmgr_qos: "},
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 4, 5, "1000000000") }, "more than a week"},
		// A logged run that is not the one sacct shows (an end before
		// its start, or a minute off End − Start) is refused, not taken
		// as the run time.
		{func(r map[string]any) { logAt(r, 5)["end_ms"] = logAt(r, 5)["start_ms"].(float64) - 1 }, "not the same run"},
		{func(r map[string]any) { logAt(r, 5)["end_ms"] = logAt(r, 5)["end_ms"].(float64) + 60000 }, "not the same run"},
	} {
		var r map[string]any
		if err := json.Unmarshal(liveRecording, &r); err != nil {
			t.Fatal(err)
		}
		c.edit(r)
		b, _ := json.Marshal(r)
		start := time.Now()
		rec, err := decodeRecording(b, "x.json")
		var got string
		if err == nil {
			var res *result
			if res, err = compare(rec); err == nil {
				got = res.SlurmNotMeasured
			}
		}
		if err != nil {
			got = err.Error()
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%q after %v", got, d)
		}
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func logAt(r map[string]any, k int) map[string]any {
	return r["slurmctld_log"].([]any)[k].(map[string]any)
}

// sacctField sets field f (0-based) of sacct line k (0 the header).
func sacctField(s string, k, f int, v string) string {
	lines := strings.Split(s, "\n")
	fs := strings.Split(lines[k], "|")
	fs[f] = v
	lines[k] = strings.Join(fs, "|")
	return strings.Join(lines, "\n")
}

// TestSlurmPaceNotMeasured: a recording whose slurmctld log it cannot use
// says why Slurm's pace is missing, in the result and in its text, rather
// than leaving it out without a word.
func TestSlurmPaceNotMeasured(t *testing.T) {
	rec, err := readRecording(recordPath)
	if err != nil {
		t.Fatal(err)
	}
	rec.Log = rec.Log[1:]
	res, err := compare(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("slurmctld's log names %d of the %d jobs", len(rec.Log), res.Jobs)
	if res.Slurm != nil || res.SlurmNotMeasured != want {
		t.Errorf("Slurm %v, not measured %q; want nil and %q", res.Slurm, res.SlurmNotMeasured, want)
	}
	if !strings.Contains(res.tail(), "not measured: "+want) {
		t.Errorf("the text does not say why:\n%s", res.tail())
	}
}

// A file that is not a recording said "unexpected end of JSON input" (an
// empty file), or a Go type error, without the file's name or what it
// should hold; JSON of another shape was compared as an empty run.
func TestNotARecording(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "x.json: empty file, not a slurmcheck recording (want the JSON object TestLiveSlurmCheck records"},
		{" \n", "x.json: empty file, not a slurmcheck recording"},
		{"[1, 2]", "x.json: not a slurmcheck recording (want the JSON object"},
		{`{"ids": [`, "x.json: not a slurmcheck recording (want the JSON object"},
		{`{"jobs": 3}`, `x.json: not a slurmcheck recording: no "workload" or no "sacct"`},
	} {
		_, err := decodeRecording([]byte(c.text), "x.json")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.text, err, c.want)
		}
	}
}

// TestRunTimeSource: a job the log has no end for keeps sacct's End −
// Start, and the result counts it; a logged duration of whole seconds is
// not rounded up a second more.
func TestRunTimeSource(t *testing.T) {
	rec, err := readRecording(recordPath)
	if err != nil {
		t.Fatal(err)
	}
	rec.Log[7].End = 0
	res, err := compare(rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.RunTimesFromLog != 199 || res.RunTimesLonger > 170 || res.RunTimesLonger < 169 {
		t.Errorf("run times from the log %d, longer than End − Start %d; want 199, 169 or 170", res.RunTimesFromLog, res.RunTimesLonger)
	}
	if !strings.Contains(table(res), "for 199 of the 200 jobs slurmctld's logged duration rounded up") {
		t.Error("the table does not say how many run times came from the log")
	}
	for _, c := range []struct {
		ms, sacct, want int64
	}{{4000, 4, 4}, {4001, 4, 5}, {3999, 3, 4}, {0, 0, 0}} {
		got, fromLog, err := tickRunTime(realJob{Start: 100, End: 100 + c.sacct}, logJob{Start: 1e12, End: 1e12 + c.ms})
		if got != c.want || !fromLog || err != nil {
			t.Errorf("%d ms logged: run time %d (from the log %v, %v), want %d", c.ms, got, fromLog, err, c.want)
		}
	}
}

// TestNoPrioritySamples: a recording without sprio samples has no pair of
// pending jobs to order and no sample where the top job fitted; the text
// printed "Of 0 pairs … first in 0.0%" and "a median 0.0 s later", figures
// of nothing, where it should print "–".
func TestNoPrioritySamples(t *testing.T) {
	rec, err := readRecording(recordPath)
	if err != nil {
		t.Fatal(err)
	}
	rec.Samples = nil
	res, err := compare(rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Slurm == nil || res.Slurm.OwnPairs != 0 || res.Slurm.TopFits != 0 {
		t.Fatalf("Slurm's pace %+v; want measured, with no pairs and no fitting top job", res.Slurm)
	}
	text := res.tail()
	for _, want := range []string{"Of 0 pairs of jobs pending together at a sample with different priorities, Slurm started the one of higher priority first in –.", "at 0 of the 0 samples with a pending job the highest-priority one fitted in the free CPUs; "} {
		if !strings.Contains(text, want) {
			t.Errorf("the text does not say %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"0.0%", "median 0.0 s later"} {
		if strings.Contains(text, bad) {
			t.Errorf("the text says %q of no samples:\n%s", bad, text)
		}
	}
}

// An error on a recording's contents names the file, as its JSON errors
// do: it was "sacct line 52: …", "shares line 1: …", "the recorded
// slurm.conf has no NodeName line …", naming none; with two recordings
// the user could not tell which.
func TestRecordingErrorsNamed(t *testing.T) {
	for _, c := range []struct {
		edit func(r map[string]any)
		want string
	}{
		{func(r map[string]any) { r["sacct"] = sacctField(r["sacct"].(string), 51, 13, "1|x") }, "x.json: sacct line 52: 15 fields"},
		{func(r map[string]any) { r["sshare"] = "garbage|x\n" }, "x.json: sshare: shares line 1"}, // (the key named since h-hcmds)
		{func(r map[string]any) {
			r["slurm_conf"] = strings.ReplaceAll(r["slurm_conf"].(string), "NodeName=", "# NodeName=")
		}, "x.json: the recorded slurm.conf has no NodeName line"},
	} {
		var r map[string]any
		if err := json.Unmarshal(liveRecording, &r); err != nil {
			t.Fatal(err)
		}
		c.edit(r)
		b, _ := json.Marshal(r)
		rec, err := decodeRecording(b, "x.json")
		if err == nil {
			_, err = compare(rec)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want %q", err, c.want)
		}
		// with two recordings, the one at fault is named (a sacct fault:
		// the others are refused as another site)
		if strings.HasPrefix(c.want, "x.json: sacct") {
			good, _ := decodeRecording(liveRecording, "good.json")
			if _, err := compareTwo(good, rec); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("two recordings: error %v; want %q", err, c.want)
			}
		}
	}
}

// A recording whose commands' outputs have CRLF line endings (saved by an
// editor or copied through Windows) is read as the same recording with
// LF: it was refused with "sacct: the header is not …".
func TestRecordingCRLF(t *testing.T) {
	var r map[string]any
	if err := json.Unmarshal(liveRecording, &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"slurm_conf", "sacctmgr_qos", "sshare", "sacct", "sshare_end"} {
		r[k] = strings.ReplaceAll(r[k].(string), "\n", "\r\n")
	}
	for _, s := range r["samples"].([]any) {
		s.(map[string]any)["sprio"] = strings.ReplaceAll(s.(map[string]any)["sprio"].(string), "\n", "\r\n")
	}
	b, _ := json.Marshal(r)
	crlf, err := decodeRecording(b, "crlf.json")
	if err != nil {
		t.Fatal(err)
	}
	lf, err := decodeRecording(liveRecording, recordPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := compare(crlf)
	if err != nil {
		t.Fatalf("CRLF: %v", err)
	}
	want, err := compare(lf)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := table(got), table(want); g != w {
		t.Errorf("CRLF recording compared differently:\n%s\nwant\n%s", g, w)
	}
}
