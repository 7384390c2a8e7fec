package swf

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"pgregory.net/rapid"
)

func genJob() *rapid.Generator[Job] {
	return rapid.Custom(func(t *rapid.T) Job {
		n := func(label string) int64 { return rapid.Int64Range(-1, math.MaxInt64/4).Draw(t, label) }
		f := func(label string) float64 {
			// Values as logs write them: -1 or a decimal with few digits.
			return float64(rapid.Int64Range(-100, 1e9).Draw(t, label)) / 100
		}
		fr := func(label string) float64 {
			v := f(label)
			if v < -1 {
				v = -1
			}
			return v
		}
		return Job{
			ID: n("id"), Submit: n("submit"), Wait: n("wait"), RunTime: n("run"), AllocProcs: n("alloc"),
			AvgCPUTime: fr("cpu"), UsedMemory: fr("mem"), ReqProcs: n("reqp"), ReqTime: n("reqt"),
			ReqMemory: fr("reqm"), Status: Status(rapid.OneOf(rapid.Int64Range(-1, 5), rapid.Int64()).Draw(t, "status")),
			User: n("user"), Group: n("group"), Executable: n("exe"), Queue: n("queue"),
			Partition: n("part"), PrecedingJob: n("prec"), ThinkTime: n("think"),
			Demand: genDemand().Draw(t, "demand"),
		}
	})
}

// genDemand draws a Demand that validates, nil one time in three; names
// and models are any strings, to exercise the escaping.
func genDemand() *rapid.Generator[*Demand] {
	return rapid.Custom(func(t *rapid.T) *Demand {
		if rapid.IntRange(0, 2).Draw(t, "nil?") == 0 {
			return nil
		}
		amount := func(label string) int64 {
			return rapid.OneOf(rapid.Int64Range(0, 1<<16), rapid.Int64Range(0, maxAmount)).Draw(t, label)
		}
		d := &Demand{Nodes: amount("nodes"), Cores: amount("cores"), Memory: amount("mem"),
			Exclusive: rapid.Bool().Draw(t, "excl")}
		if d.Nodes > 0 {
			d.GPUs = rapid.Int64Range(0, 1000).Draw(t, "gpus")
			if rapid.Bool().Draw(t, "whole?") {
				d.GPUs = rapid.Int64Range(0, 1<<20).Draw(t, "whole") * 1000
			}
			d.Named = rapid.MapOfN(rapid.StringN(1, 8, -1), rapid.Int64Range(0, maxAmount), 0, 3).Draw(t, "named")
		}
		d.GPUModels = rapid.SliceOfN(rapid.String(), 0, 3).Draw(t, "models")
		return d
	})
}

// jobsEqual compares two jobs field by field and their demands by value,
// an empty model list or name map being the same as none.
func jobsEqual(a, b Job) bool {
	da, db := a.Demand, b.Demand
	a.Demand, b.Demand = nil, nil
	if a != b || (da == nil) != (db == nil) {
		return false
	}
	if da == nil {
		return true
	}
	x, y := *da, *db
	for _, d := range []*Demand{&x, &y} {
		if len(d.GPUModels) == 0 {
			d.GPUModels = nil
		}
		if len(d.Named) == 0 {
			d.Named = nil
		}
	}
	return reflect.DeepEqual(x, y)
}

var textGen = rapid.StringMatching(`[A-Za-z0-9][A-Za-z0-9 ./()-]{0,30}[A-Za-z0-9.)]`)

func genHeader() *rapid.Generator[Header] {
	return rapid.Custom(func(t *rapid.T) Header {
		opt := func(label string) string {
			if rapid.Bool().Draw(t, label+"?") {
				return textGen.Draw(t, label)
			}
			return ""
		}
		num := func(label string) int64 { return rapid.Int64Range(0, 1<<40).Draw(t, label) }
		list := func(label string) []string {
			return rapid.SliceOfN(textGen, 0, 3).Draw(t, label)
		}
		h := Header{
			Version: opt("version"), Computer: opt("computer"), Installation: opt("inst"),
			Acknowledge: opt("ack"), Information: list("info"), Conversion: opt("conv"),
			MaxJobs: num("maxjobs"), MaxRecords: num("maxrec"), Preemption: opt("pre"),
			UnixStartTime: num("unix"), TimeZone: rapid.Int64Range(-50000, 50000).Draw(t, "tz"),
			TimeZoneString: opt("tzs"), StartTime: opt("start"), EndTime: opt("end"),
			MaxNodes: num("nodes"), MaxProcs: num("procs"), MaxRuntime: num("maxrt"),
			MaxMemory: num("maxmem"), AllowOveruse: opt("over"), MaxQueues: num("maxq"),
			Queues: opt("queues"), Queue: list("queue"), MaxPartitions: num("maxp"),
			Partitions: opt("parts"), Partition: list("part"), Note: list("note"),
		}
		return h
	})
}

// Read(Write(h, jobs)) gives back h's fields and the jobs.
func TestRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := genHeader().Draw(t, "header")
		jobs := rapid.SliceOf(genJob()).Draw(t, "jobs")
		var buf bytes.Buffer
		w := NewWriter(&buf)
		if err := w.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if err := w.Write(&jobs[i]); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		r := NewReader(&buf)
		got, err := r.Header()
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		gotJobs, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		g := *got
		g.Lines = nil
		if !headersEqual(g, h) {
			t.Fatalf("header round trip:\n got %+v\nwant %+v", g, h)
		}
		if len(gotJobs) != len(jobs) {
			t.Fatalf("%d jobs, want %d", len(gotJobs), len(jobs))
		}
		demands := 0
		for i := range jobs {
			if !jobsEqual(gotJobs[i], jobs[i]) {
				t.Fatalf("job %d: got %+v %+v want %+v %+v", i, gotJobs[i], gotJobs[i].Demand, jobs[i], jobs[i].Demand)
			}
			if jobs[i].Demand != nil {
				demands++
			}
		}
		if st := r.Stats(); st.Demands != demands || st.LateComments != 0 {
			t.Fatalf("stats %+v, want %d demands and no late comment", st, demands)
		}
	})
}

// headersEqual compares the typed fields (Lines aside) with reflect, after
// mapping empty lists to nil.
func headersEqual(a, b Header) bool {
	for _, h := range []*Header{&a, &b} {
		for _, l := range []*[]string{&h.Information, &h.Queue, &h.Partition, &h.Note} {
			if len(*l) == 0 {
				*l = nil
			}
		}
	}
	return reflect.DeepEqual(a, b)
}

// In lenient mode every valid line among garbage comes through, in order.
func TestLenientKeepsValidLines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		jobs := rapid.SliceOf(genJob()).Draw(t, "jobs")
		garbage := rapid.SliceOfN(rapid.SampledFrom([]string{
			"x", "1 2 3", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 -0.5", "\t\t", "",
		}), len(jobs)+1, len(jobs)+1).Draw(t, "garbage")
		var b []byte
		bad := 0
		for i := range jobs {
			b = append(b, garbage[i]...)
			b = append(b, '\n')
			if strings.TrimSpace(garbage[i]) != "" {
				bad++
			}
			b, _ = jobs[i].AppendText(b)
			b = append(b, '\n')
		}
		r := NewReader(bytes.NewReader(b))
		r.Lenient = true
		got, err := r.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(jobs) || r.Stats().Skipped != bad {
			t.Fatalf("got %d jobs (want %d), skipped %d (want %d)", len(got), len(jobs), r.Stats().Skipped, bad)
		}
		for i := range jobs {
			if !jobsEqual(got[i], jobs[i]) {
				t.Fatalf("job %d changed", i)
			}
		}
	})
}

// FuzzReader: no input panics; every error and warning is a *ParseError
// naming a line of the input and quoting a bounded value; the counts agree
// with what was returned; cutting the input into one-byte reads changes
// nothing; and the jobs read back after writing them are the same.
func FuzzReader(f *testing.F) {
	f.Add([]byte("; Version: 2.2\n; MaxProcs: 12 (x)\n" + goodLine + "\n"))
	f.Add([]byte(goodLine + "\r\n1 2\n"))
	f.Add([]byte("1 0 0 1.5e3 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1"))
	f.Add([]byte("1 20.5 0.4 100.6 4 12.5 -1 4 .5 -1 1 7 -1 -1 1 -1 -1 5.\n2 -0.5 -1.0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1"))
	f.Add([]byte("; MaxRuntime: N/A\r; MaxProcs: 4\r; MaxProcs: 8\r" + goodLine + "\r; MaxNodes: 2\r"))
	f.Add([]byte("1 -1 0 1 1 -1 -1 1 1 -1 -2 1 1 1 1 1 1 1\n2 5 0 1 1 -1 -1 1 1 -1 -4 1 1 1 1 1 1 1\n3 1 0 1 1 -1 -1 1 1 -1 6.0 1 1 1 1 1 1 1\n"))
	f.Add([]byte("; Note: a\n;    Key: b\n; Conversion: x\n; Conversion: y\n;    z: w\n"))
	f.Add([]byte(";= nodes=2 cores=32 mem=65536 gpus=4000 models=V100M16|V100%7C32 excl +lic=1\n" + goodLine + "\n;=\n" + goodLine + "\n"))
	f.Add([]byte(";= nodes=1 gpus=460 +a%3Db=0\n\n" + goodLine + "\n;= gpus=1\n" + goodLine + "\n;= nodes=x\n;=====\n"))
	f.Add([]byte(";= cores=4 cores=5\n" + goodLine + "\n;= nodes=1\n1 2\n;= +=1 models=%zz\n"))
	f.Add([]byte(";= nodes=2 gpus=4000\n" + goodLine + "\n; MaxNodes: 4\n; a comment\n\n1 5 -1 60 4 2.5 -1 4 600 -1 1 2 -1 -1 1 -1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r"))
		for _, lenient := range []bool{false, true} {
			jobs, st, err := fuzzRead(t, bytes.NewReader(data), lenient, lines)
			jobs1, st1, err1 := fuzzRead(t, iotest.OneByteReader(bytes.NewReader(data)), lenient, lines)
			if !reflect.DeepEqual(jobs, jobs1) || fmt.Sprint(err) != fmt.Sprint(err1) || !reflect.DeepEqual(st, st1) {
				t.Fatalf("one-byte reads differ: %v / %v", err, err1)
			}
			jobs2, st2, err2 := readIntoAll(t, bytes.NewReader(data), lenient)
			if !reflect.DeepEqual(jobs, jobs2) || fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(st, st2) {
				t.Fatalf("ReadInto differs from Read: %v / %v", err2, err)
			}
			if err != nil {
				continue
			}
			var b []byte
			for i := range jobs {
				if b, err = jobs[i].AppendText(b); err != nil {
					t.Fatalf("a job read cannot be written: %v", err)
				}
				b = append(b, '\n')
			}
			back, err := NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil || !reflect.DeepEqual(back, jobs) {
				t.Fatalf("written jobs read back differently: %v", err)
			}
		}
	})
}

// readIntoAll reads everything from r as fuzzRead does, by ReadInto into
// one Job reused as each call leaves it (garbage at first, a demand
// included), so that a field left from an earlier line shows; on error
// the Job must be the zero Job.
func readIntoAll(t *testing.T, r io.Reader, lenient bool) ([]Job, Stats, error) {
	rd := NewReader(r)
	rd.Lenient = lenient
	var jobs []Job
	_, err := rd.Header()
	j := poison()
	j.Demand = &Demand{Nodes: 3}
	for err == nil {
		if err = rd.ReadInto(&j); err == nil {
			jobs = append(jobs, j)
		} else if j != (Job{}) {
			t.Fatalf("ReadInto left %+v on %v, want the zero Job", j, err)
		}
	}
	if err == io.EOF {
		err = nil
	}
	return jobs, rd.Stats(), err
}

// fuzzRead reads everything from r and checks the invariants of FuzzReader.
func fuzzRead(t *testing.T, r io.Reader, lenient bool, lines int) ([]Job, Stats, error) {
	rd := NewReader(r)
	rd.Lenient = lenient
	var jobs []Job
	_, err := rd.Header()
	for err == nil {
		var j Job
		j, err = rd.Read()
		if err == nil {
			jobs = append(jobs, j)
		}
	}
	if err == io.EOF {
		err = nil
	}
	if err != nil {
		checkErr(t, err, lines)
	}
	st := rd.Stats()
	for _, e := range st.Errors {
		checkErr(t, e, lines)
	}
	for _, w := range st.Warnings {
		checkErr(t, w, lines)
		if w.Key == "" {
			t.Fatalf("warning %v names no key", w)
		}
	}
	other, sum, demands := 0, 0, 0
	for _, j := range jobs {
		if j.Status < -1 || j.Status > 5 {
			other++
		}
		if j.Demand != nil {
			demands++
			if err := j.Demand.Validate(); err != nil {
				t.Fatalf("a demand read does not validate: %v", err)
			}
		}
	}
	for _, n := range st.OtherStatusCounts {
		sum += n
	}
	if st.Jobs != len(jobs) || st.Demands != demands || st.OtherStatus != other || sum > other || st.OutOfOrder+st.UnknownSubmit > len(jobs) {
		t.Fatalf("stats %+v disagree with %d jobs (%d other status)", st, len(jobs), other)
	}
	if !lenient && st.Skipped != 0 {
		t.Fatalf("strict mode skipped %d", st.Skipped)
	}
	return jobs, st, err
}

func checkErr(t *testing.T, err error, lines int) {
	pe, ok := err.(*ParseError)
	if !ok {
		t.Fatalf("error %v is not a *ParseError", err)
	}
	if pe.Line < 1 || pe.Line > lines {
		t.Fatalf("error %v names line %d of %d", err, pe.Line, lines)
	}
	if len(pe.Value) > maxValue || len(pe.Error()) > 400 {
		t.Fatalf("error too long (%d bytes): %.200s", len(pe.Error()), pe.Error())
	}
}

// WriteAll writes the header (none when nil) and every job, in order.
func TestWriteAll(t *testing.T) {
	jobs := []Job{{ID: 1, Submit: 0, RunTime: 10, AllocProcs: 2, User: 3}, {ID: 2, Submit: 5, RunTime: 20, AllocProcs: 4, User: 3}}
	for _, h := range []*Header{nil, {MaxProcs: 8}} {
		var buf bytes.Buffer
		if err := WriteAll(&buf, h, jobs); err != nil {
			t.Fatal(err)
		}
		if got := strings.HasPrefix(buf.String(), ";"); got != (h != nil) {
			t.Errorf("header %v: output starts with a comment %v:\n%s", h, got, buf.String())
		}
		back, err := NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(back) != 2 || back[0].ID != 1 || back[1].AllocProcs != 4 {
			t.Errorf("header %v: read back %+v", h, back)
		}
	}
}
