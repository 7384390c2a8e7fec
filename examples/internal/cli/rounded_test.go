package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// The time fields a reader rounded (swf.Stats.Rounded) reach every
// command's report through Skipped: its text Note and its -json key,
// absent when none was, so that a report of a log without them is as it
// was.
func TestSkippedCarriesRounded(t *testing.T) {
	s := SkippedOf(swf.Stats{Rounded: 2})
	if n := s.Note(); !strings.HasPrefix(n, "2 time fields written with a fraction read rounded") {
		t.Errorf("Note %q, want the rounded fields", n)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"time_fields_rounded":2`) {
		t.Errorf("-json %s lacks time_fields_rounded", b)
	}
	s.Add("b", swf.Stats{Rounded: 3, Skipped: 1}, true)
	if s.Rounded != 5 || !strings.Contains(s.Note(), "skipped 1 malformed lines (-lenient); 5 time fields") {
		t.Errorf("after Add: rounded %d, Note %q", s.Rounded, s.Note())
	}
	none, _ := json.Marshal(SkippedOf(swf.Stats{}))
	if strings.Contains(string(none), "rounded") || SkippedOf(swf.Stats{}).Note() != "" {
		t.Errorf("a read without rounded fields says them: %s %q", none, SkippedOf(swf.Stats{}).Note())
	}
}
