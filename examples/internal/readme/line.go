package readme

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"
)

// line returns the offsets of the one line of doc that starts with prefix,
// its newline included.
func line(doc []byte, prefix string) (int, int, error) {
	at := -1
	for i := 0; i < len(doc); {
		end := bytes.IndexByte(doc[i:], '\n') + 1
		if end == 0 {
			end = len(doc) - i
		}
		if bytes.HasPrefix(doc[i:i+end], []byte(prefix)) {
			if at >= 0 {
				return 0, 0, fmt.Errorf("two lines start with %q", prefix)
			}
			at = i
		}
		i += end
	}
	if at < 0 {
		return 0, 0, fmt.Errorf("no line starts with %q", prefix)
	}
	end := bytes.IndexByte(doc[at:], '\n') + 1
	if end == 0 {
		end = len(doc) - at
	}
	return at, at + end, nil
}

// CheckLine is Check for one line: the line of the file at path that
// starts with prefix must be got (newline included). It is for a row of a
// Markdown table, which a region's comment lines would break. With
// BATCHQ_UPDATE_README=1 it rewrites the line.
func CheckLine(t testing.TB, path, prefix string, got []byte) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j, err := line(doc, prefix)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if os.Getenv(UpdateEnv) == "1" {
		if err := os.WriteFile(path, slices.Concat(doc[:i], got, doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: line %q rewritten", path, prefix)
		return
	}
	if !bytes.Equal(doc[i:j], got) {
		t.Errorf("%s: the line starting %q differs from what the code computes (regenerate with %s=1 go test -run %s)\n README: %s code:   %s",
			path, prefix, UpdateEnv, t.Name(), doc[i:j], got)
	}
}
