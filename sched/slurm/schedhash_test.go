package slurm_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// scheduleHashes pins the policy's schedules on two archive logs: every
// start (time, job, backfilled or not, the priority it starts with),
// every reservation backfill told the simulator, and every end. A change
// meant to make the policy faster, not different, keeps them; one that
// changes the model updates them and says why. Last updated for the main
// scheduler run the background loop makes while no job waits, which is
// its last run for batch_sched_delay (loopRan, TestLoopRunWhileIdle): a
// job submitted soon after an idle run no longer starts at once; then the
// Fair Tree pins for the periodic runs made while no job waits, which are
// the loop's last runs too (TestLoopRunAfterIdlePeriodic); then the
// classic pins (an Epilog) for the run an end asks at once while no job
// waits, made then rather than at the next submission
// (TestEpilogRunWhileIdle); then the classic pins (SchedMinInterval 2)
// for sched_min_interval holding back the scheduler thread's runs only:
// a periodic tick the thread holds back clears the queued run and is
// made when the thread may run, and the loop's delays count from its
// ticks (TestHeldPeriodicRun, TestHeldQueuedRun): 36 of KTH-SP2's 28,475
// starts moved (34 by 1–2 s, either way) and 60 of SDSC-BLUE's 232,562
// (all by 1–2 s), none changing scheduler; the Fair Tree pins, without
// one, did not move. Then all four for slurmctld's 30 s time-limit check
// (Config.KillCheck, TestKillCheck): a job is killed at the first check at
// or after its limit, so a job that overran its limit by less ends on its
// own: killed jobs went from 475 to 205 (Fair Tree) and 189 (classic) on
// KTH-SP2 and from 23,434 to 22,605 and 22,615 on SDSC-BLUE. The old pins
// are still the schedules of a negative KillCheck ("kill at once").
var scheduleHashes = map[string]string{
	"KTH-SP2 fairtree":                "f39d12419c1de689",
	"KTH-SP2 classic":                 "1d9b5a96ca1c19a0",
	"SDSC-BLUE fairtree":              "f71954b36d3f32f2",
	"SDSC-BLUE classic":               "b573df84c79a2aec",
	"KTH-SP2 fairtree kill at once":   "4920a64595d9b4bb",
	"KTH-SP2 classic kill at once":    "7fa073a64fcc9db8",
	"SDSC-BLUE fairtree kill at once": "05e6da86b8f709df",
	"SDSC-BLUE classic kill at once":  "b97e025cfdfe0cb1",
}

// scheduleSummaries pins the killed jobs and mean waits of the runs
// hashed.
var scheduleSummaries = map[string]string{
	"KTH-SP2 fairtree":                "killed 205, mean wait 5767.3 s",
	"KTH-SP2 classic":                 "killed 189, mean wait 5966.4 s",
	"SDSC-BLUE fairtree":              "killed 22605, mean wait 5559.1 s",
	"SDSC-BLUE classic":               "killed 22615, mean wait 6039.0 s",
	"KTH-SP2 fairtree kill at once":   "killed 475, mean wait 5750.2 s",
	"KTH-SP2 classic kill at once":    "killed 475, mean wait 5995.3 s",
	"SDSC-BLUE fairtree kill at once": "killed 23434, mean wait 5332.5 s",
	"SDSC-BLUE classic kill at once":  "killed 23434, mean wait 6105.4 s",
}

// hashSites are the configurations hashed: the benchmark's (Fair Tree),
// and classic fair share with end charging, an Epilog, bf_max_job_user
// and a sched_min_interval.
var hashSites = []struct {
	name string
	site slurm.Config
}{
	{"fairtree", slurm.Config{WeightAge: 1000, WeightFairshare: 10000, WeightJobSize: 1000}},
	{"classic", slurm.Config{WeightAge: 1000, WeightFairshare: 10000, WeightJobSize: 1000,
		ClassicFairshare: true, EnforceLimits: true, Epilog: true, BackfillMaxJobUser: 20,
		SchedMinInterval: 2, BackfillInterval: 60}},
}

// scheduleHash is the hash of the run's schedule, with its killed jobs
// and mean wait ("killed 205, mean wait 5767.3 s").
func scheduleHash(t *testing.T, site slurm.Config, machine sched.Config, jobs []swf.Job) (string, string) {
	t.Helper()
	p, err := slurm.New(site, machine)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var b [8]byte
	put := func(vs ...int64) {
		for _, v := range vs {
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			h.Write(b[:])
		}
	}
	obs := sched.Hooks{
		Start: func(now int64, j *swf.Job, backfilled bool) {
			pr, _ := p.Priority(j.ID)
			bf := int64(0)
			if backfilled {
				bf = 1
			}
			put(1, now, j.ID, bf, pr)
		},
		Reservation: func(now int64, j *swf.Job, at int64) { put(2, now, j.ID, at) },
		End: func(now int64, j *swf.Job, cancelled bool) {
			c := int64(0)
			if cancelled {
				c = 1
			}
			put(3, now, j.ID, c)
		},
	}
	res, err := p.Run(context.Background(), jobs, obs)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%016x", h.Sum64()), fmt.Sprintf("killed %d, mean wait %.1f s", res.Summary.Killed, res.Summary.MeanWait)
}

// TestScheduleHashes runs KTH-SP2 and SDSC-BLUE under each of hashSites
// (about 5 s; skipped with -short), with slurmctld's 30 s limit check
// and killing at the limit at once, and pins their killed jobs and mean
// waits.
func TestScheduleHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: eight whole-trace runs (about 5 s)")
	}
	for _, tc := range []struct {
		trace string
		P     int64
	}{{tracetest.KTH, 100}, {tracetest.SDSCBlue, 1152}} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, tc.trace))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range hashSites {
			for _, atOnce := range []bool{false, true} {
				key, site := tracetest.ShortName(tc.trace)+" "+s.name, s.site
				if atOnce {
					key, site.KillCheck = key+" kill at once", -1
				}
				got, sum := scheduleHash(t, site, sched.Config{MachineSize: tc.P}, jobs)
				if want, ok := scheduleHashes[key]; !ok || got != want {
					t.Errorf("%q: %q, pinned %q", key, got, want)
				}
				if want := scheduleSummaries[key]; sum != want {
					t.Errorf("%q: %s, pinned %q", key, sum, want)
				}
			}
		}
	}
}
