package karnak

import (
	"strings"
	"testing"
)

// A job id is decimal digits only: strconv.ParseInt takes a sign, and
// "+1002" was job 1002 (200) while -1, 0x10 and an overflow were 400s.
func TestJobIDNoSign(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak/system/s1/job/"
	if code, body := do(t, "GET", u+"1002/prediction/waittime.txt", "", ""); code != 200 {
		t.Fatalf("job 1002: %d %s", code, body)
	}
	for _, id := range []string{"%2B1002", "+1002", "-1", "0x10", "99999999999999999999", " 1002"} {
		code, body := do(t, "GET", u+id+"/prediction/waittime.txt", "", "")
		if code != 400 || !strings.Contains(body, "jobId") {
			t.Errorf("job id %q: %d %s, want 400 naming jobId", id, code, body)
		}
	}
}
