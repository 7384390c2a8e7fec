package predict_test

import (
	"testing"

	"github.com/batchq/batchq/sched/predict"
)

// The jobs without a user (−1) are one user's history, as pyss's and
// predictsim's EASY++ keep them (a dictionary keyed by the user number):
// the peer modes reproduce those, whose references have no such job.
func TestUserHistoryNoUser(t *testing.T) {
	h, err := predict.NewUserHistory(predict.HistoryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	h.Terminated(pj(-1, 2, 100, 1000), 100)
	h.Terminated(pj(-1, 5, 300, 1000), 300)
	if p := h.Predict(pj(-1, 400, 0, 1000), 400); p != 200 {
		t.Errorf("a job without a user after two others ran 100 and 300 s: %d, want 200 (their average)", p)
	}
	if p := h.Predict(pj(1, 400, 0, 1000), 400); p != 1000 {
		t.Errorf("user 1 with no history: %d, want the estimate 1000", p)
	}
}
