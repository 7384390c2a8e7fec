package convert

import (
	"os"
	"strings"
	"testing"
)

// TestColumnMapUnknownSuffix: a mapped column of the header with a
// suffix that is no unit of its role (limit=Wall:fortnight, user=User:fortnight)
// says the suffix is the fault; it said "the header has no such column"
// of a column the header has.
func TestColumnMapUnknownSuffix(t *testing.T) {
	b, err := os.ReadFile("testdata/table-generic.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		col  map[string]string
		want string
	}{
		{map[string]string{"submit": "Submitted", "limit": "Wall:fortnight"}, `(it has wall; "fortnight" is not a suffix of limit: h, min, s)`},
		{map[string]string{"submit": "Submitted", "user": "User:fortnight"}, "(it has user; user takes no :SUFFIX)"},
	} {
		_, err := GPUTrace(strings.NewReader(string(b)), Options{ColumnMap: c.col})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error with %q", c.col, err, c.want)
		}
	}
}
