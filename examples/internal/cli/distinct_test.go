package cli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDistinctInputs(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		paths []string
		bad   bool
	}{
		{[]string{a, b}, false},
		{[]string{a}, false},
		{[]string{"-", a}, false},
		{[]string{a, filepath.Join(dir, "missing"), b}, false},
		{[]string{a, b, a}, true},
		{[]string{a, filepath.Join(dir, ".", "a.swf")}, true},
		{[]string{link, b, a}, true},
		{[]string{"-", "-"}, true},
	} {
		err := DistinctInputs(tc.paths)
		if got := err != nil; got != tc.bad || (err != nil && !errors.As(err, new(UsageError))) {
			t.Errorf("%q: %v; want an error %v (a usage error)", tc.paths, err, tc.bad)
		}
	}
}
