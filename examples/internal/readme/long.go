package readme

import (
	"maps"
	"os"
	"slices"
	"testing"
)

// Long reports whether the long regenerations are on (BATCHQ_LONG=1).
func Long() bool { return os.Getenv(LongEnv) == "1" }

// CheckLong pins regions too slow to compute in a plain `go test`.
// Without BATCHQ_LONG=1 it only checks that each region of the README at
// path still has its recorded digest (CheckDigest), and compute is not
// called. With it, compute returns the regions' text; each is compared
// (or rewritten, with BATCHQ_UPDATE_README=1) as by Check, and the test
// fails if its digest is not the recorded one, naming the digest to
// record.
func CheckLong(t testing.TB, path string, digests map[string]string, compute func() map[string][]byte) {
	t.Helper()
	names := slices.Sorted(maps.Keys(digests))
	if !Long() {
		for _, name := range names {
			CheckDigest(t, path, name, digests[name])
		}
		return
	}
	got := compute()
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := digests[name]; !ok {
			Check(t, path, name, got[name])
			t.Errorf("%s: region %s computed but has no recorded digest (record %q: %q)", path, name, name, Digest(got[name]))
		}
	}
	for _, name := range names {
		text, ok := got[name]
		if !ok {
			t.Errorf("%s: region %s has a digest but was not computed", path, name)
			continue
		}
		Check(t, path, name, text)
		if d := Digest(text); d != digests[name] {
			t.Errorf("%s: region %s: the computed text's digest is %s, the recorded one %s: record %q: %q", path, name, d, digests[name], name, d)
		}
	}
}
