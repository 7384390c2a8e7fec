package karnak

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestIBLIntervalClamped: an IBL estimate whose interval would reach
// below no wait (here 00:08:13 ±00:08:16 for 4 cores, an hour, on
// normal@s1) is shown clamped at 0, and says so, in every format: the
// text and the page give its two ends and "clamped at 0 wait", the JSON
// and the XML low = 0 and lowClamped. Until this change every format
// gave the ± alone, a wait below 0 at its low end.
func TestIBLIntervalClamped(t *testing.T) {
	s, srv := newTestServer(t)
	ps, err := s.PredictHypothetical(&PredictRequest{Cores: 4, WallTime: 3600, Quantile: 95, Confidence: 90, Locations: []Location{{"s1", "normal"}}})
	if err != nil {
		t.Fatal(err)
	}
	e := ps[0].IBL
	if e == nil || e.HalfWidth <= e.Wait {
		t.Fatalf("the test needs an estimate whose ± reaches below 0: %+v", e)
	}
	if e.Low != 0 || !e.LowClamped || e.High != e.Wait+e.HalfWidth {
		t.Errorf("the estimate's interval: %+v, want low 0, clamped, high wait+halfWidth", e)
	}
	ask := func(format string) string {
		t.Helper()
		resp, err := http.Post(srv.URL+"/karnak/waittime/prediction/?format="+format, "application/json",
			strings.NewReader(`{"cores": 4, "wallTime": "01:00:00", "locations": ["normal@s1"]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", format, resp.StatusCode, b)
		}
		return string(b)
	}
	ends := "−" + hms(int64(e.Wait+0.5)) + " +" + hms(int64(e.HalfWidth+0.5)) + " (±" + hms(int64(e.HalfWidth+0.5)) + " clamped at 0 wait)"
	if txt := ask("txt"); !strings.Contains(txt, "IBL    waits "+hms(int64(e.Wait+0.5))+" "+ends) {
		t.Errorf("text: %q not in\n%s", ends, txt)
	}
	if page := strings.ReplaceAll(ask("html"), "&#43;", "+"); !strings.Contains(page, "</strong> "+ends+", so starts about") {
		t.Errorf("page: %q not in\n%s", ends, page)
	}
	var fromJSON []Prediction
	if err := json.Unmarshal([]byte(ask("json")), &fromJSON); err != nil || len(fromJSON) != 1 || fromJSON[0].IBL == nil ||
		fromJSON[0].IBL.Low != 0 || !fromJSON[0].IBL.LowClamped || fromJSON[0].IBL.High != e.High {
		t.Errorf("JSON: %v %+v", err, fromJSON)
	}
	var fromXML struct {
		Items []Prediction `xml:",any"`
	}
	if err := xml.Unmarshal([]byte(ask("xml")), &fromXML); err != nil || len(fromXML.Items) != 1 || fromXML.Items[0].IBL == nil ||
		fromXML.Items[0].IBL.Low != 0 || !fromXML.Items[0].IBL.LowClamped || fromXML.Items[0].IBL.High != e.High {
		t.Errorf("XML: %v %+v", err, fromXML.Items)
	}
	// Unclamped and unbounded intervals keep their ± alone.
	for _, c := range []struct {
		e    *EstimatePart
		want string
	}{
		{newEstimate(3600, 600, 56, 0), "±00:10:00"},
		{newEstimate(3600, -1, 1, 0), "± unbounded"},
		{newEstimate(600, 3600, 56, 0), "−00:10:00 +01:00:00 (±01:00:00 clamped at 0 wait)"},
	} {
		if got := intervalText(c.e, "0 wait"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
