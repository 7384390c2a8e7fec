package slurmfeed

import (
	"encoding/json"
	"fmt"
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
		// A member of a name read before the last one, as encoding/json
		// reads each (the output shallow, or deep).
		"a first jobs not JSON":         `{"jobs": [tru], "jobs": [{"job_id": "x"}]}`,
		"a first jobs not JSON, deep":   `{"jobs": [tru], "jobs": [` + nested(10001) + `]}`,
		"a first jobs no list, deep":    `{"Jobs": 5, "jobs": [` + nested(10001) + `]}`,
		"a first errors no list":        `{"errors": 5, "errors": [], "jobs": [{"job_id": "x"}]}`,
		"a first errors no list, deep":  `{"errors": 5, "errors": [], "jobs": [` + nested(10001) + `]}`,
		"a deep record's member":        `{"jobs": [{"job_id": tru, "x": ` + nested(10000) + `}]}`,
		"a deep record's member's form": `{"jobs": [{"job_id" 1, "x": ` + nested(10000) + `}]}`,
		// A member 10,000 deep, which encoding/json checks alone.
		"a member at the limit": `{"meta": ` + strings.Replace(nested(10000), "[]", "[tru]", 1) + `, "jobs": [` + nested(10001) + `]}`,
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

// TestSplitAgrees: an output holding a record nested beyond
// encoding/json's depth is read as the same output with that record
// shallow (the record, or one of its members, a list of a list): the
// poll fails exactly when it fails on the shallow output, always when
// encoding/json refuses that, and otherwise finds as many jobs. The outputs are
// the recording with members added before the others (another "jobs" or
// "errors", of any case, not JSON or of another kind) and mangled byte by
// byte; the deep value goes in last, so that its inside, which is not
// checked, is JSON.
func TestSplitAgrees(t *testing.T) {
	m := decodeOutput(t, readTestdata(t, "squeue-22.05.json"))
	var rec map[string]any
	for _, r := range m["jobs"].([]any) {
		if r := r.(map[string]any); r["job_id"] == rawNumberOf("7") {
			rec = r
		}
	}
	if rec == nil {
		t.Fatal("no job 7 in the recording")
	}
	var outs [][]byte // job 7 with a member "DEEP", or "DEEP" itself
	for _, f := range []string{"x", "name", "job_id"} {
		old := rec[f]
		rec[f] = "DEEP"
		outs = append(outs, encodeOutput(t, m))
		rec[f] = old
	}
	jobs := m["jobs"].([]any)
	for i := range jobs {
		if jobs[i].(map[string]any)["job_id"] == rawNumberOf("7") {
			jobs[i] = "DEEP"
		}
	}
	outs = append(outs, encodeOutput(t, m))
	cases := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		out := slices.Clone(rapid.SampledFrom(outs).Draw(rt, "output"))
		// One output in four is the recording as it is, read whether the
		// record is deep or shallow: of the others about one in four is
		// read (a harmless first member, edits that keep it JSON), and
		// the check below needs both kinds within the 20 checks of -short
		// (0.3% of seeds drew none read when every output was mangled).
		if rapid.IntRange(0, 3).Draw(rt, "mangle") > 0 {
			first := rapid.SampledFrom([]string{"", `"jobs": [tru],`, `"Jobs": 5,`, `"JOBS": [],`, `"jobſ": null,`,
				`"errors": 5,`, `"Errors": [],`, `"errors": [{"e": tru}],`, `"meta": [tru],`}).Draw(rt, "first")
			out = slices.Insert(out, 1, []byte(first)...)
			for range rapid.IntRange(0, 3).Draw(rt, "edits") {
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
		}
		shallow := strings.Replace(string(out), `"DEEP"`, `[[]]`, 1)
		deep := strings.Replace(string(out), `"DEEP"`, nested(10001), 1)
		want, werr := parseSqueue([]byte(shallow))
		got, err := parseSqueue([]byte(deep))
		if (err == nil) != (werr == nil) {
			rt.Fatalf("with the record deep: %v; shallow: %v", err, werr)
		}
		var whole jsonOutput[squeueErrors, []json.RawMessage]
		if jerr := json.Unmarshal([]byte(shallow), &whole); jerr != nil && err == nil {
			rt.Fatalf("read with the record deep; encoding/json refuses it shallow: %v", jerr)
		}
		if len(got) != len(want) {
			rt.Fatalf("with the record deep: %d jobs; shallow: %d", len(got), len(want))
		}
		cases[fmt.Sprint(err == nil, shallow != deep)]++
	})
	// Not vacuous: read and refused, with the record deep.
	if cases["true true"] == 0 || cases["false true"] == 0 {
		t.Errorf("cases (read, deep): %v", cases)
	}
}
