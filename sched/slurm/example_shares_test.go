package slurm_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

// A site's fair-share tree read from sshare, and where jobs land in it.
// ReadShares reads the tree, not the usage: a run that starts from the
// site's usage sets RawUsage from sshare's column (here alice's in
// physics). A job runs as its user (SWF field 12, named by UserNames)
// under its account (field 13, AccountNames); a job without an account
// the tree gives its user runs under the user's first account (alice's
// physics, which has used the machine), and a user the tree lacks gets
// one share of its own right under root (carol). The priorities are
// sprio's while the jobs wait behind one on the whole machine.
func ExampleConfig_ReadShares() {
	sshare := `Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare
root|||0.000000|3600000|1.000000|0.500000
 physics||1|0.500000|3600000|1.000000|
  physics|alice|1|1.000000|3600000|1.000000|0.000000
 chem||1|0.500000|0|0.000000|
  chem|alice|1|0.500000|0|0.000000|1.000000
  chem|bob|1|0.500000|0|0.000000|1.000000
`
	site := slurm.Config{WeightFairshare: 1000}
	if err := site.ReadShares(strings.NewReader(sshare)); err != nil {
		log.Fatal(err)
	}
	for _, a := range site.Associations {
		fmt.Printf("%q under %q: user %q, %d shares, usage %.0f\n", a.Account, a.Parent, a.User, a.Shares, a.RawUsage)
	}
	site.Associations[1].RawUsage = 3600000 // alice in physics, as sshare says
	site.UserNames = map[int64]string{1: "alice", 2: "bob", 3: "carol"}
	site.AccountNames = map[int64]string{1: "chem"}
	p, err := slurm.New(site, sched.Config{MachineSize: 4})
	if err != nil {
		log.Fatal(err)
	}
	job := func(id, user, account int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.User, j.Group, j.AllocProcs, j.RunTime, j.ReqTime = id, 0, user, account, 4, 600, 600
		return j
	}
	var prio []string
	obs := sched.Hooks{Start: func(now int64, j *swf.Job, _ bool) {
		if j.ID == 1 { // the others wait: read their priorities
			for _, id := range []int64{2, 3, 4, 5} {
				pr, _ := p.Priority(id)
				prio = append(prio, fmt.Sprint(pr))
			}
		}
	}}
	jobs := []swf.Job{job(1, 2, 1), job(2, 1, -1), job(3, 1, 1), job(4, 2, 1), job(5, 3, -1)}
	if _, err := p.Run(context.Background(), jobs, obs); err != nil {
		log.Fatal(err)
	}
	fmt.Println("alice (no account), alice in chem, bob in chem, carol:", strings.Join(prio, ", "))
	// Output:
	// "physics" under "": user "", 1 shares, usage 0
	// "physics" under "": user "alice", 1 shares, usage 0
	// "chem" under "": user "", 1 shares, usage 0
	// "chem" under "": user "alice", 1 shares, usage 0
	// "chem" under "": user "bob", 1 shares, usage 0
	// alice (no account), alice in chem, bob in chem, carol: 250, 1000, 1000, 1000
}
