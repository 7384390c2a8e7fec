package karnak

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// A Go client that posts its PredictRequest as encoding/json writes it is
// answered: the locations, Location values, are objects there, which the
// handler took only as "queue@system" strings (a 400, "cannot unmarshal
// object into the field locations of type string"). Checked: fails without
// the fix in request.go.
func TestPredictRequestMarshalled(t *testing.T) {
	want := PredictRequest{Cores: 4, WallTime: 600, Confidence: 90, Quantile: 95, Within: 60,
		Locations: []Location{{System: "s1", Queue: "normal"}, {System: "s1", Queue: "debug"}}, User: "u1"}
	body, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodePredictRequest("application/json", body)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("%s decoded as %+v, want %+v", body, *got, want)
	}
	h := ingested(t, Config{}).Handler()
	r := httptest.NewRequest("POST", "/karnak/waittime/prediction/?format=json", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = "127.0.0.1:1234"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Body)
	if w.Code != 200 || !strings.Contains(string(b), `"queue":"debug"`) {
		t.Errorf("POST %s: %d\n%s", body, w.Code, b)
	}
	// An object location names both, and nothing else.
	for _, bad := range []string{
		`{"cores": 1, "wallTime": 60, "locations": [{"system": "s1"}]}`,
		`{"cores": 1, "wallTime": 60, "locations": [{"queue": "q"}]}`,
		`{"cores": 1, "wallTime": 60, "locations": [{"system": "s1", "queue": "q", "x": 1}]}`,
		`{"cores": 1, "wallTime": 60, "locations": [3]}`,
	} {
		if _, err := decodePredictRequest("application/json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "locations") {
			t.Errorf("%s: error %v, want one naming locations", bad, err)
		}
	}
}
