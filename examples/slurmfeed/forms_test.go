package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// mutateRecording writes the recorded live run with each squeue and
// sacct --json output's jobs passed through edit (squeue: sacct false),
// and returns its path.
func mutateRecording(t *testing.T, name string, edit func(job map[string]any, sacct bool)) string {
	t.Helper()
	rec, err := readRecording(recordingPath)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, p := range rec.polls {
		for _, l := range p {
			if len(l.Cmd) > 0 && (l.Cmd[0] == "squeue" || l.Cmd[0] == "sacct") && l.Err == "" {
				dec := json.NewDecoder(strings.NewReader(l.Out))
				dec.UseNumber()
				var m map[string]any
				if err := dec.Decode(&m); err != nil {
					t.Fatal(err)
				}
				jobs, _ := m["jobs"].([]any)
				for _, j := range jobs {
					edit(j.(map[string]any), l.Cmd[0] == "sacct")
				}
				out, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				l.Out = string(out)
			}
			if err := enc.Encode(l); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawNumber is a JSON number as written (1e300, 2^64+5).
type rawNumber string

func (n rawNumber) MarshalJSON() ([]byte, error) { return []byte(n), nil }

func replayOut(t *testing.T, path string, jsonOut bool) []byte {
	t.Helper()
	args := []string{"-poll", "2s", "-replay", path}
	if jsonOut {
		args = append(args, "-json")
	}
	var out bytes.Buffer
	if err := run(context.Background(), args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestReplayBadJob: the recorded run with one job's squeue record made
// unreadable, as a real site's output can be (a job id past 2^64, a
// submit time of 1e300, "Unknown" for a start time), fails no poll: the
// job is left out, counted with its reason in the -json and the text
// output, and the other 18 jobs are fed. Each failed 64 of the 66 polls,
// those while job 1 was in squeue.
func TestReplayBadJob(t *testing.T) {
	for _, c := range []struct {
		field  string
		value  any
		reason string
	}{
		{"job_id", rawNumber("18446744073709551621"), `squeue: job_id: "18446744073709551621" out of range`},
		{"submit_time", rawNumber("1e300"), `squeue: submit_time: "1e300" out of range`},
		{"start_time", "Unknown", `squeue: start_time: "Unknown" is not a whole number`},
	} {
		path := mutateRecording(t, c.field+".jsonl", func(j map[string]any, sacct bool) {
			if !sacct && j["job_id"] == json.Number("1") {
				j[c.field] = c.value
			}
		})
		var r reportJSON
		if err := json.Unmarshal(replayOut(t, path, true), &r); err != nil {
			t.Fatal(err)
		}
		if r.Errors != 0 || r.Skipped[c.reason] != 1 || r.Polls != 66 {
			t.Errorf("%s: %d polls, %d failed, skipped %v; want 66, none failed, 1 %q", c.field, r.Polls, r.Errors, r.Skipped, c.reason)
		}
		// Job 1 is in sacct too: with its squeue record's id unreadable, the
		// record is another job to the feed, and sacct's feeds job 1.
		fed := int64(18)
		if c.field == "job_id" {
			fed = 19
		}
		if r.Events["submit"] != fed {
			t.Errorf("%s: %d jobs fed, want %d", c.field, r.Events["submit"], fed)
		}
		if text := string(replayOut(t, path, false)); !strings.Contains(text, "- "+c.reason+": 1") || !strings.Contains(text, " 0 failed polls") {
			t.Errorf("%s: the text output does not count the job:\n%s", c.field, text)
		}
	}
}

// TestReplaySlurm23Forms: the recorded run (Slurm 22.05) with squeue's
// and sacct's outputs rewritten in the forms of 23.02 and later (numbers
// as {"set","infinite","number"} objects, an unset start as set: false,
// states as lists) replays as the recording does, figure for figure; every
// poll failed on them.
func TestReplaySlurm23Forms(t *testing.T) {
	obj := func(v any) any {
		if v == nil {
			return map[string]any{"set": false, "infinite": false, "number": 0}
		}
		return map[string]any{"set": true, "infinite": false, "number": v}
	}
	path := mutateRecording(t, "23.02.jsonl", func(j map[string]any, sacct bool) {
		if sacct {
			j["array"].(map[string]any)["task_id"] = obj(j["array"].(map[string]any)["task_id"])
			tm := j["time"].(map[string]any)
			tm["limit"] = obj(tm["limit"])
			st := j["state"].(map[string]any)
			st["current"] = []any{st["current"]}
			return
		}
		for _, k := range []string{"array_job_id", "array_task_id", "submit_time", "start_time", "end_time", "time_limit", "priority", "cpus"} {
			v := j[k]
			if k == "start_time" && v == json.Number("0") {
				v = nil
			}
			j[k] = obj(v)
		}
		j["job_state"] = []any{j["job_state"]}
	})
	var got, want reportJSON
	if err := json.Unmarshal(replayOut(t, path, true), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(replayOut(t, recordingPath, true), &want); err != nil {
		t.Fatal(err)
	}
	if got.Errors != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("in 23.02's forms: %d failed polls, events %v, skipped %v; the recording: events %v",
			got.Errors, got.Events, got.Skipped, want.Events)
	}
	if g, w := replayOut(t, path, false), replayOut(t, recordingPath, false); !bytes.Equal(g, w) {
		t.Errorf("the text output differs:\n%s\nwant\n%s", g, w)
	}
}

// TestReplayDegenerate: the recorded run with every squeue record's
// priority unreadable: each poll whose squeue output holds jobs is
// degenerate, and the text and -json say so (counted, with the last
// one's note); the recording itself has none.
func TestReplayDegenerate(t *testing.T) {
	path := mutateRecording(t, "degenerate.jsonl", func(j map[string]any, sacct bool) {
		if !sacct {
			j["priority"] = "Unknown"
		}
	})
	rec, err := readRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(0) // the polls whose squeue output holds a job
	for _, p := range rec.polls {
		for _, l := range p {
			if l.Cmd[0] == "squeue" && l.Err == "" && !strings.Contains(l.Out, `"jobs":[]`) {
				want++
			}
		}
	}
	var r reportJSON
	if err := json.Unmarshal(replayOut(t, path, true), &r); err != nil {
		t.Fatal(err)
	}
	note := `squeue: priority: "Unknown" is not a whole number`
	if r.Degenerate != want || want == 0 || !strings.HasPrefix(r.LastDegen, "squeue --json: ") || !strings.Contains(r.LastDegen, note) {
		t.Errorf("degenerate_polls %d, last_degenerate %q; want %d, squeue's note", r.Degenerate, r.LastDegen, want)
	}
	text := string(replayOut(t, path, false))
	if !strings.Contains(text, fmt.Sprintf("degenerate: in %d polls, every job record of squeue or sacct was bad", want)) || !strings.Contains(text, note) {
		t.Errorf("the text does not say the polls were degenerate:\n%.1000s", text)
	}
	if orig := string(replayOut(t, recordingPath, false)); strings.Contains(orig, "degenerate") {
		t.Errorf("the recording's replay is called degenerate:\n%.600s", orig)
	}
}
