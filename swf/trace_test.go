package swf_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// Every shared trace parses in strict mode, with the job count of the
// traces README, a machine size from its header, and none of the warnings
// or counts meant for quirkier logs: the header rules do not misfire.
func TestTracesParseStrict(t *testing.T) {
	for _, tr := range tracetest.All {
		t.Run(tr.Name, func(t *testing.T) {
			f, err := swf.Open(tracetest.Path(t, tr.Name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			h, err := f.Header()
			if err != nil {
				t.Fatal(err)
			}
			jobs, err := f.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != tr.Jobs {
				t.Errorf("%d jobs, want %d", len(jobs), tr.Jobs)
			}
			if _, err := h.MachineSize(); err != nil {
				t.Error(err)
			}
			st := f.Stats()
			if len(st.Warnings) != 0 || st.OtherStatus != 0 || st.UnknownSubmit != 0 || st.LateComments != 0 {
				t.Errorf("warnings %v, other status %d, unknown submits %d, late comments %d",
					st.Warnings, st.OtherStatus, st.UnknownSubmit, st.LateComments)
			}
		})
	}
}

// Header values documented in the traces README.
func TestTraceHeaders(t *testing.T) {
	cases := []struct {
		name             string
		maxProcs, maxNod int64
		version          string
	}{
		{tracetest.CTC, 338, 338, "2.2"},
		{tracetest.SDSCBlue, 1152, 144, "2.2"},
		{tracetest.Lublin, 0, 256, "2"},
	}
	for _, c := range cases {
		h, _, err := swf.ReadFile(tracetest.Path(t, c.name))
		if err != nil {
			t.Fatal(err)
		}
		if h.MaxProcs != c.maxProcs || h.MaxNodes != c.maxNod || h.Version != c.version {
			t.Errorf("%s: MaxProcs %d MaxNodes %d Version %q", c.name, h.MaxProcs, h.MaxNodes, h.Version)
		}
	}
}

// Writing a real trace and reading it back gives the same header and jobs;
// with the raw lines kept, the header is byte-identical.
func TestTraceRoundTrip(t *testing.T) {
	path := tracetest.Path(t, tracetest.SDSCSP2)
	h, jobs, err := swf.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := swf.WriteAll(&buf, h, jobs); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(&buf)
	h2, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	jobs2, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs2) != len(jobs) {
		t.Fatalf("%d jobs after round trip, want %d", len(jobs2), len(jobs))
	}
	for i := range jobs {
		if jobs[i] != jobs2[i] {
			t.Fatalf("job %d: %+v != %+v", i, jobs2[i], jobs[i])
		}
	}
	if len(h2.Lines) != len(h.Lines) || h2.MaxProcs != h.MaxProcs || h2.Note[0] != h.Note[0] {
		t.Errorf("header changed in round trip")
	}
	raw := readRawHeader(t, path)
	var hb bytes.Buffer
	hw := swf.NewWriter(&hb)
	hw.WriteHeader(h)
	hw.Flush()
	if !bytes.Equal(hb.Bytes(), raw) {
		t.Errorf("header not byte-identical:\n%s\nvs\n%s", hb.Bytes(), raw)
	}
}

// readRawHeader returns the leading comment lines of a gzip trace as stored.
func readRawHeader(t *testing.T, path string) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(gunzip(t, path), []byte("\n")) {
		if len(l) == 0 || l[0] != ';' {
			break
		}
		out = append(out, l...)
	}
	return out
}

// gunzip returns the uncompressed content of a gzip file, independently of
// the package's own Open.
func gunzip(tb testing.TB, path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
