package karnak

import (
	"strings"
	"testing"
)

// TestSystemsListUnpagedAsBefore: a list that fits one page is the page
// it was before paging (qserve's README says so): no note, and no line
// left where the note would be (the template once left an empty one).
func TestSystemsListUnpagedAsBefore(t *testing.T) {
	_, srv := newTestServer(t)
	_, body := get(t, srv.URL+"/karnak/system/status.html", "")
	if want := "predict how long a job would wait</a>.</p>\n<div class=\"scroll\">"; !strings.Contains(body, want) {
		t.Errorf("the one-page list of systems has something between its intro and its table:\n%s", body)
	}
}
