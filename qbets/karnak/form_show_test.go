package karnak

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Show queues with a field typed longer than maxEcho answers as every
// other refusal of an over-long value does, a 400, with the form, the
// field clipped and its error, and the queues shown; it was a 200 with
// the error. A field merely invalid is not checked on Show queues (200:
// the user has not asked for a prediction yet).
func TestFormShowOverlongRefused(t *testing.T) {
	s, _ := newTestServer(t, Config{Rate: -1})
	get := func(q string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/karnak/waittime/predict.html"+q, nil))
		return w.Code, w.Body.String()
	}
	long := strings.Repeat("1", maxEcho+1)
	for _, field := range []string{"cores", "wallTime", "quantile", "confidence", "within"} {
		v := url.Values{"cores": {"1"}, "wallTime": {"01:00:00"}, "show": {"queues"}, "sys": {"s1"}}
		v.Set(field, long)
		q := "?" + v.Encode()
		code, body := get(q)
		if code != 400 || !strings.Contains(body, "65 bytes typed, at most 64 (shown clipped)") || !strings.Contains(body, `value="normal@s1"`) || strings.Contains(body, long) {
			t.Errorf("Show queues with %s of 65 bytes: %d (error shown: %v, queues listed: %v); want 400 with the error, the queues, and the value clipped",
				field, code, strings.Contains(body, "65 bytes typed"), strings.Contains(body, `value="normal@s1"`))
		}
		// The same field with a prediction asked for: 400 too.
		v.Del("show")
		if code, _ := get("?" + v.Encode()); code != 400 {
			t.Errorf("a prediction with %s of 65 bytes: %d, want 400", field, code)
		}
	}
	if code, body := get("?cores=abc&wallTime=01:00:00&show=queues&sys=s1"); code != 200 || strings.Contains(body, `class="error"`) {
		t.Errorf("Show queues with cores=abc: %d (an error shown: %v), want 200 without one", code, strings.Contains(body, `class="error"`))
	}
}
