package convert

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// TestDamagedGzip: a gzip input with a damaged byte inflates to garbage
// text before its checksum fails; a conversion that stopped at the
// garbage (Strict's malformed record, a header that is not sacct's)
// returned the garbage line's error alone. It now leads with the
// stream's error, and errors.Is finds gzip.ErrChecksum.
func TestDamagedGzip(t *testing.T) {
	log, err := os.ReadFile("testdata/sacct-parsable2.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		data   []byte
		strict bool
		after  string
	}{
		{"field", tracetest.DamageStored(t, log, 3, "|", "!"), true, "sacct line 3: 24 fields, the header has 25"},
		{"header", tracetest.DamageStored(t, log, 1, "State", "Stbte"), false, "sacct line 1: header lacks"},
	} {
		_, err := Sacct(bytes.NewReader(c.data), Options{Strict: c.strict})
		if err == nil || !errors.Is(err, gzip.ErrChecksum) ||
			!strings.HasPrefix(err.Error(), "convert: input: gzip data corrupt: gzip: invalid checksum (") || !strings.Contains(err.Error(), c.after) {
			t.Errorf("%s: %v; want the gzip error first, then %q", c.name, err, c.after)
		}
	}
	// JSON: a quote turned into a letter is a syntax error, Strict or not.
	js, err := os.ReadFile("testdata/sacct-22.05.json")
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(js, []byte(`"jobs"`))
	zjs := tracetest.StoredGzip(t, js)
	i := bytes.Index(zjs, js[at:at+64])
	if at < 0 || i < 0 {
		t.Fatal("no \"jobs\" stored in the gzip data")
	}
	zjs[i] = 'x'
	if _, err := SacctJSON(bytes.NewReader(zjs), Options{}); err == nil || !errors.Is(err, gzip.ErrChecksum) {
		t.Errorf("sacct-json: %v; want the gzip error first", err)
	}
	// The same line in an intact gzip input is the line's error alone.
	bad := bytes.Replace(log, []byte("\n1001.batch|"), []byte("\n1001.batch!"), 1) // line 3, as in "field"
	_, err = Sacct(bytes.NewReader(tracetest.StoredGzip(t, bad)), Options{Strict: true})
	if err == nil || err.Error() != "convert: sacct line 3: 24 fields, the header has 25" {
		t.Errorf("intact: %v; want the line's error alone", err)
	}
}
