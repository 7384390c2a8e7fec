package karnak

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Every number read from a request is decimal digits only (number), as
// a job id already was: a '+' (or a '-', or spaces strconv would not
// take either) was read by strconv as the number, so ?limit=+5 was a page
// of 5, ?quantile=+50 the median, the form's cores=+4 four cores and a
// text body's "processors +4" the same, each a 200.
func TestNumbersNoSign(t *testing.T) {
	admin := Token{Name: "admin", Secret: "admin-secret-0123456789", Systems: []string{"*"}, Admin: true}
	s, _ := newTestServer(t, Config{Rate: -1, Tokens: []Token{admin}})
	h := s.Handler()
	serve := func(method, target, ctype, body string) (int, string) {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		r.Header.Set("Authorization", "Bearer "+admin.Secret)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	form := func(field, v string) string {
		q := url.Values{"cores": {"4"}, "wallTime": {"01:00:00"}, "quantile": {"95"}, "confidence": {"90"}, "loc": {"normal@s1"}}
		q.Set(field, v)
		return "/karnak/waittime/predict.html?" + q.Encode()
	}
	text := func(key, v string) string {
		b := "processors 4\nrequestedWallTime 01:00:00\nconfidence 90\nquantile 95\nlocation s1 normal\n"
		return strings.Replace(b, key+" "+map[string]string{"processors": "4", "confidence": "90", "quantile": "95"}[key], key+" "+v, 1)
	}
	type req struct{ method, target, body, name string }
	cases := []struct {
		ok, signed req
	}{
		{req{"GET", "/karnak/system/s1/job/waiting.txt?offset=1", "", "offset"}, req{"GET", "/karnak/system/s1/job/waiting.txt?offset=%2B1", "", "offset"}},
		{req{"GET", "/karnak/system/s1/job/waiting.txt?limit=5", "", "limit"}, req{"GET", "/karnak/system/s1/job/waiting.txt?limit=%2B5", "", "limit"}},
		{req{"GET", "/karnak/system/status.txt?limit=5", "", "limit"}, req{"GET", "/karnak/system/status.txt?limit=%2B5", "", "limit"}},
		{req{"GET", "/karnak/system/s1/job/1002/prediction/waittime.txt?quantile=50", "", "quantile"}, req{"GET", "/karnak/system/s1/job/1002/prediction/waittime.txt?quantile=%2B50", "", "quantile"}},
		{req{"GET", "/karnak/system/s1/job/1002/prediction/waittime.txt?confidence=90", "", "confidence"}, req{"GET", "/karnak/system/s1/job/1002/prediction/waittime.txt?confidence=%2B90", "", "confidence"}},
		{req{"GET", "/karnak/system/s1/job/waiting.txt?after=0.1", "", "after"}, req{"GET", "/karnak/system/s1/job/waiting.txt?after=%2B0.1", "", "after"}},
		{req{"GET", form("cores", "4"), "", "whole number of cores"}, req{"GET", form("cores", "+4"), "", "whole number of cores"}},
		{req{"GET", form("quantile", "95"), "", "whole percent from 1 to 99"}, req{"GET", form("quantile", "+95"), "", "whole percent from 1 to 99"}},
		{req{"GET", form("confidence", "90"), "", "whole percent from 10 to 95"}, req{"GET", form("confidence", "+90"), "", "whole percent from 10 to 95"}},
		{req{"POST", "/karnak/waittime/prediction/", text("processors", "4"), "processors"}, req{"POST", "/karnak/waittime/prediction/", text("processors", "+4"), "processors"}},
		{req{"POST", "/karnak/waittime/prediction/", text("quantile", "95"), "quantile"}, req{"POST", "/karnak/waittime/prediction/", text("quantile", "+95"), "quantile"}},
		{req{"POST", "/karnak/waittime/prediction/", text("confidence", "90"), "confidence"}, req{"POST", "/karnak/waittime/prediction/", text("confidence", "+90"), "confidence"}},
		{req{"POST", "/karnak/admin/system/s1/rewind?time=" + fmt.Sprint(testNow), "", "time"}, req{"POST", "/karnak/admin/system/s1/rewind?time=%2B" + fmt.Sprint(testNow), "", "time"}},
	}
	for _, c := range cases {
		ctype := ""
		if c.ok.method == "POST" && c.ok.body != "" {
			ctype = "text/plain"
		}
		if code, body := serve(c.ok.method, c.ok.target, ctype, c.ok.body); code != 200 {
			t.Errorf("%s %s (unsigned): %d %.200s, want 200", c.ok.method, c.ok.target, code, body)
		}
		if code, body := serve(c.signed.method, c.signed.target, ctype, c.signed.body); code != 400 || !strings.Contains(body, c.signed.name) {
			t.Errorf("%s %s %q (with a '+'): %d %.200s, want 400 naming %s", c.signed.method, c.signed.target, c.signed.body, code, body, c.signed.name)
		}
	}
	for _, v := range []string{"", "+", "-0", "+0", " 1", "1 ", "0x10", "1e3", "١", "99999999999999999999"} {
		if n, ok := number(v); ok {
			t.Errorf("number(%q) = %d, true; want false", v, n)
		}
	}
	for v, want := range map[string]int64{"0": 0, "007": 7, "9223372036854775807": 1<<63 - 1} {
		if n, ok := number(v); !ok || n != want {
			t.Errorf("number(%q) = %d, %v; want %d, true", v, n, ok, want)
		}
	}
}
