package slurmfeed

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// nested is a value nested n levels deep: [[…]].
func nested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// TestDeepRecord: a record nested deeper than encoding/json's limit
// (10,000 levels) is one bad record, counted with its reason under its
// job id when that can be read; the other jobs of the poll read as
// without it. The whole poll failed on it ("exceeded max depth").
func TestDeepRecord(t *testing.T) {
	for _, c := range []struct {
		file, id, field string // the record of job id gets field (the record itself: "")
		depth           int
		key, want       string // want "": the record reads as without the field
	}{
		{"squeue-22.05.json", "7", "x", 10000, "7", "squeue: x nested deeper than 10000 levels"},
		{"squeue-22.05.json", "7", "name", 10000, "7", "squeue: name nested deeper than 10000 levels"},
		{"squeue-22.05.json", "7", "x", 1_000_000, "7", "squeue: x nested deeper than 10000 levels"},
		{"squeue-22.05.json", "7", "job_id", 10000, "squeue record without job_id", "squeue: job_id nested deeper than 10000 levels"},
		{"squeue-22.05.json", "7", "", 10001, "squeue record without job_id", "squeue: a record nested deeper than 10000 levels"},
		// The record 10,000 deep is within the limit (the output, 10,002, is not).
		{"squeue-22.05.json", "7", "x", 9999, "7", ""},
		{"sacct-22.05.json", "3", "x", 10000, "3", "sacct: x nested deeper than 10000 levels"},
		{"sacct-22.05.json", "3", "x", 9999, "3", ""},
	} {
		parse := parseSqueue
		if strings.HasPrefix(c.file, "sacct") {
			parse = parseSacct
		}
		orig := readTestdata(t, c.file)
		want, err := parse(orig)
		if err != nil {
			t.Fatal(err)
		}
		m := decodeOutput(t, orig)
		found := false
		for i, r := range m["jobs"].([]any) {
			if rec := r.(map[string]any); rec["job_id"] == rawNumberOf(c.id) {
				found = true
				if c.field == "" {
					m["jobs"].([]any)[i] = "DEEP"
				} else {
					rec[c.field] = "DEEP"
				}
			}
		}
		if !found {
			t.Fatalf("%s: no job %s", c.file, c.id)
		}
		got, err := parse([]byte(strings.Replace(string(encodeOutput(t, m)), `"DEEP"`, nested(c.depth), 1)))
		name := c.field + " " + strings.TrimSuffix(c.file, ".json")
		if err != nil {
			t.Errorf("%s, %d deep: the poll fails: %v", name, c.depth, err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s, %d deep: %d jobs, want %d", name, c.depth, len(got), len(want))
			continue
		}
		k := slicesIndexKey(want, c.id)
		for i := range got {
			if i == k && c.want != "" {
				if got[i].key != c.key || got[i].bad != c.want {
					t.Errorf("%s, %d deep: job %q bad %q, want job %q bad %q", name, c.depth, got[i].key, got[i].bad, c.key, c.want)
				}
				continue
			}
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s, %d deep: a job changed: %+v, was %+v", name, c.depth, got[i], want[i])
			}
		}
	}
}

// rawNumberOf is a job id as decodeOutput keeps it.
func rawNumberOf(id string) any {
	m := decodeOutput(t0Fataler{}, []byte(`{"v":`+id+`}`))
	return m["v"]
}

type t0Fataler struct{}

func (t0Fataler) Helper()        {}
func (t0Fataler) Fatal(a ...any) { panic(a) }

// TestOutputStillChecked: reading the records one by one does not make
// an output that is no JSON readable: one cut short, or with a record
// that is no JSON, still fails the poll, as do errors and a list of jobs
// of another kind.
func TestOutputStillChecked(t *testing.T) {
	orig := string(readTestdata(t, "squeue-22.05.json"))
	deep := strings.Replace(orig, `"job_id": 7,`, `"job_id": 7, "x": `+nested(10000)+`,`, 1)
	if deep == orig {
		t.Fatal("no job 7 in the recording")
	}
	for name, out := range map[string]string{
		"cut":                  deep[:len(deep)-20],
		"a record not JSON":    strings.Replace(deep, `"job_id": 1,`, `"job_id": 1 1,`, 1),
		"unbalanced":           strings.Replace(deep, `"x": [`, `"x": {`, 1),
		"jobs not a list":      `{"errors": [], "jobs": {"x": ` + nested(10001) + `}}`,
		"errors":               `{"errors": [{"error": "x"}], "jobs": [` + nested(10001) + `]}`,
		"trailing text":        deep + "x",
		"a string unfinished":  `{"jobs": [` + nested(10001) + `, "x]}`,
		"no object":            `[` + nested(10001) + `]`,
		"a key without value":  `{"jobs": [` + nested(10001) + `], "x"}`,
		"a member not a name":  `{"jobs": [` + nested(10001) + `], 5: 1}`,
		"two values in a list": `{"jobs": [` + nested(10001) + ` 5]}`,
	} {
		if _, err := parseSqueue([]byte(out)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
	// Keys match as encoding/json matches them: without regard to case,
	// the last of a name kept.
	jobs, err := parseSqueue([]byte(`{"Jobs": [], "JOBS": [` + nested(10001) + `]}`))
	if err != nil || len(jobs) != 1 || !strings.Contains(jobs[0].bad, "nested deeper") {
		t.Errorf("JOBS: %+v, %v; want one record too deep", jobs, err)
	}
}

// TestPollOfDeepRecord: a poll skips and counts a record too deep and
// feeds the others.
func TestPollOfDeepRecord(t *testing.T) {
	f := scenario()
	on := true
	run := rewriter{f, &on, func(name string, out []byte) []byte {
		if name != "squeue" {
			return out
		}
		return []byte(strings.Replace(string(out), `"job_id":4,`, `"job_id":4,"x":`+nested(20000)+`,`, 1))
	}}
	clk := &clock{t: t0 + 30}
	tp := newTap(t, clk.unix)
	c, err := New(Config{System: "c1", Service: tp, Runner: run, Now: clk.now, Since: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	mustPoll(t, c)
	r := c.Report()
	if r.Skipped["squeue: x nested deeper than 10000 levels"] != 1 || r.Errors != 0 || r.Events["submit"] != 5 {
		t.Errorf("skipped %v, %d failed polls, %d submits; want job 4 skipped, the 5 others fed", r.Skipped, r.Errors, r.Events["submit"])
	}
}

// TestSplitAgrees: on outputs mangled byte by byte (shallow: every value
// within encoding/json's depth), reading record by record fails exactly
// when encoding/json cannot read the output, and otherwise finds the
// records it finds.
func TestSplitAgrees(t *testing.T) {
	orig := readTestdata(t, "squeue-22.05.json")
	rapid.Check(t, func(rt *rapid.T) {
		out := slices.Clone(orig)
		for range rapid.IntRange(1, 4).Draw(rt, "edits") {
			at := rapid.IntRange(0, len(out)-1).Draw(rt, "at")
			c := rapid.SampledFrom([]byte(`{}[]",: 0\ntx`)).Draw(rt, "byte")
			switch rapid.IntRange(0, 2).Draw(rt, "edit") {
			case 0:
				out[at] = c
			case 1:
				out = slices.Delete(out, at, at+1)
			default:
				out = slices.Insert(out, at, c)
			}
		}
		var want jsonOutput[squeueErrors, []json.RawMessage]
		werr := json.Unmarshal(out, &want)
		_, got, err := splitOutput[squeueErrors](out)
		if err == nil {
			for _, r := range got {
				if !json.Valid(r) {
					err = errNotJSON // as readOutput finds decoding it
				}
			}
		}
		if (err == nil) != (werr == nil) {
			rt.Fatalf("split: %v, encoding/json: %v", err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, []json.RawMessage(want.Jobs)) && !(len(got) == 0 && len(want.Jobs) == 0) {
			rt.Fatalf("split finds %d records, encoding/json %d", len(got), len(want.Jobs))
		}
	})
}
