package slurmfeed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/slurmjson"
	"pgregory.net/rapid"
)

// decodeOutput reads a recorded --json output as generic JSON, numbers
// kept as written.
func decodeOutput(t fataler, b []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encodeOutput(t fataler, m map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fataler is what of testing.TB and *rapid.T the helpers use.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// rawNumber is a JSON number as written, such as 1e300, which a float
// would print otherwise.
type rawNumber string

func (n rawNumber) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// to23 rewrites a 22.05 record of squeue --json (sacct: false) or sacct
// --json (true) in the forms of Slurm 23.02 and later: numbers as
// {"set","infinite","number"} objects (22.05's null, 0 for an unset start,
// as {"set":false}), the state as a list of its base state and flags.
func to23(rec map[string]any, sacct bool) {
	obj := func(v any) any {
		if v == nil {
			return map[string]any{"set": false, "infinite": false, "number": 0}
		}
		return map[string]any{"set": true, "infinite": false, "number": v}
	}
	if sacct {
		rec["array"].(map[string]any)["task_id"] = obj(rec["array"].(map[string]any)["task_id"])
		tm := rec["time"].(map[string]any)
		tm["limit"] = obj(tm["limit"])
		st := rec["state"].(map[string]any)
		st["current"] = []any{st["current"]}
		return
	}
	for _, k := range []string{"array_job_id", "array_task_id", "submit_time", "start_time", "end_time", "time_limit", "priority", "cpus"} {
		v := rec[k]
		if k == "start_time" && v == json.Number("0") {
			v = nil
		}
		rec[k] = obj(v)
	}
	rec["job_state"] = []any{rec["job_state"], "COMPLETING"}
}

// TestSqueueBadRecord: one record squeue --json prints that cannot be
// read (a job id past 2^64, a time of 1e300, "Unknown" for a time, a
// state that is an object) is a bad job, with its reason, under its job
// id when that can be read; the other jobs of the poll are read as
// without it. The recorded poll failed whole for each, so did every later
// poll while the job was queued.
func TestSqueueBadRecord(t *testing.T) {
	orig := readTestdata(t, "squeue-22.05.json")
	want, err := parseSqueue(orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		field     string
		value     any
		key, want string
	}{
		{"job_id", rawNumber("18446744073709551621"), `job_id "18446744073709551621"`, `job_id: "18446744073709551621" out of range`},
		{"job_id", "x", `job_id "x"`, `job_id: "x" is not a whole number`},
		{"submit_time", rawNumber("1e300"), "7", `submit_time: "1e300" out of range`},
		{"start_time", "Unknown", "7", `start_time: "Unknown" is not a whole number`},
		{"end_time", []any{1}, "7", `end_time: "[1]" is not a whole number`},
		{"job_state", map[string]any{"x": 1}, "7", "unknown job state"},
		{"job_state", 5, "7", `job_state: "5" is not a job state`},
		{"partition", 5, "7", `partition: "5" is not a string`},
		{"time_limit", true, "7", `time_limit: "true" is not a whole number`},
		{"cpus", rawNumber("2.5"), "7", `cpus: "2.5" is not a whole number`},
		{"priority", rawNumber("1e300"), "7", `priority: "1e300" out of range`},
		{"cpus", map[string]any{"set": "yes"}, "7", "cpus"},
	} {
		m := decodeOutput(t, orig)
		jobs := m["jobs"].([]any)
		const at = 6 // job 7, waiting
		jobs[at].(map[string]any)[c.field] = c.value
		got, err := parseSqueue(encodeOutput(t, m))
		if err != nil {
			t.Errorf("%s %v: the poll fails: %v", c.field, c.value, err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s %v: %d jobs, want %d", c.field, c.value, len(got), len(want))
			continue
		}
		for i := range got {
			if i == at {
				if got[i].key != c.key || !strings.Contains(got[i].bad, c.want) {
					t.Errorf("%s %v: job %q bad %q, want job %q bad %q", c.field, c.value, got[i].key, got[i].bad, c.key, c.want)
				}
				continue
			}
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s %v: another job changed: %+v, was %+v", c.field, c.value, got[i], want[i])
			}
		}
	}
}

// TestSacctBadRecord is TestSqueueBadRecord for sacct --json.
func TestSacctBadRecord(t *testing.T) {
	orig := readTestdata(t, "sacct-22.05.json")
	want, err := parseSacct(orig)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set       func(rec map[string]any)
		key, want string
	}{
		{func(r map[string]any) { r["job_id"] = rawNumber("18446744073709551621") }, `job_id "18446744073709551621"`, "is not a job id"},
		{func(r map[string]any) { r["time"].(map[string]any)["submission"] = rawNumber("1e300") }, "3", `time.submission: "1e300" out of range`},
		{func(r map[string]any) { r["time"].(map[string]any)["start"] = "Unknown" }, "3", `time.start: "Unknown" is not a whole number`},
		{func(r map[string]any) { r["time"] = "soon" }, "3", `time: "soon" is not a JSON object`},
		{func(r map[string]any) { r["tres"].(map[string]any)["allocated"] = 5 }, "3", "tres.allocated"},
	} {
		m := decodeOutput(t, orig)
		var at int
		for i, r := range m["jobs"].([]any) {
			if r.(map[string]any)["job_id"] == json.Number("3") {
				at = i
				c.set(r.(map[string]any))
			}
		}
		got, err := parseSacct(encodeOutput(t, m))
		if err != nil || len(got) != len(want) {
			t.Errorf("%s: %d jobs, %v; want %d", c.want, len(got), err, len(want))
			continue
		}
		// sacct leaves out waiting jobs: find job 3 by its place among those kept.
		k := slicesIndexKey(want, "3")
		for i := range got {
			if i == k {
				if got[i].key != c.key || !strings.Contains(got[i].bad, c.want) {
					t.Errorf("record %d: job %q bad %q, want job %q bad %q", at, got[i].key, got[i].bad, c.key, c.want)
				}
				continue
			}
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s: another job changed: %+v, was %+v", c.want, got[i], want[i])
			}
		}
	}
}

func slicesIndexKey(jobs []job, key string) int {
	for i, j := range jobs {
		if j.key == key {
			return i
		}
	}
	return -1
}

// TestSlurm23Forms: the recorded polls rewritten in the forms of Slurm
// 23.02 and later (numbers as {"set","infinite","number"} objects, states
// as lists) read as the 22.05 ones do, job for job; every poll failed on
// them ("cannot unmarshal object into ... end_time").
func TestSlurm23Forms(t *testing.T) {
	for _, c := range []struct {
		file  string
		sacct bool
	}{{"squeue-22.05.json", false}, {"squeue-gpu-22.05.json", false}, {"sacct-22.05.json", true}, {"sacct-gpu-22.05.json", true}} {
		orig := readTestdata(t, c.file)
		parse := parseSqueue
		if c.sacct {
			parse = parseSacct
		}
		want, err := parse(orig)
		if err != nil {
			t.Fatal(err)
		}
		m := decodeOutput(t, orig)
		for _, r := range m["jobs"].([]any) {
			to23(r.(map[string]any), c.sacct)
		}
		got, err := parse(encodeOutput(t, m))
		if err != nil {
			t.Errorf("%s in 23.02's forms: %v", c.file, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s in 23.02's forms:\n%+v\nwant\n%+v", c.file, got, want)
		}
	}
}

// TestSlurm23NoValue: what an unset ("set": false) or infinite value
// means in each field squeue --json's records are read from.
func TestSlurm23NoValue(t *testing.T) {
	unset := `{"set":false,"infinite":false,"number":0}`
	inf := `{"set":true,"infinite":true,"number":0}`
	rec := func(state, field, v string) []byte {
		r := map[string]string{
			"job_id": "7", "job_state": `["` + state + `"]`, "submit_time": "100", "start_time": "200", "end_time": "300",
			"time_limit": "5", "priority": "9", "cpus": "2", "partition": `"short"`, "nodes": `"n1"`,
		}
		r[field] = v
		var b strings.Builder
		b.WriteString(`{"jobs":[{`)
		first := true
		for k, v := range r {
			if !first {
				b.WriteString(",")
			}
			first = false
			fmt.Fprintf(&b, "%q:%s", k, v)
		}
		b.WriteString(`}]}`)
		return []byte(b.String())
	}
	for _, c := range []struct {
		state, field, v string
		want            string // the job as read
	}{
		{"PENDING", "start_time", unset, "estimate=0 bad="},            // no expected start yet: normal
		{"PENDING", "start_time", inf, "estimate=0 bad="},              // as unset
		{"PENDING", "end_time", unset, "estimate=200 bad="},            // not read for a waiting job
		{"PENDING", "priority", unset, "estimate=200 priority=0 bad="}, // no priority
		{"PENDING", "priority", inf, "estimate=200 priority=0 bad="},
		{"PENDING", "time_limit", unset, "wall=-1 bad="}, // NO_VAL: the partition's limit
		{"PENDING", "time_limit", inf, "wall=0 bad="},    // INFINITE: none
		{"PENDING", "cpus", unset, "cores=0 bad="},       // then from the TRES (none here): skipped by the collector
		{"PENDING", "submit_time", unset, "bad=squeue: no submit time"},
		{"PENDING", "submit_time", inf, "bad=squeue: no submit time"},
		{"PENDING", "job_id", unset, "bad=squeue: job_id: unset is not a job id"},
		{"PENDING", "job_id", inf, "bad=squeue: job_id: infinite is not a job id"},
		{"RUNNING", "start_time", unset, `bad=squeue: "RUNNING" job without its start time`},
		{"RUNNING", "end_time", inf, "started=true start=200 bad="}, // the expected end: not read
		{"COMPLETED", "end_time", unset, `bad=squeue: "COMPLETED" job without its end time`},
		{"COMPLETED", "start_time", unset, "started=false start=0 ended=true end=300 bad="}, // never given a start: as a job cancelled waiting
		{"PENDING", "array_job_id", unset, "key=7 bad="},                                    // not an array
		{"PENDING", "array_task_id", unset, "key=7 bad="},
	} {
		jobs, err := parseSqueue(rec(c.state, c.field, c.v))
		if err != nil || len(jobs) != 1 {
			t.Errorf("%s %s %s: %v, %d jobs", c.state, c.field, c.v, err, len(jobs))
			continue
		}
		j := jobs[0]
		got := fmt.Sprintf("key=%s estimate=%d priority=%d wall=%d cores=%d started=%v start=%d ended=%v end=%d bad=%s",
			j.key, j.estimate, j.priority, j.wall, j.cores, j.started, j.start, j.ended, j.end, j.bad)
		wantBad := c.want[strings.Index(c.want, "bad=")+len("bad="):]
		if j.bad != wantBad || !strings.Contains(got, strings.TrimSpace(c.want[:strings.Index(c.want, "bad=")])) {
			t.Errorf("%s %s %s: got %s\nwant %s", c.state, c.field, c.v, got, c.want)
		}
	}
}

// TestPollOfMutatedJobs: a poll in which any of the jobs have arbitrary
// values in the fields the feed reads, in either version's forms, never
// fails and never panics, and each record reads as it reads alone: a
// record that cannot be read takes nothing from the others. Every record
// comes back as at least one job (none dropped).
func TestPollOfMutatedJobs(t *testing.T) {
	for _, c := range []struct {
		file  string
		sacct bool
	}{{"squeue-22.05.json", false}, {"squeue-gpu-22.05.json", false}, {"sacct-22.05.json", true}} {
		orig := readTestdata(t, c.file)
		parse := parseSqueue
		fields := []string{"job_id", "array_job_id", "array_task_id", "array_task_string", "job_state", "submit_time",
			"start_time", "end_time", "time_limit", "partition", "cpus", "tres_req_str", "tres_alloc_str", "nodes",
			"user_name", "account", "name", "priority"}
		if c.sacct {
			parse = parseSacct
			fields = []string{"job_id", "array", "state", "time", "partition", "required", "tres", "user", "account", "name"}
		}
		value := rapid.OneOf(
			rapid.Just[any](nil), rapid.Just[any](rawNumber("18446744073709551621")), rapid.Just[any](rawNumber("1e300")),
			rapid.Just[any](rawNumber("-1e300")), rapid.Just[any](rawNumber("4294967294")), rapid.Just[any](rawNumber("4294967295")),
			rapid.Just[any]("Unknown"), rapid.Just[any](""), rapid.Just[any](true), rapid.Just[any]([]any{}),
			rapid.Just[any]([]any{"PENDING", "COMPLETING"}), rapid.Just[any](map[string]any{}),
			rapid.Just[any](map[string]any{"current": "COMPLETED", "submission": "x", "start": 1e300, "limit": true}),
			rapid.Map(rapid.Int64(), func(v int64) any { return v }),
			rapid.Map(rapid.Float64(), func(v float64) any { return rawNumber(fmt.Sprint(v)) }),
			rapid.Map(rapid.String(), func(v string) any { return v }),
			rapid.Custom(func(t *rapid.T) any {
				return map[string]any{"set": rapid.Bool().Draw(t, "set"), "infinite": rapid.Bool().Draw(t, "infinite"),
					"number": rapid.Int64().Draw(t, "number")}
			}),
		)
		t.Run(c.file, func(t *testing.T) {
			var mutated, unread int
			rapid.Check(t, func(rt *rapid.T) {
				m := decodeOutput(rt, orig)
				recs := m["jobs"].([]any)
				for i, r := range recs {
					rec := r.(map[string]any)
					if rapid.Bool().Draw(rt, fmt.Sprintf("23.02 form %d", i)) {
						to23(rec, c.sacct)
					}
					if rapid.IntRange(0, 3).Draw(rt, fmt.Sprintf("mutate %d", i)) == 0 {
						f := rapid.SampledFrom(fields).Draw(rt, fmt.Sprintf("field %d", i))
						rec[f] = value.Draw(rt, fmt.Sprintf("value %d", i))
						mutated++
					}
				}
				got, err := parse(encodeOutput(rt, m))
				if err != nil {
					rt.Fatalf("the poll fails: %v", err)
				}
				checkJobs(t, got)
				var alone []job
				for _, r := range recs {
					one, err := parse(encodeOutput(rt, map[string]any{"jobs": []any{r}}))
					if err != nil {
						rt.Fatalf("a record alone fails: %v", err)
					}
					if len(one) == 0 && !(c.sacct && stateClass(one0State(r)) == "waiting") {
						rt.Fatalf("record %v: no job", r)
					}
					for _, j := range one {
						if strings.Contains(j.bad, " is not ") {
							unread++
						}
					}
					alone = append(alone, one...)
				}
				if !reflect.DeepEqual(got, alone) {
					rt.Fatalf("the poll reads\n%+v\nits records alone\n%+v", got, alone)
				}
			})
			if mutated == 0 || unread == 0 {
				t.Errorf("%d records mutated, %d unreadable: the test drew nothing to test", mutated, unread)
			}
		})
	}
}

// one0State is the base state of a sacct record as the parser reads it
// ("" when unreadable).
func one0State(r any) string {
	b, _ := json.Marshal(r)
	var rec struct {
		State slurmjson.State `json:"state"`
	}
	if json.Unmarshal(b, &rec) != nil {
		return ""
	}
	return rec.State.First()
}
