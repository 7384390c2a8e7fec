package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGzipFileEnds: a gzip log given as a file ends as swf.Open and
// swf/convert's own decompression (standard input) end it. Zero padding
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
