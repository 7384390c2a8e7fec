package forecast

import (
	"math"

	"github.com/batchq/batchq/swf"
)

// UserRatio is a learned run-time predictor (a sched.RuntimePredictor):
// each user's estimate scaled by a moving average of that user's
// log(run time / estimate) over their ended jobs (the newest weighing 30%),
// the same over all users until the user has ended a job; capped at the
// estimate, which kills the job anyway. A job without an estimate gets
// the user's moving average of log run time. Unlike the user-history
// window of EASY++ (the last two run times), it carries over between
// estimates of different sizes: a user who asks for 10 hours and runs 1
// is predicted 1 hour for the next 2-hour request too. The zero value is
// ready; not safe for concurrent use. A job without a user (SWF's −1)
// is a user never seen, predicted by everybody's average, and teaches
// that average only: no trace's user-less jobs are one user.
type UserRatio struct {
	users map[int64]*ratioAvg
	all   ratioAvg
}

// ratioAvg is one user's (or everybody's) moving averages.
type ratioAvg struct {
	logRatio, logRun float64
	n                int
}

// ratioStep is the weight of the newest ended job.
const ratioStep = 0.3

func (a *ratioAvg) add(lr, run float64) {
	if a.n == 0 {
		a.logRatio, a.logRun = lr, run
	} else {
		a.logRatio += ratioStep * (lr - a.logRatio)
		a.logRun += ratioStep * (run - a.logRun)
	}
	a.n++
}

// Predict returns j's predicted run time in seconds.
func (u *UserRatio) Predict(j *swf.Job, _ int64) int64 {
	var a *ratioAvg
	if j.User >= 0 {
		a = u.users[j.User]
	}
	if a == nil || a.n == 0 {
		a = &u.all
	}
	e := j.ReqTime
	if e <= 0 {
		if a.n == 0 {
			return 1
		}
		return max(int64(math.Round(math.Exp(a.logRun))), 1)
	}
	if a.n == 0 {
		return e
	}
	return min(max(int64(math.Round(float64(e)*math.Exp(a.logRatio))), 1), e)
}

// Terminated learns j's run time.
func (u *UserRatio) Terminated(j *swf.Job, _ int64) {
	if j.RunTime < 0 {
		return
	}
	run := math.Log(float64(max(j.RunTime, 1)))
	lr := 0.0
	if j.ReqTime > 0 {
		lr = math.Min(run-math.Log(float64(j.ReqTime)), 0)
	}
	u.all.add(lr, run)
	if j.User < 0 {
		return
	}
	if u.users == nil {
		u.users = make(map[int64]*ratioAvg)
	}
	a := u.users[j.User]
	if a == nil {
		a = &ratioAvg{}
		u.users[j.User] = a
	}
	a.add(lr, run)
}
