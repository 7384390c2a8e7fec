package main

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
)

// -json's keys are snake_case, as every other command's: they were the
// Report's camelCase ("meanAbsLog10", "nWithin2", "notDue"). The mirror
// keeps every field of the Report (a field added there fails here).
func TestJSONSnakeCase(t *testing.T) {
	if a, b := reflect.TypeFor[slurmfeed.Report]().NumField(), reflect.TypeFor[reportJSON]().NumField(); a != b {
		t.Errorf("slurmfeed.Report has %d fields, reportJSON %d", a, b)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-poll", "2s", "-replay", recordingPath, "-json"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, `"mean_abs_log10"`) || !strings.Contains(s, `"n_within2"`) {
		t.Errorf("-json lacks mean_abs_log10, n_within2:\n%.400s", s)
	}
	var keys map[string]any
	if err := json.Unmarshal(out.Bytes(), &keys); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.ToLower(k) != k {
					t.Errorf("key %q is not snake_case", k)
				}
				switch k {
				case "events", "skipped", "not_due", "probes": // keyed by data, not fields
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(keys)
}
