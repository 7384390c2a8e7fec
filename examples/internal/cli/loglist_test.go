package cli

import (
	"errors"
	"slices"
	"testing"
)

// An empty item of a list of logs is a usage error; the others are the
// list's items, as written.
func TestLogList(t *testing.T) {
	for _, v := range []string{"a.swf,", ",a.swf", "a.swf,,b.swf", "a.swf, ,b.swf", ","} {
		if _, err := LogList("-trace", v); !errors.As(err, new(UsageError)) {
			t.Errorf("%q: %v, want a usage error", v, err)
		}
	}
	if got, err := LogList("-trace", "a.swf, b c.swf ,-"); err != nil || !slices.Equal(got, []string{"a.swf", "b c.swf", "-"}) {
		t.Errorf("LogList = %q, %v", got, err)
	}
}
