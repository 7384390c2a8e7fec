package swf

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

const goodLine = "1 0 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1"

func TestReaderMalformed(t *testing.T) {
	cases := []struct {
		name  string
		input string
		line  int
		field int
		err   error
	}{
		{"too few fields", goodLine + "\n1 2 3\n", 2, 0, ErrFieldCount},
		{"too many fields", goodLine + " 5\n", 1, 0, ErrFieldCount},
		{"non-numeric", "; Version: 2.2\n1 0 10 abc 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n", 2, 4, ErrSyntax},
		{"overflow", "1 99999999999999999999 10 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n", 1, 2, ErrRange},
		{"between -1 and 0", "1 0 0 100 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -0.5\n", 1, 18, ErrRange},
		{"bad float", "1 0 0 100 4 1.2.3 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n", 1, 6, ErrSyntax},
		{"nan", "1 0 0 100 4 NaN -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n", 1, 6, ErrRange},
		{"fractional processors", "1 0 0 100 4.5 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n", 1, 5, ErrSyntax},
		{"lone sign", "1 0 0 - 4 -1 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -1\n", 1, 4, ErrSyntax},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(c.input))
			_, err := r.Header()
			if err == nil {
				_, err = r.ReadAll()
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want *ParseError", err)
			}
			if pe.Line != c.line || pe.Field != c.field || !errors.Is(err, c.err) {
				t.Errorf("got line %d field %d (%v), want line %d field %d (%v)", pe.Line, pe.Field, err, c.line, c.field, c.err)
			}
			if !strings.Contains(pe.Error(), "line ") {
				t.Errorf("error %q does not name the line", pe.Error())
			}
		})
	}
}

func TestReaderWhitespace(t *testing.T) {
	in := "; Version: 2.2\r\n\r\n\t" + strings.ReplaceAll(goodLine, " ", "\t ") + "  \r\n   \n" + goodLine + "\t\n" + goodLine
	jobs, err := NewReader(strings.NewReader(in)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("got %d jobs, want 3", len(jobs))
	}
	want := Job{ID: 1, Wait: 10, RunTime: 100, AllocProcs: 4, AvgCPUTime: -1, UsedMemory: -1, ReqProcs: 4,
		ReqTime: 300, ReqMemory: -1, Status: StatusCompleted, User: 7, Group: -1, Executable: -1, Queue: 1,
		Partition: -1, PrecedingJob: -1, ThinkTime: -1}
	for i, j := range jobs {
		if j != want {
			t.Errorf("job %d = %+v, want %+v", i, j, want)
		}
	}
}

func TestReaderLenient(t *testing.T) {
	in := goodLine + "\nbroken line\n" + goodLine + "\n1 2 x 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n" + goodLine + "\n"
	r := NewReader(strings.NewReader(in))
	r.Lenient = true
	r.MaxErrors = 1
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if len(jobs) != 3 || st.Jobs != 3 || st.Skipped != 2 || len(st.Errors) != 1 || st.Errors[0].Line != 2 {
		t.Fatalf("jobs=%d stats=%+v", len(jobs), st)
	}
	// A negative MaxErrors keeps none, and still counts the lines.
	r = NewReader(strings.NewReader(in))
	r.Lenient, r.MaxErrors = true, -1
	if jobs, err = r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); len(jobs) != 3 || st.Skipped != 2 || len(st.Errors) != 0 {
		t.Fatalf("MaxErrors -1: jobs=%d stats=%+v", len(jobs), st)
	}
}

func TestReaderOutOfOrder(t *testing.T) {
	line := func(id, submit string) string {
		return id + " " + submit + " 0 1 1 -1 -1 1 1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	}
	r := NewReader(strings.NewReader(line("1", "10") + line("2", "5") + line("3", "20") + line("4", "15")))
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Stats().OutOfOrder; got != 2 {
		t.Errorf("out of order = %d, want 2", got)
	}
	if jobs[1].Submit != 5 {
		t.Error("reader reordered jobs")
	}
}

// The lines of a checkpointed job's partial executions (status 2, 3, 4)
// repeat its submit time where the log puts each run: they are not the
// log going back in time. Job 1's runs, logged after job 2, counted 2;
// job 4, earlier than job 3, is the one place the log goes back.
func TestReaderOutOfOrderPartialLines(t *testing.T) {
	line := func(id, submit, status string) string {
		return id + " " + submit + " 0 1 1 -1 -1 1 1 -1 " + status + " 1 -1 -1 -1 -1 -1 -1\n"
	}
	r := NewReader(strings.NewReader(line("1", "0", "1") + line("2", "100", "1") + line("1", "0", "2") +
		line("1", "0", "3") + line("3", "200", "1") + line("4", "150", "1") + line("4", "150", "4")))
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	if got := r.Stats().OutOfOrder; got != 1 {
		t.Errorf("out of order = %d, want 1 (job 4)", got)
	}
}

// One job with a huge submit time (a corrupt field, a year 2100 in a
// 1998 log) is one place where the log goes back in time, at the job after
// it: it counted every later job, 7 of these 10, each below the largest
// submit before it.
func TestReaderOutOfOrderOneHugeSubmit(t *testing.T) {
	var b strings.Builder
	for i := int64(1); i <= 10; i++ {
		submit := 100 * i
		if i == 3 {
			submit = 4102444800 // 2100-01-01
		}
		fmt.Fprintf(&b, "%d %d 0 60 1 -1 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n", i, submit)
	}
	r := NewReader(strings.NewReader(b.String()))
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	if got := r.Stats().OutOfOrder; got != 1 {
		t.Errorf("out of order = %d, want 1 (job 4, earlier than job 3)", got)
	}
}

func TestReaderLongLine(t *testing.T) {
	long := "; Note: " + strings.Repeat("x", 200000)
	r := NewReader(strings.NewReader(long + "\n" + goodLine + "\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Note) != 1 || len(h.Note[0]) != 200000 {
		t.Fatalf("long note lost: %d", len(h.Note))
	}
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("got %v, want EOF", err)
	}
}

func TestHeaderQuirks(t *testing.T) {
	in := `; Version: 2.2
; Computer: IBM SP2
; Information: http://a/
;              http://b/
; MaxNodes: 338 (batch partition; 512 total)
; MaxProcs: 184  ( 6,  171,   7)
; TimeZone: -18000
; Queue:  1 DSI
; Queue:  2 astro
; Site: extra
;
; Note: THIS IS A CLEANED VERSION OF THE LOG!
;       The filter used to produce it was
;         user=135
;
` + goodLine + "\n; late comment\n" + goodLine + "\n"
	r := NewReader(strings.NewReader(in))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if h.MaxNodes != 338 || h.MaxProcs != 184 || h.TimeZone != -18000 || h.Version != "2.2" || h.Computer != "IBM SP2" {
		t.Errorf("typed fields wrong: %+v", h)
	}
	if len(h.Information) != 1 || h.Information[0] != "http://a/\nhttp://b/" {
		t.Errorf("information = %q", h.Information)
	}
	if len(h.Queue) != 2 || h.Queue[1] != "2 astro" {
		t.Errorf("queue = %q", h.Queue)
	}
	if len(h.Note) != 1 || !strings.HasSuffix(h.Note[0], "user=135") {
		t.Errorf("note = %q", h.Note)
	}
	if len(h.Other) != 1 || h.Other[0] != (KeyValue{"Site", "extra"}) {
		t.Errorf("other = %+v", h.Other)
	}
	if n, err := h.MachineSize(); n != 184 || err != nil {
		t.Errorf("machine size = %d, %v", n, err)
	}
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	if r.Stats().LateComments != 1 || h.Lines[len(h.Lines)-1] != "; late comment" {
		t.Errorf("late comment lost: %+v", r.Stats())
	}
}

func TestMachineSize(t *testing.T) {
	if n, err := (&Header{MaxNodes: 256}).MachineSize(); n != 256 || err != nil {
		t.Errorf("MaxNodes fallback: %d %v", n, err)
	}
	if _, err := (&Header{}).MachineSize(); !errors.Is(err, ErrNoMachineSize) {
		t.Errorf("empty header: %v", err)
	}
}

// Partial is the SWF definition's 2, 3 and 4 only.
func TestStatusPartial(t *testing.T) {
	for s := Status(-2); s <= 7; s++ {
		if got, want := s.Partial(), s == StatusPartial || s == StatusLastPart || s == StatusLastFail; got != want {
			t.Errorf("Status(%d).Partial() = %v", s, got)
		}
	}
}
