package predict

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// The zero UserHistory, which a user may write as &predict.UserHistory{}
// as they write X2{} or Perfect{}, is EASY++'s predictor, as
// NewUserHistory(HistoryConfig{}) is: it panicked on a job without a user
// (a nil map), and predicted from an empty window (N = 0) for the others.
// Checked: fails without the fix.
func TestUserHistoryZero(t *testing.T) {
	mk := func(user, submit, run, est int64) *swf.Job {
		j := swf.NewJob()
		j.User, j.Submit, j.RunTime, j.ReqTime = user, submit, run, est
		return &j
	}
	want, err := NewUserHistory(HistoryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var zero UserHistory
	for _, user := range []int64{-1, 7, 1 << 20} {
		for i, run := range []int64{100, 300, 500} {
			j := mk(user, int64(i), run, 1000)
			if got, w := zero.Predict(j, 0), want.Predict(j, 0); got != w {
				t.Errorf("user %d, job %d: the zero value predicts %d, NewUserHistory %d", user, i, got, w)
			}
			zero.Terminated(j, 0)
			want.Terminated(j, 0)
		}
	}
	if zero.Config() != want.Config() {
		t.Errorf("the zero value's Config %+v, NewUserHistory's %+v", zero.Config(), want.Config())
	}
}
