package karnak

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// What the last rounds left open: a negative within was read as
// positive; "." and ".." were names and negative job ids were taken;
// duplicate JSON keys (the last won), a charset other than UTF-8 (read as
// UTF-8) and bytes that are not UTF-8 (turned into U+FFFD) were
// accepted. Each is now a 4xx naming the field.
func TestStrictInputs(t *testing.T) {
	s, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	ev := func(fields string) string {
		return fmt.Sprintf(`{"kind":"submit","system":"s1","job":7000,"time":%d,"queue":"debug","cores":1%s}`, testNow, fields)
	}
	for _, c := range []struct {
		method, path, ctype, body string
		code                      int
		want                      string
	}{
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=-00:30:00", "", "", 400, "within"},
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=%2B00:30:00", "", "", 400, "within"},
		{"GET", "/system/s1/job/1002/prediction/waittime.json?within=-1800", "", "", 400, "within"},
		{"GET", "/system/s1/job/-1002/prediction/waittime.json", "", "", 400, "jobId"},
		{"POST", "/waittime/prediction/", "text/plain", "processors 4\nrequestedWallTime 01:00:00\nwithin -00:30:00\nlocation s1 normal\n", 400, "within"},
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"wallTime":"01:00:00","within":"-00:30:00","locations":["normal@s1"]}`, 400, "within"},
		{"POST", "/waittime/prediction/", "application/json", `{"cores":4,"cores":64,"wallTime":"01:00:00","locations":["normal@s1"]}`, 400, "given twice"},
		{"POST", "/waittime/prediction/", "application/json; charset=ISO-8859-1", `{"cores":4,"wallTime":"01:00:00","locations":["normal@s1"]}`, 415, "charset"},
		{"POST", "/waittime/prediction/", "text/plain; charset=latin1", "processors 4\nrequestedWallTime 01:00:00\nlocation s1 normal\n", 415, "charset"},
		{"POST", "/waittime/prediction/", "text/plain", "processors 4\nrequestedWallTime 01:00:00\nlocation s1 norm\xe9l\n", 400, "UTF-8"},
		{"POST", "/events", "application/json", ev(",\"user\":\"caf\xe9\""), 400, "UTF-8"},
		{"POST", "/events", "application/json", ev(`,"user":"x\ud800y"`), 400, "surrogate"},
		{"POST", "/events", "application/json", ev(`,"cores":8`), 400, "given twice"},
		{"POST", "/events", "application/json", `{"batch":"a","batch":"b","events":[` + ev("") + `]}`, 400, "given twice"},
		{"POST", "/events", "application/json; charset=utf-16", ev(""), 415, "charset"},
		{"POST", "/events", "application/json", strings.Replace(ev(""), `"job":7000`, `"job":-7`, 1), 400, "events[0].job"},
		{"POST", "/events", "application/json", strings.Replace(ev(""), `"system":"s1"`, `"system":".."`, 1), 400, "events[0].system"},
		{"POST", "/events", "application/json", fmt.Sprintf(`{"kind":"queue","system":"s1","time":%d,"queue":".","cores":1,"wallTime":60}`, testNow), 400, "events[0].queue"},
	} {
		code, out := do(t, c.method, u+c.path, c.ctype, c.body)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%s %s %.60q: %d %q, want %d naming %q", c.method, c.path, c.body, code, out, c.code, c.want)
		}
	}
	// What is still fine: UTF-8 named in any case, a surrogate pair, the
	// same key in two objects.
	for _, c := range []struct{ ctype, body string }{
		{"application/json; charset=UTF-8", ev(`,"user":"\ud83d\ude00"`)},
		{"application/json; charset=utf8", `[` + strings.Replace(ev(`,"user":"a"`), "7000", "7002", 1) + `,` + strings.Replace(ev(`,"user":"a"`), "7000", "7001", 1) + `]`},
	} {
		if code, out := do(t, "POST", u+"/events", c.ctype, c.body); code != 200 {
			t.Errorf("%s %s: %d %s", c.ctype, c.body, code, out)
		}
	}
	if _, err := s.PredictJob("s1", -5, 95, 90, 0); statusOf(err) != http.StatusBadRequest {
		t.Errorf("PredictJob(-5): %v", err)
	}
	if _, err := s.PredictJob("s1", 1002, 95, 90, -1800); statusOf(err) != http.StatusBadRequest {
		t.Errorf("PredictJob(within -1800): %v", err)
	}
	for _, d := range []string{"-00:30:00", "+1800", "-0", " 60", "1_000", "01:-5:00"} {
		if v, err := parseDuration(d); err == nil {
			t.Errorf("parseDuration(%q) = %d", d, v)
		}
	}
}
