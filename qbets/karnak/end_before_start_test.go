package karnak

import (
	"fmt"
	"strings"
	"testing"
)

// An end sent before its job's start, within MaxBackstep, is stored at
// the system's clock (the job ran 0 s) and counted in /karnak/stats: it
// was taken without a trace. An end in order is not counted.
func TestEndBeforeStartCounted(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	post := func(body string) {
		t.Helper()
		if code, out := do(t, "POST", u+"/events", "application/json", body); code != 200 {
			t.Fatalf("%s: %d %s", body, code, out)
		}
	}
	ev := func(kind string, job, at int64) string {
		return fmt.Sprintf(`{"kind":%q,"system":"s1","job":%d,"time":%d,"queue":"debug","cores":1}`, kind, job, at)
	}
	stats := func() string {
		_, out := do(t, "GET", u+"/stats.json", "", "")
		return out
	}
	post(ev("submit", 5000, testNow-100))
	post(`[` + ev("submit", 5001, testNow-90) + `,` + strings.Replace(ev("start", 5001, testNow-50), `,"queue":"debug","cores":1`, "", 1) + `]`)
	post(strings.Replace(ev("start", 5000, testNow-40), `,"queue":"debug","cores":1`, "", 1))
	post(strings.Replace(ev("end", 5001, testNow-45), `,"queue":"debug","cores":1`, "", 1)) // after its start, before the clock
	if out := stats(); !strings.Contains(out, `"endsBeforeStart":0`) {
		t.Errorf("an end after its start: %s", out)
	}
	post(strings.Replace(ev("end", 5000, testNow-60), `,"queue":"debug","cores":1`, "", 1)) // 20 s before its start
	if out := stats(); !strings.Contains(out, `"endsBeforeStart":1`) {
		t.Errorf("an end before its start: %s, want endsBeforeStart 1", out)
	}
	if _, out := do(t, "GET", u+"/stats.txt", "", ""); !strings.Contains(out, "ends sent before their job's start, stored at the clock (the job ran 0 s or more than sent; the feed's error, or a start raised to the clock): 1") {
		t.Errorf("stats text: %s", out)
	}
}
