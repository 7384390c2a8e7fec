package swf

import (
	"bytes"
	"strings"
	"testing"
)

// A header value with a line break of any kind ('\r' alone too, as a
// Reader ends lines there) stays in the header: it used to end its
// comment line, so that "-computer $'X\r1 0 0 1 1 ...'" added a job.
func TestHeaderValueLineBreaks(t *testing.T) {
	job := Job{ID: 7, Submit: 1, RunTime: 5, AllocProcs: 1, User: 1}
	for _, v := range []string{"X\r1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1", "a\r\nb", "a\n\n2 0 0 1 1", "\r", "a\n\r\nb"} {
		var buf bytes.Buffer
		if err := WriteAll(&buf, &Header{Computer: v, Note: []string{v}, Other: []KeyValue{{"K", v}}}, []Job{job}); err != nil {
			t.Fatal(err)
		}
		r := NewReader(&buf)
		jobs, err := r.ReadAll()
		if err != nil || len(jobs) != 1 || jobs[0] != job {
			t.Fatalf("%q: %v, jobs %+v\n%s", v, err, jobs, buf.String())
		}
		h, _ := r.Header()
		if want := strings.Join(strings.FieldsFunc(v, func(r rune) bool { return r == '\r' || r == '\n' }), "\n"); h.Computer != want {
			t.Errorf("%q: Computer %q, want %q", v, h.Computer, want)
		}
	}
}

// Header.Lines are written verbatim, so a line that is not one comment
// line is refused rather than read back as a job or a demand.
func TestWriteHeaderRefusesNonComment(t *testing.T) {
	if err := WriteAll(new(bytes.Buffer), &Header{Other: []KeyValue{{"K\r3 0 0 1 1", "v"}}}, nil); err == nil {
		t.Error("a key with a line break written")
	}
	for _, l := range []string{"1 0 0 1 1", "; a\n1 0 0 1 1", "; a\r1", ";= nodes=2", ""} {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		if err := w.WriteHeader(&Header{Lines: []string{"; ok", l}}); err == nil {
			t.Errorf("line %q written", l)
		}
		if w.Flush(); buf.Len() != 0 {
			t.Errorf("line %q: %q written", l, buf.String())
		}
	}
	var buf bytes.Buffer
	if err := WriteAll(&buf, &Header{Lines: []string{";", ";=====", "; Note: x"}}, nil); err != nil || buf.String() != ";\n;=====\n; Note: x\n" {
		t.Errorf("%v %q", err, buf.String())
	}
}

// FuzzHeaderWrite: a header built in code from any text writes without
// error and reads back with the jobs unchanged (no value adds or hides a
// job), and every text field reads back as its value cut at line breaks
// with blank pieces dropped.
func FuzzHeaderWrite(f *testing.F) {
	f.Add("X\r1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1", "n\n;= nodes=1", "k", int64(5))
	f.Add("a\n\nb", " ", "Other key", int64(-1))
	f.Add("", "\x00\r\n", "K:", int64(1<<62))
	f.Fuzz(func(t *testing.T, text, note, key string, n int64) {
		jobs := []Job{{ID: 1, Submit: 0, RunTime: 5, AllocProcs: 1}, {ID: 2, Submit: 3, RunTime: 1, AllocProcs: 2, Demand: &Demand{Nodes: 1}}}
		h := &Header{Computer: text, Installation: note, MaxProcs: n, Note: []string{note, text}, Queue: []string{text},
			Other: []KeyValue{{key, text}}}
		var buf bytes.Buffer
		if err := WriteAll(&buf, h, jobs); err != nil {
			if _, _, ok := splitKey(key + ": "); ok && !strings.ContainsAny(key, " \t") {
				t.Fatal(err)
			}
			return // a key that is not one word is refused
		}
		r := NewReader(&buf)
		got, err := r.ReadAll()
		if err != nil || len(got) != len(jobs) || !jobsEqual(got[0], jobs[0]) || !jobsEqual(got[1], jobs[1]) {
			t.Fatalf("jobs read back %+v: %v\n%q", got, err, buf.String())
		}
		back, _ := r.Header()
		if back.MaxProcs != n {
			t.Fatalf("MaxProcs %d, want %d", back.MaxProcs, n)
		}
		norm := func(s string) string {
			var out []string
			for k, p := range strings.FieldsFunc("x"+s, func(r rune) bool { return r == '\r' || r == '\n' }) {
				if k == 0 {
					p = p[1:]
				} else if p = strings.TrimSpace(p); p == "" {
					continue
				}
				out = append(out, p)
			}
			out[0] = strings.TrimSpace(out[0])
			return strings.Join(out, "\n")
		}
		if back.Computer != norm(text) || back.Installation != norm(note) || len(back.Note) != 2 || back.Note[1] != norm(text) {
			t.Fatalf("header read back %+v, want text %q and note %q", back, norm(text), norm(note))
		}
	})
}

// A blank line inside a value is not written: read back it would end the
// entry, and the text after it would be lost.
func TestHeaderValueBlankLine(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteAll(&buf, &Header{Note: []string{"a\n  \nb"}, Other: []KeyValue{{"K", "c\r\t\rd"}}}, nil); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	h, err := r.Header()
	if err != nil || len(h.Note) != 1 || h.Note[0] != "a\nb" || len(h.Other) != 1 || h.Other[0].Value != "c\nd" {
		t.Fatalf("%v, Note %q, Other %q\n%s", err, h.Note, h.Other, buf.String())
	}
}
