package cli

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// The rule of a degenerate E_max (estimates and simulate warn by it): more
// than 10× the next largest estimate, or longer than both the span of the
// submits and a year; a log of one estimate value has no next to compare
// with (a toy log's 60 s over 30 s of submissions was "longer than the
// log"), and 2 h over 100 s of submissions is no corrupt value. Jobs
// without an estimate or beyond 2^40 s (S6 skips them) do not count, and
// a job submitted at 0 counts in the span.
func TestCheckEMax(t *testing.T) {
	job := func(id, submit, est int64) swf.Job { return swf.Job{ID: id, Submit: submit, ReqTime: est} }
	for _, c := range []struct {
		name string
		jobs []swf.Job
		want *DegenerateEMax
	}{
		{"sane", []swf.Job{job(1, 0, 3600), job(2, 86400, 7200)}, nil},
		{"one value", []swf.Job{job(1, 0, 60), job(2, 30, 60), job(3, 30, -1)}, nil},
		{"factor", []swf.Job{job(1, 0, 3600), job(2, 1e6, 36001), job(3, 2e6, -1), job(4, 2e6, 1<<41)}, &DegenerateEMax{Job: 2, EMax: 36001, Next: 3600, Span: 2e6}},
		{"longer than the span, under a year", []swf.Job{job(1, 0, 3600), job(2, 100, 7200), job(3, -1, 1)}, nil},
		{"span", []swf.Job{job(1, 0, 300*86400), job(2, 100, 400*86400), job(3, -1, 1)}, &DegenerateEMax{Job: 2, EMax: 400 * 86400, Next: 300 * 86400, Span: 100}},
		{"one value over a year", []swf.Job{job(1, 0, 400*86400), job(2, 100, -1)}, &DegenerateEMax{Job: 1, EMax: 400 * 86400, Span: 100}},
	} {
		got := CheckEMax(c.jobs)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
