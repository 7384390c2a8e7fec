package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
)

// TestGzipFileEnds: a gzip log given as a file ends as swf.Open and
// swf/convert's own decompression (library callers) end it. Zero padding
// after the last member (tape, dd) is ignored and noted (compress/gzip
// refused it: "gzip: invalid header", exit 1); trailing garbage is
// "corrupt" and a cut file "truncated" (both were "unexpected EOF"), with
// the file named once (it was "pbs.gz: pbs.gz: ...").
func TestGzipFileEnds(t *testing.T) {
	log, err := os.ReadFile(testdata + "pbs-torque.log")
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(log)
	zw.Close()
	gz := z.Bytes()
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		code int
		want []string
	}{
		{"padded", append(append([]byte{}, gz...), make([]byte, 512)...), exitOK, []string{"note: 512 zero bytes after the last gzip member ignored", "11 jobs written"}},
		{"garbage", append(append([]byte{}, gz...), "junk\n"...), exitError, []string{"convert: garbage.gz: gzip data corrupt", "trailing garbage"}},
		{"cut", gz[:len(gz)*2/3], exitError, []string{"convert: cut.gz: gzip data truncated"}},
	} {
		in := filepath.Join(dir, c.name+".gz")
		if err := os.WriteFile(in, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCmd(t, "", "-from", "pbs", in, "-o", filepath.Join(dir, "x.swf"))
		stderr = strings.ReplaceAll(stderr, dir+string(filepath.Separator), "")
		ok := code == c.code && strings.Count(stderr, c.name+".gz") <= 1
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok {
			t.Errorf("%s: exit %d, stderr %q; want exit %d with %q", c.name, code, stderr, c.code, c.want)
		}
	}
	// Two files: the note names the padded one.
	code, stdout, _ := runCmd(t, "", "-from", "pbs", filepath.Join(dir, "padded.gz"), testdata+"pbs-torque.log", "-json", "-o", filepath.Join(dir, "x.swf"))
	if code != exitOK || !strings.Contains(stdout, "padded.gz: 512 zero bytes after the last gzip member ignored") {
		t.Errorf("two files: exit %d, stdout %q; want a note naming padded.gz", code, stdout)
	}
}

// TestDamagedGzip: a gzip log with a damaged byte inflates to garbage
// text before its checksum fails; a conversion that stops at the garbage
// (-strict's malformed record, a header that is not sacct's) said the
// garbage line alone ("sacct line 3: 24 fields, the header has 25"), from
// a file and from standard input alike. It now leads with the stream's
// error, the line after it.
func TestDamagedGzip(t *testing.T) {
	log, err := os.ReadFile(testdata + "sacct-parsable2.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name   string
		data   []byte
		strict bool
		want   []string
	}{
		// A record's field separator: -strict stops at line 3.
		{"field", tracetest.DamageStored(t, log, 3, "|", "!"), true, []string{"gzip data corrupt: gzip: invalid checksum", "sacct line 3: 24 fields, the header has 25"}},
		// The header's State column: not sacct's, even without -strict.
		{"header", tracetest.DamageStored(t, log, 1, "State", "Stbte"), false, []string{"gzip data corrupt: gzip: invalid checksum", "sacct line 1: header lacks"}},
	} {
		in := filepath.Join(dir, c.name+".gz")
		if err := os.WriteFile(in, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-from", "sacct", "-o", filepath.Join(dir, "x.swf")}
		if c.strict {
			args = append(args, "-strict")
		}
		for _, stdin := range []bool{false, true} {
			name, code, stderr := in, 0, ""
			if stdin {
				name = "standard input"
				code, _, stderr = runCmd(t, string(c.data), append(args, "-")...)
			} else {
				code, _, stderr = runCmd(t, "", append(args, in)...)
			}
			ok := code == exitError && strings.HasPrefix(stderr, "convert: "+name+": "+c.want[0]) && strings.Count(stderr, name) == 1
			for _, w := range c.want[1:] {
				ok = ok && strings.Contains(stderr, w)
			}
			if !ok {
				t.Errorf("%s (%s): exit %d, %q; want exit 1, the gzip error first, then %q", c.name, name, code, stderr, c.want[1:])
			}
		}
	}
	// Damage at the end of a log read with the wrong -from: the stop (line
	// 1) came before the damage, and the message does not say the stop
	// was the damage's garbage (it said "the conversion stopped at what
	// the damaged data inflated to").
	lines := bytes.Count(log, []byte("\n"))
	end := filepath.Join(dir, "end.gz")
	if err := os.WriteFile(end, tracetest.DamageStored(t, log, lines, "|", "!"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "", "-from", "pbs", "-o", filepath.Join(dir, "x.swf"), end)
	if code != exitError || !strings.HasPrefix(stderr, "convert: "+end+": gzip data corrupt") ||
		!strings.Contains(stderr, "perhaps at garbage") || strings.Contains(stderr, "stopped at what") {
		t.Errorf("damage past the stop: exit %d, %q; want the gzip error, the stop not said to be the damage's", code, stderr)
	}
	// The same line in an intact gzip log is the line's error alone.
	bad := bytes.Replace(log, []byte("\n1001.batch|"), []byte("\n1001.batch!"), 1) // line 3, as in "field"
	code, _, stderr = runCmd(t, string(tracetest.StoredGzip(t, bad)), "-from", "sacct", "-strict", "-o", filepath.Join(dir, "x.swf"), "-")
	if code != exitError || stderr != "convert: standard input: sacct line 3: 24 fields, the header has 25\n" {
		t.Errorf("intact: exit %d, %q; want the line's error alone", code, stderr)
	}
	// After an intact file, the damaged one is named, and the line counts
	// across the two.
	code, _, stderr = runCmd(t, "", "-from", "sacct", "-strict", "-o", filepath.Join(dir, "x.swf"), testdata+"sacct-parsable2.txt", filepath.Join(dir, "field.gz"))
	if code != exitError || !strings.Contains(stderr, "field.gz: gzip data corrupt") || !strings.Contains(stderr, "lines count across the files): sacct line") {
		t.Errorf("two files: exit %d, %q; want field.gz's gzip error, then the line", code, stderr)
	}
}

// blocked is an input that has no more to give yet and never ends (a
// pipe whose writer keeps it open) until release is closed.
type blocked struct{ release chan struct{} }

func (b blocked) Read([]byte) (int, error) {
	<-b.release
	return 0, io.EOF
}

// TestDamageStall: a failed conversion of a gzip input reads on for the
// stream's own error (TestDamagedGzip). A gzip input that stalls after
// the error (a writer that keeps standard input or a named pipe open)
// made the command wait for it, forever for one that never closes; it
// exited at once before. The search now leaves an input that gives
// nothing for damageIdle, and the conversion's error stands. (The
// inflater holds back the last 64 KiB or less it inflated until the
// input gives more or ends: that text is what the stall keeps back.)
func TestDamageStall(t *testing.T) {
	log, err := os.ReadFile(testdata + "sacct-parsable2.txt")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(log, []byte("\n1001.batch|"), []byte("\n1001.batch!"), 1) // line 3
	// More text than the inflater hands over at once (64 KiB), so that
	// the conversion sees line 3 before the input stalls.
	_, records, _ := bytes.Cut(log, []byte("\n"))
	for len(bad) < 256<<10 {
		bad = append(bad, records...)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bad)
	zw.Close()
	defer func(d time.Duration) { damageIdle = d }(damageIdle)
	damageIdle = 50 * time.Millisecond
	in := blocked{make(chan struct{})}
	defer close(in.release)
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	out := filepath.Join(t.TempDir(), "x.swf")
	go func() {
		var out2, errb bytes.Buffer
		code := run([]string{"-from", "sacct", "-strict", "-o", out, "-"},
			io.MultiReader(&z, in), &out2, &errb)
		done <- result{code, errb.String()}
	}()
	select {
	case r := <-done:
		if r.code != exitError || r.stderr != "convert: standard input: sacct line 3: 24 fields, the header has 25\n" {
			t.Errorf("exit %d, %q; want the line's error alone", r.code, r.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the command waited 20 s for an input that stalled after its error")
	}
}

// TestGzipFileEndsJSON: a damaged gzip of a JSON log (sacct-json,
// slurmrestd, Philly) is said as of a text log, the file named once after
// the command's name: the JSON readers' line wrapped it ("convert:
// convert: sacct-json line 5: FILE: gzip data truncated").
func TestGzipFileEndsJSON(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ from, file string }{
		{"sacct-json", "sacct-23.11.json"}, {"slurmrestd", "snapshot/slurmrestd-v0.0.41.json"}, {"gpu", "gpu-philly.json"},
	} {
		log, err := os.ReadFile(testdata + c.file)
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(log)
		zw.Close()
		gz := z.Bytes()
		for _, d := range []struct {
			name string
			data []byte
			want string
		}{
			{"garbage", append(append([]byte{}, gz...), "junk\n"...), "convert: garbage.gz: gzip data corrupt"},
			{"cut", gz[:len(gz)*2/3], "convert: cut.gz: gzip data truncated"},
		} {
			in := filepath.Join(dir, d.name+".gz")
			if err := os.WriteFile(in, d.data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCmd(t, "", "-from", c.from, in, "-o", filepath.Join(dir, "x.swf"))
			stderr = strings.ReplaceAll(stderr, dir+string(filepath.Separator), "")
			if code != exitError || !strings.HasPrefix(stderr, d.want) || strings.Count(stderr, "convert:") != 1 {
				t.Errorf("%s %s: exit %d, stderr %q; want exit %d, beginning %q", c.from, d.name, code, stderr, exitError, d.want)
			}
		}
	}
}
