package karnak

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"testing"
)

// FuzzScanRequest: where scanRequest accepts a body, encoding/json (as
// decodeJSON uses it) accepts it too and decodes the same request.
func FuzzScanRequest(f *testing.F) {
	for _, b := range []string{
		`{"cores": 4, "wallTime": "01:00:00", "within": 1800, "locations": ["normal@s1"]}`,
		`{"cores":4,"wallTime":60,"confidence":95,"quantile":50,"locations":["a@b","c@d"]}`,
		" {\n\t\"locations\": [],\r\"cores\": 0 } ",
		`{}`, `{"cores": 01}`, `{"cores": 4, "cores": 5}`, `{"Cores": 4}`, `{"cores": -4}`, `{"cores": 4.0}`, `{"cores": 4e2}`,
		`{"wallTime": "a\u0062"}`, `{"wallTime": null}`, `{"locations": ["é@x"]}`, `{"cores": 4} x`, `{"cores": 4}{}`,
		`{"cores": 99999999999999999999}`, `{"within": "01:00:00", "within": 5}`, `{"quantile": 9223372036854775807}`,
	} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var fast jsonRequest
		if !scanRequest(body, &fast) {
			return
		}
		var slow jsonRequest
		d := json.NewDecoder(bytes.NewReader(body))
		d.DisallowUnknownFields()
		if err := d.Decode(&slow); err != nil || trailingData(body, d) {
			t.Fatalf("scanRequest accepted %q, encoding/json: %v (trailing data %v)", body, err, trailingData(body, d))
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: scanRequest %+v, encoding/json %+v", body, fast, slow)
		}
	})
}

// The common request takes the fast path.
func TestScanRequestCommon(t *testing.T) {
	var j jsonRequest
	if !scanRequest([]byte(`{"cores": 16, "wallTime": "01:00:00", "within": 1800, "confidence": 95, "quantile": 50, "locations": ["normal@s1", "q0@kth"]}`), &j) {
		t.Fatal("not scanned")
	}
	if *j.Cores != 16 || string(j.WallTime) != `"01:00:00"` || string(j.Within) != "1800" || *j.Confidence != 95 || *j.Quantile != 50 || len(j.Locations) != 2 || j.Locations[1] != "q0@kth" {
		t.Fatalf("%+v", j)
	}
}

// query.Get reads a raw query as url.ParseQuery and Values.Get do.
func FuzzQueryGet(f *testing.F) {
	for _, q := range []string{"quantile=50&confidence=80&within=01:00:00", "within=00%3A30%3A00", "a=1;b=2&within=5", "within&within=3", "within=%zz&within=4", "=x&&q=1"} {
		f.Add(q, "within")
	}
	f.Fuzz(func(t *testing.T, raw, key string) {
		v, _ := url.ParseQuery(raw)
		if got, want := query(raw).Get(key), v.Get(key); got != want {
			t.Fatalf("query(%q).Get(%q) = %q, url.Values %q", raw, key, got, want)
		}
	})
}
