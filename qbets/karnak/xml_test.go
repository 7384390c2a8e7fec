package karnak

import (
	"encoding/json"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"
)

// roundTrip reads a resource as JSON and as XML into the same Go type and
// requires the same value; list resources are read through a root whose
// items are any elements.
func roundTrip[T any](t *testing.T, base, path, root string) {
	t.Helper()
	_, js := get(t, base+path+".json", "")
	resp, xs := get(t, base+path+".xml", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Errorf("%s.xml: %d %q", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		return
	}
	if !strings.HasPrefix(xs, xml.Header+"<"+root+">") {
		t.Errorf("%s.xml: want the root <%s>:\n%s", path, root, xs)
	}
	var fromJSON, fromXML T
	if err := json.Unmarshal([]byte(js), &fromJSON); err != nil {
		t.Fatalf("%s.json: %v", path, err)
	}
	if reflect.TypeFor[T]().Kind() == reflect.Slice {
		var list struct {
			Items T `xml:",any"`
		}
		if err := xml.Unmarshal([]byte(xs), &list); err != nil {
			t.Fatalf("%s.xml: %v", path, err)
		}
		fromXML = list.Items
	} else if err := xml.Unmarshal([]byte(xs), &fromXML); err != nil {
		t.Fatalf("%s.xml: %v", path, err)
	}
	if !sameValues(fromJSON, fromXML) {
		t.Errorf("%s: JSON and XML differ:\n%+v\n%+v", path, fromJSON, fromXML)
	}
	if reflect.ValueOf(fromJSON).IsZero() {
		t.Errorf("%s: empty value", path)
	}
}

// sameValues reports whether a and b are the same values: equal, or
// with the same JSON encoding (an empty slice the XML decodes and the
// nil one the JSON left are the same value to a client).
func sameValues(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// Every resource's XML parses back into the values of its JSON.
func TestXMLRoundTrip(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	roundTrip[[]SystemStatus](t, u, "/system/status", "Systems")
	roundTrip[struct {
		SystemStatus
		Queues []QueueStatus `json:"queues"`
	}](t, u, "/system/s1/status", "SystemStatus")
	roundTrip[QueueSummary](t, u, "/system/s1/queue/normal/summary", "QueueSummary")
	roundTrip[QueueSummary](t, u, "/system/s1/queue/all_jobs/summary", "QueueSummary")
	roundTrip[[]WaitingJob](t, u, "/system/s1/job/waiting", "WaitingJobs")
	roundTrip[Prediction](t, u, "/system/s1/job/1002/prediction/waittime", "Prediction")
	roundTrip[Record](t, u, "/system/s1/event/last", "Record")
	roundTrip[struct {
		Hits   int64 `json:"cacheHits"`
		Misses int64 `json:"cacheMisses"`
		Raised int64 `json:"eventsRaised"`
	}](t, u, "/stats", "Stats")

	// The job prediction with within (ProbWithin, pointers) and the
	// hypothetical answers.
	_, js := get(t, u+"/system/s1/job/1002/prediction/starttime.json?within=00:30:00&quantile=75", "")
	_, xs := get(t, u+"/system/s1/job/1002/prediction/starttime.xml?within=00:30:00&quantile=75", "")
	var pj, px Prediction
	if json.Unmarshal([]byte(js), &pj) != nil || xml.Unmarshal([]byte(xs), &px) != nil || !sameValues(pj, px) || pj.ProbWithin == nil || pj.Job == nil {
		t.Errorf("job prediction with within: JSON and XML differ:\n%s\n%s", js, xs)
	}
	hypo := `{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1", "debug@s1", "nope@s1"]}`
	_, js = do(t, "POST", u+"/waittime/prediction/?format=json", "application/json", hypo)
	_, xs = do(t, "POST", u+"/waittime/prediction/?format=xml", "application/json", hypo)
	var hj []Prediction
	var hx struct {
		Items []Prediction `xml:"Prediction"`
	}
	if json.Unmarshal([]byte(js), &hj) != nil || xml.Unmarshal([]byte(xs), &hx) != nil || len(hj) != 3 || !sameValues(hj, hx.Items) {
		t.Errorf("hypothetical: JSON and XML differ:\n%s\n%s", js, xs)
	}
}

// Free text with XML's special characters survives the round trip.
func TestXMLEscapes(t *testing.T) {
	_, srv := newTestServer(t)
	ev := `{"kind":"submit","system":"s1","job":3000,"time":%NOW%,"queue":"debug","cores":1,"wallTime":60,"user":"a<b>&\"c'","name":"]]>\u00e9"}`
	if code, body := do(t, "POST", srv.URL+"/karnak/events", "application/json", ev); code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	roundTrip[Record](t, srv.URL+"/karnak", "/system/s1/event/last", "Record")
}
