package tracetest

import (
	"os"
	"path/filepath"
	"testing"
)

// ReferencePath returns the path of a peer simulator's reference schedule
// in ../shared/reference (beside the traces directory, or
// $BATCHQ_REFERENCE). It skips tb when the file is absent, or fails it when
// CI=true.
func ReferencePath(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv("BATCHQ_REFERENCE")
	if dir == "" {
		d, err := Dir()
		if err != nil {
			tb.Fatal(err)
		}
		dir = filepath.Join(d, "..", "reference")
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("reference schedule %s required in CI: %v", name, err)
		}
		tb.Skipf("reference schedule %s not available (%v); skipping", name, err)
	}
	return p
}
