package sched

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestSummaryOnlyRecsDropBeforeGrow loads logs piece by piece under
// SummaryOnly, as examples/simulate streams them, in which one job holds
// the head of the records for a long time after others have been folded
// (a job that waits or runs long: under conservative backfilling on
// SDSC-BLUE, 3,357 of 6,991 records): when a piece does not fit, the
// folded records are dropped rather than the records doubled, while they
// are a quarter of them or more and the piece then fits.
func TestSummaryOnlyRecsDropBeforeGrow(t *testing.T) {
	const piece, pieces, first = 100, 40, 50
	avoidable := 0 // growths the rule spares, in the logs below
	for gap := 100; gap <= 1000; gap += 100 {
		for _, until := range []int64{500, 900, 1500} {
			cfg := EASY(3)
			cfg.SummaryOnly = true
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for p := range pieces {
				jobs := make([]swf.Job, piece)
				for i := range jobs {
					k := int64(p*piece + i)
					j := swf.NewJob()
					j.ID, j.Submit, j.RunTime, j.ReqTime, j.AllocProcs = k+1, 10*k, 1, 1, 1
					switch int(k) {
					case first: // holds the head until it ends
						j.RunTime, j.ReqTime = 10*until, 10*until
					case first + gap: // then holds it to the end
						j.RunTime, j.ReqTime = 1<<30, 1<<30
					}
					jobs[i] = j
				}
				c, head, n := cap(s.recs), s.recHead, len(s.recs)
				if 2*head >= n {
					head = 0 // (compactRecs drops them in every version)
					n -= s.recHead
				}
				if err := s.Load(jobs); err != nil {
					t.Fatal(err)
				}
				if 4*head >= n && n-head+piece <= c && n+piece > c {
					avoidable++
					if cap(s.recs) != c {
						t.Errorf("gap %d, until %d, piece %d: records grew from %d to %d with %d of %d folded", gap, until, p, c, cap(s.recs), head, n)
					}
				}
				if err := s.RunUntil(jobs[piece-1].Submit + 5); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Finish(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if avoidable == 0 {
		t.Fatal("no load had a quarter of the records folded when they would grow: the logs test nothing")
	}
	t.Logf("%d loads dropped the folded records instead of growing them", avoidable)
}
