package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// fixedRunner answers every command with its output.
type fixedRunner map[string]string

func (f fixedRunner) Run(_ context.Context, name string, _ ...string) ([]byte, error) {
	return []byte(f[name]), nil
}

// TestRecordCompact: a recording keeps a JSON output compacted (the same
// value) and any other output as printed.
func TestRecordCompact(t *testing.T) {
	outs := fixedRunner{
		"squeue":   "{\n  \"jobs\": [\n    {\"job_id\": 7, \"name\": \"a  b\\n\"}\n  ],\n  \"errors\": []\n}\n",
		"scontrol": "PartitionName=short  MaxTime=00:02:00\n",
	}
	p := filepath.Join(t.TempDir(), "rec.jsonl.gz")
	rec, err := newRecorder(p, outs)
	if err != nil {
		t.Fatal(err)
	}
	rec.clock()
	for _, name := range []string{"squeue", "scontrol"} {
		if out, err := rec.Run(context.Background(), name); err != nil || string(out) != outs[name] {
			t.Fatalf("%s: the recorder gave %q, %v; want what it ran printed", name, out, err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := readRecording(p)
	if err != nil {
		t.Fatal(err)
	}
	got := back.polls[0]
	if want := `{"jobs":[{"job_id":7,"name":"a  b\n"}],"errors":[]}`; got[0].Out != want {
		t.Errorf("squeue: recorded %q, want %q", got[0].Out, want)
	}
	var a, b any
	if json.Unmarshal([]byte(got[0].Out), &a) != nil || json.Unmarshal([]byte(outs["squeue"]), &b) != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("squeue: the recorded value %v is not the printed one %v", a, b)
	}
	if got[1].Out != outs["scontrol"] {
		t.Errorf("scontrol: recorded %q, want %q as printed", got[1].Out, outs["scontrol"])
	}
}
