package slurmfeed

import (
	"fmt"
	"testing"
)

// TestJobID65535: NO_VAL16 and INFINITE16 (65534, 65535) are sentinels of
// Slurm's 16-bit fields only; the fields the feed reads are 32-bit or
// wider, where 65534 and 65535 are values: job 65535, a limit of 65534
// minutes (45 days), a priority of 65535.
func TestJobID65535(t *testing.T) {
	for _, form := range []string{"%d", `{"set":true,"infinite":false,"number":%d}`} {
		n := func(v int64) string { return fmt.Sprintf(form, v) }
		out := fmt.Sprintf(`{"errors":[],"jobs":[{"job_id":%s,"array_job_id":%s,"job_state":"PENDING","submit_time":%s,`+
			`"start_time":%s,"end_time":%s,"time_limit":%s,"partition":"long","cpus":%s,"priority":%s,"nodes":""}]}`,
			n(65535), n(0), n(t0), n(0), n(0), n(65534), n(2), n(65535))
		jobs, err := parseSqueue([]byte(out))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 1 {
			t.Fatalf("%d jobs", len(jobs))
		}
		j := jobs[0]
		if j.bad != "" || j.key != "65535" || j.id != 65535 || j.wall != 65534*60 || j.priority != 65535 {
			t.Errorf("%s: job %q id %d bad %q wall %d priority %d, want 65535, limit 65534 min, priority 65535",
				form, j.key, j.id, j.bad, j.wall, j.priority)
		}
	}
}
