package convert

import (
	"errors"
	"strings"
	"testing"
)

// TestBareJobObjectNamedJSON: a JSON document without "jobs" but with a
// job's keys (one job object alone, as Slurm-web's own API returns it)
// is neither sacct --json's nor slurmrestd's. -from slurmrestd called it
// "sacct --json output ... run with -from sacct-json", and -from
// sacct-json then refused it as "JSON of another kind": advice that led
// nowhere. Both now name it JSON of another kind.
func TestBareJobObjectNamedJSON(t *testing.T) {
	const in = `{"job_id": 7, "time": {"submission": 1700000000, "start": 1700000010}, "tres": {"requested": []}, "steps": []}`
	_, err := QueueSnapshot(strings.NewReader(in), Options{})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Saw != "json" || strings.Contains(err.Error(), "sacct --json output") {
		t.Errorf("slurmrestd: %v", err)
	}
	_, err = SacctJSON(strings.NewReader(in), Options{})
	if !errors.As(err, &fe) || fe.Saw != "json" {
		t.Errorf("sacct-json: %v", err)
	}
}
