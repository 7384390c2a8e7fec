package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/examples/internal/slurmtest"
)

// site is the live check's cluster: ls's nodes and slurm.conf lines
// (conf), siteQOS and its accounts (workload.go) as slurmtest starts it.
func site(t *testing.T, ls *liveSite, conf string) *slurmtest.Site {
	t.Setenv("SLURM_CLUSTER_NODES", strconv.Itoa(ls.Nodes))
	s := &slurmtest.Site{CPUs: int(ls.CPUs), Conf: conf, QOS: siteQOS}
	accounts := ls.Accounts
	if accounts == nil {
		accounts = siteAccounts
	}
	for _, a := range accounts {
		sa := slurmtest.Account{Name: a.name, Shares: a.shares, Parent: ls.Parents[a.name]}
		for _, u := range a.users {
			sa.Users = append(sa.Users, slurmtest.User{Name: u.name, Shares: u.shares, QOS: u.qos})
		}
		s.Accounts = append(s.Accounts, sa)
	}
	return s
}

// sampler runs sprio every sampleEvery and watches the decay thread's
// state file until stopped.
type sampler struct {
	mu      sync.Mutex
	samples []sample
	decays  []int64
	err     error
}

func (s *sampler) run(ctx context.Context, env []string, decayFile string) {
	var last time.Time
	tick := time.NewTicker(sampleEvery / 4)
	defer tick.Stop()
	next := time.Now()
	for {
		if fi, err := os.Stat(decayFile); err == nil && !fi.ModTime().Equal(last) {
			last = fi.ModTime()
			s.mu.Lock()
			s.decays = append(s.decays, last.UnixMilli())
			s.mu.Unlock()
		}
		if now := time.Now(); !now.Before(next) {
			next = now.Add(sampleEvery)
			out, err := slurmtest.Cmd(ctx, env, "", "sprio", "-h", "-o", sprioFormat)
			s.mu.Lock()
			if err != nil && ctx.Err() == nil && s.err == nil {
				s.err = err
			}
			if err == nil && strings.TrimSpace(out) != "" {
				s.samples = append(s.samples, sample{T: now.UnixMilli(), Sprio: out})
			}
			s.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// TestLiveSlurmCheck runs the workload on a fresh private Slurm under
// the site of BATCHQ_SLURMCHECK_SITE (default liveSites[0]), records what Slurm did, and compares the Slurm policy and
// EASY with it (compare). With BATCHQ_UPDATE_README=1 it rewrites the
// default site's first recording (another site's run is refused: name
// its file), with BATCHQ_SLURMCHECK_RECORD=FILE it writes FILE
// (testdata/live2.json: the second); TestReadme then regenerates the
// README from the two.
func TestLiveSlurmCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the live Slurm check takes about five minutes")
	}
	// BATCHQ_SLURMCHECK_LOGS=DIR: slurmctld logs the main scheduler's and
	// backfill's decisions (debug level: it slows slurmctld down a little)
	// and its log is copied to DIR, to see why a job started when it did.
	logs := os.Getenv("BATCHQ_SLURMCHECK_LOGS")
	extra := ""
	if logs != "" {
		extra = "SlurmctldDebug=debug\nDebugFlags=Backfill,SelectType\nSlurmdDebug=debug\n"
	}
	ls := &liveSites[0]
	if name := os.Getenv("BATCHQ_SLURMCHECK_SITE"); name != "" {
		ls = nil
		for i := range liveSites {
			if liveSites[i].Name == name {
				ls = &liveSites[i]
			}
		}
		if ls == nil {
			t.Fatalf("BATCHQ_SLURMCHECK_SITE=%s: no such site", name)
		}
	}
	// Where the run goes, decided before minutes of Slurm are spent.
	recordTo, err := recordFile(ls)
	if err != nil {
		t.Fatal(err)
	}
	dir, env := site(t, ls, ls.conf()+extra).Start(t)
	if logs != "" {
		t.Cleanup(func() {
			// slurmctld's log and each slurmd's (when a node's job
			// ended, when its epilog completed).
			names, err := filepath.Glob(filepath.Join(dir, "log", "*.log"))
			for _, n := range names {
				b, rerr := os.ReadFile(n)
				if rerr == nil {
					rerr = os.WriteFile(filepath.Join(logs, filepath.Base(n)), b, 0o644)
				}
				err = cmp.Or(err, rerr)
			}
			if err != nil {
				t.Errorf("BATCHQ_SLURMCHECK_LOGS: %v", err)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	must := func(s string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rec := &recording{
		Note:     "A run of TestLiveSlurmCheck (examples/slurmcheck) on scripts/slurm-cluster.sh's private Slurm 22.05",
		Conf:     ls.conf() + nodeLines(t, dir),
		QOS:      must(slurmtest.Cmd(ctx, env, "", "sacctmgr", strings.Fields(qosArgs)...)),
		Shares:   must(slurmtest.Cmd(ctx, env, "", "sshare", strings.Fields(sshareArgs)...)),
		Workload: ls.Plan(),
	}
	decayFile := filepath.Join(dir, "state", "priority_last_decay_ran")
	if ls.Align > 0 {
		// The decay thread writes its state file at each run; the
		// workload starts Align seconds after the next one.
		var fi os.FileInfo
		var err error
		for end := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
			if fi, err = os.Stat(decayFile); err == nil || time.Now().After(end) {
				break
			}
		}
		if err != nil {
			t.Fatalf("the decay thread did not run: %v", err)
		}
		at := fi.ModTime().Truncate(time.Second).Add(time.Duration(ls.Align) * time.Second)
		for time.Until(at) < time.Second {
			at = at.Add(time.Minute)
		}
		t.Logf("the workload starts %v from now, %d s after a decay run", time.Until(at).Round(time.Second), ls.Align)
		time.Sleep(time.Until(at))
	}

	sctx, stopSampling := context.WithCancel(ctx)
	smp := &sampler{}
	sampled := make(chan struct{})
	go func() { smp.run(sctx, env, decayFile); close(sampled) }()
	defer func() { stopSampling(); <-sampled }()

	jobDir := filepath.Join(os.TempDir())
	start := time.Now()
	for i, j := range rec.Workload {
		time.Sleep(time.Until(start.Add(time.Duration(j.At) * time.Millisecond)))
		rec.Submitted = append(rec.Submitted, time.Now().UnixMilli())
		args := []string{"--parsable", "-A", j.Account, "-p", j.Partition, "-q", j.QOS,
			"-c", strconv.FormatInt(j.CPUs, 10), "-t", strconv.FormatInt(j.Limit, 10), "-J", fmt.Sprintf("sc-%d", i),
			"-D", jobDir, "-o", "/dev/null", "--wrap", fmt.Sprintf("sleep %d", j.Sleep)}
		if j.Mem > 0 {
			args = append(args, fmt.Sprintf("--mem=%dM", j.Mem))
		}
		if j.GPUs > 0 {
			args = append(args, fmt.Sprintf("--gres=gpu:%d", j.GPUs))
		}
		if j.Exclusive {
			args = append(args, "--exclusive")
		}
		out, err := slurmtest.Cmd(ctx, env, j.User, "sbatch", args...)
		if err != nil {
			t.Fatalf("job %d: %v", i, err)
		}
		rec.IDs = append(rec.IDs, strings.TrimSpace(out))
	}
	t.Logf("%d jobs submitted in %v", len(rec.IDs), time.Since(start).Round(time.Second))
	slurmtest.Drain(t, env, 4*time.Minute, nil)
	// One more sample period, for the decay file's last write.
	time.Sleep(sampleEvery)
	stopSampling()
	<-sampled
	if smp.err != nil {
		t.Fatal(smp.err)
	}
	rec.Samples, rec.Decays = smp.samples, smp.decays
	rec.Sacct = must(slurmtest.Cmd(ctx, env, "", "sacct", "-a", "-X", "-P", "--starttime", "now-1hour", "-o", sacctTRESFormat))
	rec.SharesEnd = must(slurmtest.Cmd(ctx, env, "", "sshare", strings.Fields(sshareArgs)...))
	logText, err := os.ReadFile(filepath.Join(dir, "log", "slurmctld.log"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Log, err = parseCtldLog(string(logText), time.Local); err != nil {
		t.Fatal(err)
	}
	t.Logf("run took %v; %d priority samples, %d decay runs", time.Since(start).Round(time.Second), len(rec.Samples), len(rec.Decays))
	// The run is written before it is compared: minutes of Slurm are
	// not lost to an error of the comparison.
	writeRecording(t, rec, recordTo)
	res, err := compare(rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the fresh run:\n%s", table(res))
	checkGoals(t, res)
}

// recordFile is where the live run of site ls is written:
// BATCHQ_SLURMCHECK_RECORD's file, or with BATCHQ_UPDATE_README=1 the
// first recording of the default site (recordPath); "" for nowhere.
// BATCHQ_UPDATE_README=1 on another site is refused: it wrote that
// site's run over the default site's recording, whose README region
// then compared two different workloads.
func recordFile(ls *liveSite) (string, error) {
	// BATCHQ_SLURMCHECK_RECORD=FILE keeps the fresh run in FILE without
	// touching the committed recordings (the second recording,
	// testdata/live2.json, was made so: BATCHQ_SLURMCHECK_RECORD=
	// testdata/live2.json).
	if path := os.Getenv("BATCHQ_SLURMCHECK_RECORD"); path != "" {
		return path, nil
	}
	if os.Getenv(readme.UpdateEnv) != "1" {
		return "", nil
	}
	if ls != &liveSites[0] {
		return "", fmt.Errorf("%s=1 rewrites %s, site %s's recording, not site %s's: name the file with BATCHQ_SLURMCHECK_RECORD=FILE",
			readme.UpdateEnv, recordPath, liveSites[0].Name, ls.Name)
	}
	return recordPath, nil
}

// writeRecording writes rec to path (recordFile's), nowhere if "".
func writeRecording(t *testing.T, rec *recording, path string) {
	t.Helper()
	if path != "" {
		b, err := json.MarshalIndent(rec, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s written; TestReadme regenerates the README's table from the recordings", path)
	}
}

// nodeLines are the NodeName lines of the cluster's slurm.conf without
// their Port= (each run picks free ports; they name no path of the
// machine).
func nodeLines(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "etc", "slurm.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "NodeName=") {
			f := strings.Fields(l)
			f = slices.DeleteFunc(f, func(s string) bool { return strings.HasPrefix(s, "Port=") })
			out.WriteString(strings.Join(f, " ") + "\n")
		}
	}
	if out.Len() == 0 {
		t.Fatal("slurm.conf has no NodeName line")
	}
	return out.String()
}

// checkGoals reports the fresh run against the goals for the
// Slurm policy (≥ 95% of competing pairs in Slurm's order, ≥ 90% of jobs
// within one bf_interval) and fails if the policy does not beat plain
// EASY on both: the goals are what the policy aims at, the comparison
// with EASY what it must not lose.
func checkGoals(t *testing.T, r *result) {
	t.Helper()
	var pol, easy *figures
	for i := range r.Figures {
		switch f := &r.Figures[i]; {
		case f.Name == slurmName:
			pol = f
		case strings.HasPrefix(f.Name, "EASY"):
			easy = f
		}
	}
	if pol == nil || easy == nil {
		t.Fatalf("the comparison lacks the Slurm policy or EASY: %+v", r.Figures)
	}
	if pol.Agree < goalAgree {
		t.Logf("goal not met: %.1f%% of competing pairs in Slurm's order, goal ≥ %.0f%%", 100*pol.Agree, 100*goalAgree)
	}
	if pol.Within < goalWithin {
		t.Logf("goal not met: %.1f%% of jobs within bf_interval, goal ≥ %.0f%%", 100*pol.Within, 100*goalWithin)
	}
	if pol.Agree <= easy.Agree || pol.Within <= easy.Within {
		t.Errorf("the Slurm policy does not beat EASY: order %.1f%% vs %.1f%%, within bf_interval %.1f%% vs %.1f%%",
			100*pol.Agree, 100*easy.Agree, 100*pol.Within, 100*easy.Within)
	}
}
