package karnak

import (
	"encoding/json"
	"encoding/xml"
	"maps"
	"reflect"
	"slices"
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
	roundTrip[[]SystemStatus](t, u, "/system/status", "systems")
	roundTrip[struct {
		SystemStatus
		Queues []QueueStatus `json:"queues" xml:"queues"`
	}](t, u, "/system/s1/status", "systemStatus")
	roundTrip[QueueSummary](t, u, "/system/s1/queue/normal/summary", "queueSummary")
	roundTrip[QueueSummary](t, u, "/system/s1/queue/all_jobs/summary", "queueSummary")
	roundTrip[[]WaitingJob](t, u, "/system/s1/job/waiting", "waitingJobs")
	roundTrip[Prediction](t, u, "/system/s1/job/1002/prediction/waittime", "prediction")
	roundTrip[Record](t, u, "/system/s1/event/last", "record")
	roundTrip[struct {
		Hits    int64 `json:"cacheHits" xml:"cacheHits"`
		Misses  int64 `json:"cacheMisses" xml:"cacheMisses"`
		Raised  int64 `json:"eventsRaised" xml:"eventsRaised"`
		Early   int64 `json:"endsBeforeStart" xml:"endsBeforeStart"`
		Cleared int64 `json:"queuesCleared" xml:"queuesCleared"`
	}](t, u, "/stats", "stats")

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
		Items []Prediction `xml:"prediction"`
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
	roundTrip[Record](t, srv.URL+"/karnak", "/system/s1/event/last", "record")
}

// TestXMLNamesAreJSONNames walks the JSON and the XML of every resource
// (a queued job's prediction with everything it can carry, the
// hypothetical answers, the statuses, a queue's summary) and requires the
// same set of names: a JSON key and an XML element for each value, named
// alike. Until this change the XML named them after the Go fields
// (QBETSReason for qbetsReason, MeanEndReq for meanEndedReqTime).
func TestXMLNamesAreJSONNames(t *testing.T) {
	_, srv := newTestServer(t)
	u := srv.URL + "/karnak"
	hypo := `{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1", "debug@s1", "nope@s1"]}`
	for _, c := range []struct{ path, root, item string }{
		{"/system/status", "systems", "systemStatus"},
		{"/system/s1/status", "systemStatus", ""},
		{"/system/s1/queue/normal/summary", "queueSummary", ""},
		{"/system/s1/job/waiting", "waitingJobs", "waitingJob"},
		{"/system/s1/job/1002/prediction/waittime?within=00:30:00", "prediction", ""},
		{"/system/s1/event/last", "record", ""},
		{"/stats", "stats", ""},
		{"POST /waittime/prediction/", "predictions", "prediction"},
	} {
		var js, xs string
		if path, ok := strings.CutPrefix(c.path, "POST "); ok {
			_, js = do(t, "POST", u+path+"?format=json", "application/json", hypo)
			_, xs = do(t, "POST", u+path+"?format=xml", "application/json", hypo)
		} else {
			p, q, _ := strings.Cut(c.path, "?")
			_, js = get(t, u+p+".json?"+q, "")
			_, xs = get(t, u+p+".xml?"+q, "")
		}
		var v any
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			t.Fatalf("%s.json: %v", c.path, err)
		}
		jn := map[string]bool{}
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, e := range v {
					jn[k] = true
					walk(e)
				}
			case []any:
				for _, e := range v {
					walk(e)
				}
			}
		}
		walk(v)
		xn := map[string]bool{}
		dec := xml.NewDecoder(strings.NewReader(xs))
		depth := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				depth++
				for _, a := range tok.Attr {
					xn[a.Name.Local] = true
				}
				switch {
				case depth == 1:
					if tok.Name.Local != c.root {
						t.Errorf("%s.xml: root <%s>, want <%s>", c.path, tok.Name.Local, c.root)
					}
				case depth == 2 && c.item != "":
					if tok.Name.Local != c.item {
						t.Errorf("%s.xml: item <%s>, want <%s>", c.path, tok.Name.Local, c.item)
					}
				default:
					xn[tok.Name.Local] = true
				}
			case xml.EndElement:
				depth--
			}
		}
		if len(jn) < 3 || !reflect.DeepEqual(jn, xn) {
			t.Errorf("%s: JSON names %v, XML names %v", c.path, slices.Sorted(maps.Keys(jn)), slices.Sorted(maps.Keys(xn)))
		}
	}
}
