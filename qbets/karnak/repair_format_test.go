package karnak

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// The repairs choose no representation: every error under
// /karnak/admin/ is text (Handler's doc), whatever the path ends with.
// A mistyped repair ending in .xml (POST .../drop.xml) was refused in
// XML, its 401 too, because the extension rule of the resources reached
// it. The resources' extension still names the format of their errors,
// on a route that exists (a system that is not there) as on a path no
// route has (GET /nosuch.xml: the 404 in the format asked).
func TestRepairErrorsText(t *testing.T) {
	admin := Token{Name: "admin", Secret: "admin-secret-0123456789", Systems: []string{"*"}, Admin: true}
	s := ingested(t, Config{Rate: -1, Tokens: []Token{admin}})
	for _, c := range []struct {
		method, target, token string
		code                  int
		ctype, body           string
	}{
		{"POST", "/karnak/admin/system/s1/drop.xml", "", 401, "text/plain", ""},
		{"POST", "/karnak/admin/system/s1/drop.xml", admin.Secret, 404, "text/plain", `"drop.xml" is not a repair`},
		{"POST", "/karnak/admin/system/s1/drop.json", admin.Secret, 404, "text/plain", `"drop.json" is not a repair`},
		{"POST", "/karnak/admin/system/s1/rewind.html?time=x", admin.Secret, 404, "text/plain", `"rewind.html" is not a repair`},
		{"POST", "/karnak/admin/system/s1/rewind?time=x", admin.Secret, 400, "text/plain", `time: "x"`},
		{"GET", "/karnak/admin/system/s1/drop.xml", "", 405, "text/plain", "want POST"},
		{"GET", "/karnak/system/nosuch/status.xml", "", 404, "application/xml", "<error>"},
		{"GET", "/karnak/system/nosuch/status.json", "", 404, "application/json", `"error"`},
		{"GET", "/nosuch.xml", "", 404, "application/xml", "<error>"},
	} {
		r := httptest.NewRequest(c.method, c.target, nil)
		if c.token != "" {
			r.Header.Set("Authorization", "Bearer "+c.token)
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code != c.code || !strings.HasPrefix(w.Header().Get("Content-Type"), c.ctype) || !strings.Contains(w.Body.String(), c.body) {
			t.Errorf("%s %s: %d %q %q, want %d %s with %q", c.method, c.target, w.Code, w.Header().Get("Content-Type"), w.Body.String(), c.code, c.ctype, c.body)
		}
	}
}
