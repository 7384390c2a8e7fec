package cli

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// OtherStatus is a log's job lines whose status (SWF field 11) lies
// outside the standard -1..5 (swf.Stats.OtherStatus), kept and simulated:
// the one note simulate, swfstat and replay print of them.
type OtherStatus struct {
	Lines int
	// ByValue splits Lines by status value (swf.Stats.OtherStatusCounts:
	// the first 64 values).
	ByValue map[swf.Status]int
}

// OtherStatusOf is st's OtherStatus.
func OtherStatusOf(st swf.Stats) OtherStatus {
	return OtherStatus{Lines: st.OtherStatus, ByValue: st.OtherStatusCounts}
}

// Counts lists the status values and their line counts in value order,
// e.g. "-4: 1, -2: 2", then the lines of the values past those ByValue
// holds (the reader splits the first 64 values only): "…, 7 lines of
// further values". The list summed to fewer lines than the note's count
// without a word of the rest.
func (o OtherStatus) Counts() string {
	keys := slices.Sorted(maps.Keys(o.ByValue))
	parts := make([]string, len(keys), len(keys)+1)
	listed := 0
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d: %d", k, o.ByValue[k])
		listed += o.ByValue[k]
	}
	if rest := o.Lines - listed; rest > 0 {
		parts = append(parts, fmt.Sprintf("%d lines of further values", rest))
	}
	return strings.Join(parts, ", ")
}

// Keys is ByValue keyed by the value's decimal text, for -json
// (swfstat's status_outside_standard_by_value, simulate's by_status).
func (o OtherStatus) Keys() map[string]int {
	m := make(map[string]int, len(o.ByValue))
	for v, n := range o.ByValue {
		m[strconv.FormatInt(int64(v), 10)] = n
	}
	return m
}

// Note is the report's sentence of them, "" when there is none.
func (o OtherStatus) Note() string {
	if o.Lines == 0 {
		return ""
	}
	return fmt.Sprintf("%d job lines with a status outside the SWF standard -1..5 (kept and simulated): %s", o.Lines, o.Counts())
}
