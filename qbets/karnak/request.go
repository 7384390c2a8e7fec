package karnak

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/batchq/batchq/internal/textclip"
)

// maxLocations bounds one hypothetical request (TeraGrid had 10–15
// systems with a few queues each).
const maxLocations = 100

// errTooManyLocations refuses a request body at its location
// maxLocations+1, before the others are decoded: the count was checked
// once all were, and 64 KiB of "q@s" (10,900 locations) allocated
// 2.2 MB, 150 times a valid request of 100 (TestLocationsCost).
var errTooManyLocations = fmt.Errorf("locations: more than %d given, at most %d", maxLocations, maxLocations)

// jsonRequest is the JSON body of POST /karnak/{waittime|starttime}/prediction/.
// wallTime and within are "hh:mm:ss" strings or seconds; locations are
// "queue@system" strings or Location objects, as encoding/json writes a
// PredictRequest (its keys match these, case aside).
type jsonRequest struct {
	Cores      *int64          `json:"cores"`
	WallTime   json.RawMessage `json:"wallTime"`
	Confidence *int            `json:"confidence"`
	Quantile   *int            `json:"quantile"`
	Within     json.RawMessage `json:"within"`
	Locations  []wireLocation  `json:"locations"`
	User       string          `json:"user"`
	Account    string          `json:"account"`
}

// wireLocation is one location of a JSON request, "queue@system": a
// Location object (naming both, nothing else) is read as that string,
// which validate then judges as it judges the string form (a name has no
// '@', sysname.Valid). A string, as a []string held it: a struct of the
// text and the Location doubled the bytes a body of 64 KiB of locations
// allocated before validate refused it (2.2 to 4.2 MB; now such a body
// is refused at its 101st location, errTooManyLocations), and a second
// decoding of each string doubled its allocations.
type wireLocation string

func (w *wireLocation) UnmarshalJSON(b []byte) error {
	switch n := len(b); {
	case n >= 2 && b[0] == '"' && b[n-1] == '"' && bytes.IndexByte(b, '\\') < 0:
		// Without escapes, the text is the bytes between the quotes
		// (the decoder has checked the value; strictJSON its UTF-8).
		*w = wireLocation(b[1 : n-1])
		return nil
	case n > 0 && b[0] == '{':
		var o struct {
			System, Queue *string
		}
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		if err := d.Decode(&o); err != nil || o.System == nil || o.Queue == nil {
			return errLocation
		}
		*w = wireLocation(*o.Queue + "@" + *o.System)
		return nil
	}
	// (Into w itself: a local string escaped, an allocation more. null
	// leaves it "", refused as no queue@system.)
	if err := json.Unmarshal(b, (*string)(w)); err != nil {
		return errLocation
	}
	return nil
}

// errLocation is a location of neither form.
var errLocation = errors.New(`locations: want "queue@system" strings or {"system": …, "queue": …} objects`)

// decodePredictRequest parses a hypothetical-job request, JSON when the
// content type says so (or the body starts with '{'), else Karnak's text
// form (§2.3):
//
//	processors 16
//	requestedWallTime 01:00:00
//	confidence 90
//	quantile 95
//	within 00:30:00
//	location <system> <queue>     (repeatable)
//	user <name>                   (optional)
//	account <name>                (optional)
//
// and validates it; errors name the field.
func decodePredictRequest(contentType string, body []byte) (*PredictRequest, error) {
	r := &PredictRequest{Confidence: defaultConfidence, Quantile: defaultQuantile}
	var err error
	if strings.HasPrefix(contentType, "application/json") || bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		err = decodeJSON(body, r)
	} else {
		err = decodeText(body, r)
	}
	if err != nil {
		return nil, err
	}
	return r, r.validate()
}

func decodeJSON(body []byte, r *PredictRequest) error {
	var j jsonRequest
	if !scanRequest(body, &j) {
		if err := strictJSONValues(body, arrayBound{key: "locations", n: maxLocations}); errors.Is(err, errLongArray) {
			return errTooManyLocations
		} else if err != nil {
			return err
		}
		j = jsonRequest{}
		d := json.NewDecoder(bytes.NewReader(body))
		d.DisallowUnknownFields()
		if err := d.Decode(&j); err != nil {
			return fmt.Errorf("body: malformed JSON: %s", jsonError(err))
		}
		if trailingData(body, d) {
			return fmt.Errorf("body: trailing data after the JSON object")
		}
	}
	if j.Cores == nil {
		return fmt.Errorf("cores: missing")
	}
	r.Cores = *j.Cores
	if j.WallTime == nil {
		return fmt.Errorf("wallTime: missing")
	}
	var err error
	if r.WallTime, err = jsonDuration(j.WallTime); err != nil {
		return fmt.Errorf("wallTime: %v", err)
	}
	if j.Within != nil {
		if r.Within, err = jsonDuration(j.Within); err != nil {
			return fmt.Errorf("within: %v", err)
		}
	}
	if j.Confidence != nil {
		r.Confidence = *j.Confidence
	}
	if j.Quantile != nil {
		r.Quantile = *j.Quantile
	}
	r.User, r.Account = j.User, j.Account
	for i, l := range j.Locations {
		q, sys, ok := strings.Cut(string(l), "@")
		if !ok {
			return fmt.Errorf("locations[%d]: %q, want queue@system", i, clip(string(l)))
		}
		r.Locations = append(r.Locations, Location{System: sys, Queue: q})
	}
	return nil
}

// jsonError is the decoder's err with the value it quotes clipped:
// encoding/json quotes a number of the wrong type whole (its digits), and
// an unknown key whole, so a 60 KB number came back as a 60 KB error.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Type.Kind() == reflect.Struct {
		// A value where the body's object (or a batch's event) is: the
		// type is the package's own (karnak.jsonRequest), not the
		// client's business, and the field was printed empty.
		if te.Field == "" {
			return fmt.Sprintf("json: cannot unmarshal %s: want an object", clip(te.Value))
		}
		return fmt.Sprintf("json: cannot unmarshal %s into the field %s: want an object", clip(te.Value), te.Field)
	}
	if errors.As(err, &te) {
		return fmt.Sprintf("json: cannot unmarshal %s into the field %s of type %s", clip(te.Value), te.Field, te.Type)
	}
	return textclip.Clip(err.Error(), 2*maxEcho) // (json: unknown field "…")
}

func jsonDuration(m json.RawMessage) (int64, error) {
	// The common forms without a second decoding: a string without
	// escapes, or digits.
	if n := len(m); n >= 2 && m[0] == '"' && m[n-1] == '"' && bytes.IndexByte(m, '\\') < 0 {
		return parseDuration(string(m[1 : n-1]))
	}
	if len(m) > 0 && len(m) <= 18 && m[0] >= '0' && m[0] <= '9' {
		if n, err := strconv.ParseInt(string(m), 10, 64); err == nil {
			return n, nil
		}
	}
	var s string
	if json.Unmarshal(m, &s) == nil {
		return parseDuration(s)
	}
	var n int64
	if err := json.Unmarshal(m, &n); err != nil {
		return 0, fmt.Errorf("%s, want \"hh:mm:ss\" or whole seconds", clip(string(m)))
	}
	return n, nil
}

func decodeText(body []byte, r *PredictRequest) error {
	if err := validUTF8(body); err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	seen := map[string]bool{}
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		key := f[0]
		if key != "location" && seen[key] {
			return fmt.Errorf("line %d: %s: given twice", line, key)
		}
		seen[key] = true
		want := 2
		if key == "location" {
			want = 3
		}
		if len(f) != want {
			return fmt.Errorf("line %d: %s: want %d values, got %d", line, clip(key), want-1, len(f)-1)
		}
		var err error
		ok := true
		switch key {
		case "processors":
			r.Cores, ok = number(f[1])
		case "requestedWallTime":
			r.WallTime, err = parseDuration(f[1])
		case "within":
			r.Within, err = parseDuration(f[1])
		case "confidence":
			r.Confidence, ok = smallNumber(f[1])
		case "quantile":
			r.Quantile, ok = smallNumber(f[1])
		case "location":
			if len(r.Locations) == maxLocations {
				return errTooManyLocations
			}
			r.Locations = append(r.Locations, Location{System: f[1], Queue: f[2]})
		case "user":
			r.User = f[1]
		case "account":
			r.Account = f[1]
		default:
			return fmt.Errorf("line %d: %q is not a field (processors, requestedWallTime, confidence, quantile, within, location, user, account)", line, clip(key))
		}
		if !ok {
			err = fmt.Errorf("%q, want an integer ≥ 0 in decimal digits", clip(f[1]))
		}
		if err != nil {
			return fmt.Errorf("line %d: %s: %v", line, key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("body: %v", err)
	}
	if !seen["processors"] {
		return fmt.Errorf("processors: missing")
	}
	if !seen["requestedWallTime"] {
		return fmt.Errorf("requestedWallTime: missing")
	}
	return nil
}

// validate applies §2.3: confidence an integer in [10, 95], cores ≥ 1,
// wall time ≥ 1 s (the per-queue maxima are checked against each
// location), and our own quantile in [1, 99].
func (r *PredictRequest) validate() error {
	if r.Cores < 1 {
		return fmt.Errorf("cores: %d, want ≥ 1", r.Cores)
	}
	// Durations are bounded as an event's are (maxSpan): as whole seconds
	// in JSON they were any int64, 2^63−1 s echoed back as a within of
	// 2562047788015215:30:07, where the text form and the query stop at
	// 10^9 hours.
	if r.WallTime < 1 || r.WallTime > maxSpan {
		return fmt.Errorf("wallTime: %d s, want 1 s to %d s", r.WallTime, int64(maxSpan))
	}
	if err := checkLevels(r.Quantile, r.Confidence); err != nil {
		return err
	}
	if r.Within < 0 || r.Within > maxSpan {
		return fmt.Errorf("within: %d s, want 0 to %d s", r.Within, int64(maxSpan))
	}
	if len(r.Locations) == 0 {
		return fmt.Errorf("locations: none given, want at least one queue@system")
	}
	if len(r.Locations) > maxLocations {
		return fmt.Errorf("locations: %d given, at most %d", len(r.Locations), maxLocations)
	}
	for i, l := range r.Locations {
		if !validName(l.System) || !validName(l.Queue) {
			return fmt.Errorf("locations[%d]: %q is not queue@system", i, clip(l.String()))
		}
	}
	for _, f := range []struct{ name, v string }{{"user", r.User}, {"account", r.Account}} {
		if len(f.v) > maxField || !utf8.ValidString(f.v) {
			return fmt.Errorf("%s: %d bytes or not valid UTF-8, want at most %d bytes of UTF-8", f.name, len(f.v), maxField)
		}
	}
	return nil
}

// checkLevels applies the ranges of a prediction's levels, in a
// hypothetical request or a queued job's query: confidence an integer in
// [10, 95] (§2.3), our quantile in [1, 99].
func checkLevels(quantile, confidence int) error {
	if confidence < 10 || confidence > 95 {
		return fmt.Errorf("confidence: %d, want an integer in [10, 95]", confidence)
	}
	if quantile < 1 || quantile > 99 {
		return fmt.Errorf("quantile: %d, want an integer percent in [1, 99]", quantile)
	}
	return nil
}

// parseDuration reads "hh:mm:ss", "mm:ss" or whole seconds.
func parseDuration(s string) (int64, error) {
	if strings.Count(s, ":") > 2 {
		return 0, fmt.Errorf("%q, want hh:mm:ss", clip(s))
	}
	var total int64
	for i, rest := 0, s; ; i++ {
		p, more, _ := strings.Cut(rest, ":")
		// Digits only (number): "-00:30:00" was read as +30 minutes
		// (the sign of "-00" is lost).
		n, ok := number(p)
		if !ok || (i > 0 && n > 59) {
			return 0, fmt.Errorf("%q, want hh:mm:ss", clip(s))
		}
		if n > maxSpan {
			// (bounding the sum; a part up to 2^40 overflows nothing,
			// and the callers' ranges name the seconds: whole seconds
			// of 10 digits and more were "want hh:mm:ss", though
			// within 2^40)
			return 0, fmt.Errorf("%q, want at most %d s (2^40)", clip(s), int64(maxSpan))
		}
		total = total*60 + n
		if len(p) == len(rest) {
			return total, nil
		}
		rest = more
	}
}

// number reads a number a request gives (a query's, a form's, a text
// body's, a path's): decimal digits only, at most 2^63−1. strconv's
// parsers take a sign, and "+1200" was 1200 where "-1" and "0x10" were
// refused; every number the service reads from a request is ≥ 0, so none
// needs one (TestNumbersNoSign). Leading zeros are kept, as before.
func number(s string) (int64, bool) {
	if !digits(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// smallNumber is number for a value kept in an int (a percent, a count
// of rows): one that does not fit is not read.
func smallNumber(s string) (int, bool) {
	n, ok := number(s)
	if !ok || int64(int(n)) != n {
		return 0, false
	}
	return int(n), true
}

func digits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// hms formats seconds as hh:mm:ss (hours may exceed 24).
func hms(s int64) string {
	sign := ""
	if s < 0 {
		sign, s = "-", -s
	}
	return fmt.Sprintf("%s%02d:%02d:%02d", sign, s/3600, s/60%60, s%60)
}
