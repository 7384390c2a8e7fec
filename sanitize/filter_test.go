package sanitize

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

func TestParseFilterMatch(t *testing.T) {
	f, err := parseFilter("user=328 job=66553..68106 size=32 submit=..100 # day 581")
	if err != nil {
		t.Fatal(err)
	}
	j := swf.Job{ID: 66553, User: 328, AllocProcs: 32, Submit: 100}
	if !f.Match(&j) {
		t.Errorf("%v should match %+v", f, j)
	}
	for _, mod := range []func(*swf.Job){
		func(j *swf.Job) { j.ID = 66552 },
		func(j *swf.Job) { j.User = 1 },
		func(j *swf.Job) { j.AllocProcs = 16 },
		func(j *swf.Job) { j.Submit = 101 },
	} {
		k := j
		mod(&k)
		if f.Match(&k) {
			t.Errorf("%v should not match %+v", f, k)
		}
	}
	if f.Comment != "day 581" {
		t.Errorf("comment %q", f.Comment)
	}
}

func TestParseFiltersErrorNamesLine(t *testing.T) {
	for _, bad := range []string{"user", "nokey=3", "user=x", "user=5..3", "user=..", "user=1 user=2", "job=1...3"} {
		in := "# header\nuser=1\n\n" + bad + "\n"
		_, err := ParseFilters(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), "line 4") {
			t.Errorf("%q: error %v, want one naming line 4", bad, err)
		}
	}
}

func TestEmptyFilterMatchesNothing(t *testing.T) {
	var f Filter
	if f.Match(&swf.Job{}) {
		t.Error("empty filter matched")
	}
}

func genFilter(t *rapid.T) Filter {
	n := rapid.IntRange(1, int(numFields)).Draw(t, "n")
	perm := rapid.Permutation([]field{fieldJob, fieldSubmit, fieldUser, fieldGroup, fieldExec, fieldQueue, fieldPartition, fieldSize, fieldReqTime, fieldRunTime, fieldStatus}).Draw(t, "fields")
	var f Filter
	for _, fld := range perm[:n] {
		lo := rapid.Int64Range(-1000, 1000000).Draw(t, "lo")
		hi := lo + rapid.Int64Range(0, 1000000).Draw(t, "w")
		switch rapid.IntRange(0, 3).Draw(t, "open") {
		case 1:
			lo = math.MinInt64
		case 2:
			hi = math.MaxInt64
		case 3:
			hi = lo
		}
		f.clauses = append(f.clauses, clause{field: fld, lo: lo, hi: hi})
	}
	f.Comment = strings.TrimSpace(rapid.StringMatching(`[a-z0-9 ,]{0,20}`).Draw(t, "comment"))
	return f
}

func TestFilterRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fs := Filters(rapid.SliceOfN(rapid.Custom(genFilter), 0, 5).Draw(t, "fs"))
		for i := range fs { // the parser orders clauses by field
			g, err := parseFilter(fs[i].String())
			if err != nil {
				t.Fatal(err)
			}
			fs[i] = g
		}
		var buf bytes.Buffer
		if err := fs.Write(&buf); err != nil {
			t.Fatal(err)
		}
		got, err := ParseFilters(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 && len(got) == 0 {
			return
		}
		if !reflect.DeepEqual(got, fs) {
			t.Fatalf("round trip:\n%v\n%v", fs, got)
		}
	})
}

func FuzzParseFilters(f *testing.F) {
	f.Add(pwaSDSCSP2)
	f.Add("user=1..\njob=..5 # x\n")
	f.Fuzz(func(t *testing.T, s string) {
		fs, err := ParseFilters(strings.NewReader(s))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := fs.Write(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := ParseFilters(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("reparse of %q: %v", buf.String(), err)
		}
		if buf.String() != fmtFilters(again) {
			t.Fatalf("not a fixed point: %q vs %q", buf.String(), fmtFilters(again))
		}
	})
}

func fmtFilters(fs Filters) string {
	var b bytes.Buffer
	_ = fs.Write(&b)
	return b.String()
}

// pwaSDSCSP2 holds the PWA's cleaning filters of SDSC-SP2, known exactly
// (spec §1.4, thesis Ch. 6), which turn the raw log (73,496 jobs) into its
// cln version (59,725 jobs): user plus raw job-number range, which the PWA
// states as lo < job < hi, written here inclusively.
const pwaSDSCSP2 = `user=21 job=13717..16207    # 944 jobs
user=374 job=14969..28552   # 11,740 jobs: the flurry at the start of the log
user=197 job=31767..33202   # 635 jobs
user=328 job=66553..68106   # 452 jobs: contains the 375-job day-581 flurry
`

// The cln SDSC-SP2 log is raw minus exactly the PWA filters, so none of
// them may match a job left in it.
func TestPWASDSCSP2OnCleanLog(t *testing.T) {
	fs, err := ParseFilters(strings.NewReader(pwaSDSCSP2))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 4 {
		t.Fatalf("%d filters, want 4", len(fs))
	}
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.SDSCSP2))
	if err != nil {
		t.Fatal(err)
	}
	kept, removed := fs.Apply(jobs)
	if len(kept) != len(jobs) {
		t.Errorf("PWA filters removed %v jobs from the cln log, want none", removed)
	}
}

func ExampleParseFilters() {
	fs, err := ParseFilters(strings.NewReader("user=374 job=14969..28552 # flurry\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs := []swf.Job{{ID: 14969, User: 374}, {ID: 14969, User: 1}, {ID: 30000, User: 374}}
	kept, removed := fs.Apply(jobs)
	fmt.Println(fs[0], len(kept), removed)
	// Output: user=374 job=14969..28552 # flurry 2 [1]
}

// ParseFilters's doc, which godoc shows, names every key of the filter
// language: the language was described in a comment no godoc shows, so
// that a user of ParseFilters had to guess the keys. Checked: fails
// without the doc moved.
func TestParseFiltersDocKeys(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "filter.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "ParseFilters" {
			text := fn.Doc.Text()
			for _, k := range fieldKeys {
				if !regexp.MustCompile(`\b` + k + `\b`).MatchString(text) {
					t.Errorf("ParseFilters's doc does not name the key %q", k)
				}
			}
			if !strings.Contains(text, "lo..hi") {
				t.Error("ParseFilters's doc does not give the ranges")
			}
			return
		}
	}
	t.Fatal("no ParseFilters in filter.go")
}
