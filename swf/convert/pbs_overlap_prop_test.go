package convert

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// pbsEvent is a record of a generated log, at its time.
type pbsEvent struct {
	t    int
	line string
}

// TestPBSOverlapProperty: random logs of up to four jobs (deleted while
// queued, run, rerun with or without a Q record, deleted while running),
// their records in time order, read whole and as two overlapping pieces
// concatenated (records j to k given twice, as daily files of windows that
// overlap): the same jobs, the same reruns counted, no id "reused". 89 of
// 5,000 such logs differed before (an S record of a rerun job given again
// counted a rerun each), and more before this session's fixes.
func TestPBSOverlapProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 2000; it++ {
		var evs []pbsEvent
		base := 1711965600
		tm := func(ts int) string {
			d := ts - base
			return fmt.Sprintf("04/01/2024 %02d:%02d:%02d", 10+d/3600, d/60%60, d%60)
		}
		nj := rng.IntN(4) + 1
		for j := 1; j <= nj; j++ {
			id := fmt.Sprintf("%d.s", j)
			q := base + rng.IntN(100)
			evs = append(evs, pbsEvent{q, fmt.Sprintf("%s;Q;%s;queue=q", tm(q), id)})
			a := fmt.Sprintf("user=u queue=q ctime=%d qtime=%d exec_host=n1/0", q, q)
			cur := q
			kind := rng.IntN(4) // 0 deleted queued, 1 run, 2 run+rerun, 3 deleted running
			if kind == 0 {
				d := cur + 1 + rng.IntN(50)
				evs = append(evs, pbsEvent{d, fmt.Sprintf("%s;D;%s;requestor=u", tm(d), id)})
				continue
			}
			s := cur + 1 + rng.IntN(50)
			evs = append(evs, pbsEvent{s, fmt.Sprintf("%s;S;%s;%s start=%d", tm(s), id, a, s)})
			if kind == 2 {
				r := s + 1 + rng.IntN(20)
				evs = append(evs, pbsEvent{r, fmt.Sprintf("%s;R;%s;requestor=root", tm(r), id)})
				if rng.IntN(2) == 0 {
					evs = append(evs, pbsEvent{r, fmt.Sprintf("%s;Q;%s;queue=q", tm(r), id)})
				}
				s = r + 1 + rng.IntN(20)
				evs = append(evs, pbsEvent{s, fmt.Sprintf("%s;S;%s;%s start=%d", tm(s), id, a, s)})
			}
			e := s + 1 + rng.IntN(50)
			if kind == 3 {
				evs = append(evs, pbsEvent{e, fmt.Sprintf("%s;D;%s;requestor=u", tm(e), id)})
				e++
			}
			evs = append(evs, pbsEvent{e, fmt.Sprintf("%s;E;%s;%s start=%d end=%d Exit_status=0", tm(e), id, a, s, e)})
		}
		slices.SortStableFunc(evs, func(x, y pbsEvent) int { return x.t - y.t })
		var lines []string
		for _, e := range evs {
			lines = append(lines, e.line)
		}
		whole := strings.Join(lines, "\n") + "\n"
		k := rng.IntN(len(lines) + 1)
		j := rng.IntN(k + 1)
		over := strings.Join(lines[:k], "\n") + "\n" + strings.Join(lines[j:], "\n") + "\n"
		a, err1 := PBS(strings.NewReader(whole), Options{})
		b, err2 := PBS(strings.NewReader(over), Options{})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !reflect.DeepEqual(a.Jobs, b.Jobs) || a.Report.Requeued != b.Report.Requeued || b.Report.Anomalies[noteIDReused] != 0 {
			t.Fatalf("records %d to %d given twice: %d jobs, %d requeued, anomalies %v; want %d jobs, %d requeued, none reused\n%s",
				j, k, len(b.Jobs), b.Report.Requeued, b.Report.Anomalies, len(a.Jobs), a.Report.Requeued, over)
		}
	}
}
