package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Open reads gzip by content (whatever the name) and plain text alike, and
// closing before the end stops the decompressing goroutine cleanly.
func TestOpenDetectsGzip(t *testing.T) {
	dir := t.TempDir()
	text := "; MaxProcs: 8\n" + strings.Repeat(goodLine+"\n", 50000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	files := map[string][]byte{"plain.gz": []byte(text), "compressed.swf": gz.Bytes()}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		h, jobs, err := ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(jobs) != 50000 || h.MaxProcs != 8 {
			t.Errorf("%s: %d jobs, MaxProcs %d", name, len(jobs), h.MaxProcs)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Read(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Error("Open of a missing file succeeded")
	}
}

func TestOpenCorruptGzip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.gz")
	os.WriteFile(p, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3}, 0o644)
	if _, _, err := ReadFile(p); err == nil {
		t.Error("corrupt gzip read without error")
	}
}

// Gzip errors name the file and tell a truncated file (an interrupted
// download) from a corrupt one, whether they show at Open or while reading.
func TestOpenGzipErrors(t *testing.T) {
	text := "; MaxProcs: 8\n" + strings.Repeat(goodLine+"\n", 20000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	good := gz.Bytes()
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0xff
		return b
	}
	cases := []struct {
		name string
		data []byte
		word string
		is   error
	}{
		{"magic only", good[:2], "truncated", io.ErrUnexpectedEOF},
		{"header cut", good[:6], "truncated", io.ErrUnexpectedEOF},
		{"data cut", good[:len(good)/2], "truncated", io.ErrUnexpectedEOF},
		{"trailer cut", good[:len(good)-4], "truncated", io.ErrUnexpectedEOF},
		{"bad crc", flip(len(good) - 8), "corrupt", gzip.ErrChecksum},
		{"bad size", flip(len(good) - 1), "corrupt", gzip.ErrChecksum},
		{"bad method", flip(2), "corrupt", gzip.ErrHeader},
		{"trailing garbage", append(bytes.Clone(good), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), "corrupt", gzip.ErrHeader},
	}
	dir := t.TempDir()
	for _, c := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".swf.gz")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, lenient := range []bool{false, true} {
			err := readAllErr(p, lenient)
			if err == nil {
				t.Errorf("%s: read without error", c.name)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, p) || !strings.Contains(msg, c.word) {
				t.Errorf("%s: error %q does not name the file and say %q", c.name, msg, c.word)
			}
			if !errors.Is(err, c.is) {
				t.Errorf("%s: error %v is not %v", c.name, err, c.is)
			}
		}
	}
	// Corrupt deflate data: a damaged block or a bad checksum, never a
	// silent success, and in strict mode too never the garbage line's
	// error alone.
	for i := 10; i < len(good)-8; i += len(good) / 7 {
		p := filepath.Join(dir, "flip.swf.gz")
		os.WriteFile(p, flip(i), 0o644)
		for _, lenient := range []bool{false, true} {
			if err := readAllErr(p, lenient); err == nil || !strings.Contains(err.Error(), "corrupt") && !strings.Contains(err.Error(), "truncated") {
				t.Errorf("byte %d flipped, lenient %v: %v", i, lenient, err)
			}
		}
	}
}

// A strict read stops at the first malformed line; on a gzip stream that
// line may be the garbage a damaged stream inflates to, before the
// checksum at the member's end fails. The error is then the stream's, with
// the line said after it; on an intact stream it stays the line's
// *ParseError.
func TestOpenDamagedGzipStrict(t *testing.T) {
	text := "; MaxProcs: 8\n" + strings.Repeat(goodLine+"\n", 300) + "1 2 3\n" + strings.Repeat(goodLine+"\n", 20000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	intact := gz.Bytes()
	damaged := bytes.Clone(intact)
	damaged[len(damaged)-8] ^= 0xff // the CRC-32: the text inflates whole, its check fails
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
	}{{"intact", intact}, {"damaged", damaged}} {
		p := filepath.Join(dir, c.name+".swf.gz")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, read := range []func() error{
			func() error { return readAllErr(p, false) },
			func() error { _, _, err := ReadFile(p); return err },
		} {
			err := read()
			var pe *ParseError
			if c.name == "intact" {
				if !errors.As(err, &pe) || pe.Line != 302 || !errors.Is(err, ErrFieldCount) {
					t.Errorf("intact: %v, want line 302's field count", err)
				}
				continue
			}
			msg := fmt.Sprint(err)
			if !errors.Is(err, gzip.ErrChecksum) || errors.As(err, &pe) || !strings.HasPrefix(msg, "swf: "+p+": gzip data corrupt") ||
				!strings.Contains(msg, "line 302") || strings.Count(msg, p) != 1 {
				t.Errorf("damaged: %q, want the checksum's error naming the file once, then line 302", msg)
			}
		}
	}
}

func readAllErr(path string, lenient bool) error {
	f, err := Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	f.Lenient = lenient
	_, err = f.ReadAll()
	return err
}

// FuzzOpen: whatever bytes a file holds (gzip or not), Open and reading it
// never panic, and every error is a *ParseError or names the file.
func FuzzOpen(f *testing.F) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("; MaxProcs: 8\n" + goodLine + "\n" + goodLine + "\n"))
	zw.Close()
	f.Add(gz.Bytes())
	f.Add(gz.Bytes()[:gz.Len()/2])
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte(goodLine + "\r" + goodLine))
	p := filepath.Join(f.TempDir(), "fuzz.swf.gz")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, lenient := range []bool{false, true} {
			err := readAllErr(p, lenient)
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) && !strings.Contains(err.Error(), p) {
				t.Fatalf("error %v names neither a line nor the file", err)
			}
		}
	})
}

// OpenReader detects gzip from the content of any reader, as Open does.
func TestOpenReader(t *testing.T) {
	line := "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(line))
	zw.Close()
	for name, in := range map[string][]byte{"plain": []byte(line), "gzip": gz.Bytes()} {
		f, err := OpenReader(bytes.NewReader(in), name)
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := f.ReadAll()
		f.Close()
		if err != nil || len(jobs) != 1 || jobs[0].RunTime != 10 {
			t.Errorf("%s: %v, %v", name, jobs, err)
		}
	}
	if _, err := OpenReader(bytes.NewReader(gz.Bytes()[:5]), "cut"); err == nil || !strings.Contains(err.Error(), "cut") {
		t.Errorf("a cut gzip header: %v, want an error naming it", err)
	}
}

// Zero bytes after the last gzip member (a tape's or dd's padding) are
// read past, as gzip(1) does, and counted: File.TrailingZeros gives the
// count a command's input report notes; 0 for a plain file and a gzip
// without padding.
func TestOpenTrailingZeros(t *testing.T) {
	dir := t.TempDir()
	text := "; MaxProcs: 8\n" + goodLine + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	for name, c := range map[string]struct {
		data []byte
		want int64
	}{
		"padded.gz": {append(bytes.Clone(gz.Bytes()), make([]byte, 512)...), 512},
		"bare.gz":   {gz.Bytes(), 0},
		"plain.swf": {[]byte(text), 0},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.ReadAll(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if got := f.TrailingZeros(); got != c.want {
			t.Errorf("%s: TrailingZeros %d, want %d", name, got, c.want)
		}
		f.Close()
	}
}

// ReadFile's errors name the file once: a malformed line's *ParseError is wrapped with the path (and still found by errors.As), a
// missing file's is os's own, which names it already. Commands given
// several logs said "swf: line 30" of no file.
func TestReadFileNamesFile(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"line.swf": "1 2 3\n", "second.swf": goodLine + "\n1 2 3\n"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadFile(path)
		var pe *ParseError
		if err == nil || !strings.HasPrefix(err.Error(), path+": swf: line ") || !errors.As(err, &pe) {
			t.Errorf("%s: %v, want %s: swf: line ... wrapping a *ParseError", name, err, path)
		}
	}
	missing := filepath.Join(dir, "no.swf")
	if _, _, err := ReadFile(missing); err == nil || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("%v, want the path once", err)
	}
}

// File.Drain replaces the read on past a strict read's malformed line of
// a gzip stream: it gets the rest of the stream and its error decides.
// A Drain that gives up (nil, as a program bounding a stalled input's
// wait does) leaves the line's error; one that reads to the end finds
// the damage as the File's own read does.
func TestOpenDrain(t *testing.T) {
	text := "; MaxProcs: 8\n" + strings.Repeat(goodLine+"\n", 300) + "1 2 3\n" + strings.Repeat(goodLine+"\n", 20000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	damaged := bytes.Clone(gz.Bytes())
	damaged[len(damaged)-8] ^= 0xff // the CRC-32
	for _, c := range []struct {
		name     string
		drain    func(io.Reader) error
		checksum bool
	}{
		{"gives up", func(io.Reader) error { return nil }, false},
		{"reads on", func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }, true},
	} {
		f, err := OpenReader(bytes.NewReader(damaged), "in")
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		f.Drain = func(r io.Reader) error { calls++; return c.drain(r) }
		_, err = f.ReadAll()
		f.Close()
		var pe *ParseError
		if calls != 1 || errors.Is(err, gzip.ErrChecksum) != c.checksum || errors.As(err, &pe) == c.checksum {
			t.Errorf("%s: %d calls, %v", c.name, calls, err)
		}
	}
}
