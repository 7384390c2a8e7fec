package swf

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDemandLineRead(t *testing.T) {
	in := "; Version: 2.2\n" +
		";= nodes=2 cores=32 mem=65536 gpus=4000 models=V100M16|V100%7C32 excl +license/matlab=1 +bb=0\n" +
		goodLine + "\n" +
		"\t;=  gpus=460\tnodes=1 \r\n" +
		"\n" + // blank lines between a demand line and its job are allowed
		goodLine + "\n" +
		";=\n" + goodLine + "\n" +
		";===== a comment, not a demand line\n" +
		goodLine + "\n"
	r := NewReader(strings.NewReader(in))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Lines) != 1 {
		t.Errorf("header lines %q: a demand line is not a header line", h.Lines)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []*Demand{
		{Nodes: 2, Cores: 32, Memory: 65536, GPUs: 4000, GPUModels: []string{"V100M16", "V100|32"},
			Exclusive: true, Named: map[string]int64{"license/matlab": 1, "bb": 0}},
		{Nodes: 1, GPUs: 460},
		{},
		nil,
	}
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(jobs), len(want))
	}
	for i, d := range want {
		if !reflect.DeepEqual(jobs[i].Demand, d) {
			t.Errorf("job %d: demand %+v, want %+v", i, jobs[i].Demand, d)
		}
	}
	st := r.Stats()
	if st.Demands != 3 || st.LateComments != 1 || st.Jobs != 4 {
		t.Errorf("stats: %d demands, %d late comments, %d jobs; want 3, 1, 4", st.Demands, st.LateComments, st.Jobs)
	}
}

// A tool that reads 18 fields and skips comment lines reads the same jobs.
func TestDemandLineInvisibleToOtherTools(t *testing.T) {
	jobs := []Job{{ID: 1, RunTime: 10, AllocProcs: 8, Status: 1, Demand: &Demand{Nodes: 1, GPUs: 2000, GPUModels: []string{"A100"}}},
		{ID: 2, Submit: 3, RunTime: 5, AllocProcs: 2, Status: 1}}
	var buf bytes.Buffer
	if err := WriteAll(&buf, &Header{MaxProcs: 8}, jobs); err != nil {
		t.Fatal(err)
	}
	var plainLines []string
	for l := range strings.Lines(buf.String()) {
		if !strings.HasPrefix(l, ";") {
			plainLines = append(plainLines, l)
			if n := len(strings.Fields(l)); n != NumFields {
				t.Errorf("line %q has %d fields", l, n)
			}
		}
	}
	got, err := NewReader(strings.NewReader(strings.Join(plainLines, ""))).ReadAll()
	if err != nil || len(got) != 2 || got[0].ID != 1 || got[0].Demand != nil || got[1].Submit != 3 {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestDemandLineErrors(t *testing.T) {
	cases := []struct {
		name, input string
		line        int
		key         string
		err         error
	}{
		{"unknown key", ";= gpu=1000\n" + goodLine, 1, "gpu", ErrSyntax},
		{"flag with value", ";= excl=1\n" + goodLine, 1, "excl", ErrSyntax},
		{"key without value", ";= nodes\n" + goodLine, 1, "nodes", ErrSyntax},
		{"empty key", ";= =3\n" + goodLine, 1, "", ErrSyntax},
		{"repeated key", goodLine + "\n;= cores=4 cores=5\n" + goodLine, 2, "cores", ErrSyntax},
		{"repeated name", ";= nodes=1 +a=1 +a=2\n" + goodLine, 1, "a", ErrSyntax},
		{"not a count", ";= mem=4G\n" + goodLine, 1, "mem", ErrSyntax},
		{"negative", ";= cores=-1\n" + goodLine, 1, "cores", ErrSyntax},
		{"over 2^40", ";= mem=1099511627777\n" + goodLine, 1, "mem", ErrRange},
		{"20 digits", ";= mem=99999999999999999999\n" + goodLine, 1, "mem", ErrRange},
		{"bad escape", ";= models=A%4\n" + goodLine, 1, "models", ErrSyntax},
		{"empty name", ";= nodes=1 +=2\n" + goodLine, 1, "+", ErrSyntax},
		{"name without value", ";= nodes=1 +lic\n" + goodLine, 1, "lic", ErrSyntax},
		{"GPU share above one", ";= nodes=1 gpus=1500\n" + goodLine, 1, "", ErrRange},
		{"GPUs without nodes", ";= gpus=1000\n" + goodLine, 1, "", ErrRange},
		{"orphan at the end", goodLine + "\n;= nodes=1\n", 2, "", ErrSyntax},
		{"orphan before a comment", ";= nodes=1\n; Note: x\n" + goodLine, 1, "", ErrSyntax},
		{"orphan before a demand", ";= nodes=1\n;= nodes=2\n" + goodLine, 1, "", ErrSyntax},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(c.input))
			_, err := r.ReadAll()
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want *ParseError", err)
			}
			if pe.Line != c.line || pe.Key != c.key || pe.Field != 0 || !errors.Is(err, c.err) {
				t.Errorf("got line %d key %q field %d (%v), want line %d key %q (%v)", pe.Line, pe.Key, pe.Field, err, c.line, c.key, c.err)
			}
			if !strings.Contains(err.Error(), "demand") || strings.Contains(err.Error(), "header") {
				t.Errorf("error %q does not say demand line", err)
			}
			// Lenient: the demand line is skipped and counted; every job
			// line is read, without that demand.
			r = NewReader(strings.NewReader(c.input))
			r.Lenient = true
			jobs, err := r.ReadAll()
			if st := r.Stats(); err != nil || st.Skipped != 1 || len(st.Errors) != 1 || st.Jobs != strings.Count(c.input, goodLine) {
				t.Fatalf("lenient: %v, stats %+v", err, st)
			}
			for _, j := range jobs {
				if j.Demand != nil && c.line == 1 && c.name != "orphan before a demand" {
					t.Errorf("lenient: job %d kept demand %+v of a bad line", j.ID, j.Demand)
				}
			}
		})
	}
}

// A malformed job line takes its demand line with it: the next job does
// not inherit it, and only the job line is counted.
func TestDemandLineBadJob(t *testing.T) {
	in := ";= nodes=1 cores=4\n1 2 3\n" + goodLine + "\n"
	r := NewReader(strings.NewReader(in))
	r.Lenient = true
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 1 || jobs[0].Demand != nil || r.Stats().Skipped != 1 || r.Stats().Demands != 0 {
		t.Fatalf("%v %+v %+v", err, jobs, r.Stats())
	}
}

func TestDemandLineWrite(t *testing.T) {
	j := Job{ID: 7, Status: 1, Demand: &Demand{Nodes: 2, Cores: 8, Memory: 1024, GPUs: 1000, GPUModels: []string{"A 100", "H100"},
		Exclusive: true, Named: map[string]int64{"z": 2, "nodes": 1, "a=b": 3}}}
	b, err := j.AppendText(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := ";= nodes=2 cores=8 mem=1024 gpus=1000 models=A%20100|H100 excl +a%3Db=3 +nodes=1 +z=2\n7 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0"
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	back, err := NewReader(bytes.NewReader(b)).Read()
	if err != nil || !jobsEqual(back, j) {
		t.Errorf("read back %+v %+v, %v", back, back.Demand, err)
	}
	// An invalid demand is not written.
	var buf bytes.Buffer
	w := NewWriter(&buf)
	bad := Job{ID: 8, Demand: &Demand{GPUs: 1500, Nodes: 1}}
	if err := w.Write(&bad); err == nil || !strings.Contains(err.Error(), "job 8") {
		t.Errorf("invalid demand written: %v", err)
	}
	w.Flush()
	if buf.Len() != 0 {
		t.Errorf("wrote %q", buf.String())
	}
}

// Validate names the same bad named resource on every call, the first by
// name: it named whichever the map's order gave first.
func TestValidateNamesFirstBadNamed(t *testing.T) {
	named := map[string]int64{}
	for _, k := range []string{"m", "c", "x", "b", "q", "z", "e", "k"} {
		named[k] = -1
	}
	for range 50 {
		d := Demand{Nodes: 1, Named: named}
		if err := d.Validate(); err == nil || !strings.Contains(err.Error(), `"b"`) {
			t.Fatalf("demand with every named resource bad: %v; want it to name \"b\"", err)
		}
		n := Node{Count: 1, Named: named}
		if err := n.Validate(); err == nil || !strings.Contains(err.Error(), `"b"`) {
			t.Fatalf("node with every named resource bad: %v; want it to name \"b\"", err)
		}
	}
}
