// Package clitest is the table of command-line tests every example
// command passes: flags after arguments, -h, a bad flag, a missing file
// and -json. A command's test calls Run with cheap invocations (tiny
// inputs, no trace runs).
package clitest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
)

// Command describes one command to Run.
type Command struct {
	Run cli.Command
	// JSON is a cheap invocation that succeeds and prints JSON. Where the
	// command takes arguments, it puts a flag (say -json) after one of
	// them, which checks "flags after arguments" too.
	JSON []string
	// Stdin is JSON's standard input.
	Stdin string
	// Missing is an invocation naming File, a file or directory that does
	// not exist: it must fail with exit 1 and a message naming File.
	Missing []string
	File    string
	// NoArgs says the command takes no arguments (cli.ParseFlags): a stray one is exit 2.
	NoArgs bool
	// FromStdin, when set, is the JSON invocation with its trace given as
	// "-": the trace file StdinFile, piped to standard input, must read
	// as the named file does (exit 0, JSON out).
	FromStdin []string
	StdinFile string
	// Empty, when set, makes the invocation on an empty file at path
	// (-trace path, or path as an argument): exit 1, saying the file has
	// "no job lines" (it said the header lacks MaxProcs, true of any file
	// without a header).
	Empty func(path string) []string
	// Machine, when set, is an invocation that -machine 2^63 − 1 is put
	// before: a usage error (exit 2) naming the flag before any trace is
	// read (it was exit 1 with sched's or synth's error after the read).
	Machine []string
	// JSONCheckedBy names another test of the command that already runs
	// JSON and parses its output, when that run is too dear to repeat;
	// the json case then only says so.
	JSONCheckedBy string
}

// Result is one run's exit status and output.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Exec runs cmd on args with a background context.
func Exec(cmd cli.Command, stdin string, args ...string) Result {
	var out, errb bytes.Buffer
	code := cmd(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return Result{code, out.String(), errb.String()}
}

// Run runs the table on c.
func Run(t *testing.T, c Command) {
	t.Helper()
	t.Run("help", func(t *testing.T) {
		r := Exec(c.Run, "", "-h")
		if r.Code != cli.ExitOK || !strings.Contains(strings.ToLower(r.Stdout), "usage") || !strings.Contains(r.Stdout, "-json") {
			t.Errorf("-h: exit %d, stdout %q, stderr %q; want 0 and a usage naming -json", r.Code, r.Stdout, r.Stderr)
		}
	})
	t.Run("readme-flags", func(t *testing.T) {
		r := Exec(c.Run, "", "-h")
		readme, err := os.ReadFile("README.md")
		if err != nil {
			t.Fatalf("the command's README: %v", err)
		}
		for _, name := range UndocumentedFlags(r.Stdout, string(readme)) {
			t.Errorf("-h lists -%s, which README.md does not name", name)
		}
	})
	t.Run("bad-flag", func(t *testing.T) {
		args := append(append([]string{}, c.JSON...), "-no-such-flag")
		r := Exec(c.Run, c.Stdin, args...)
		// and pointing to -h, as cli.Status does (convert printed its own line without it)
		if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "no-such-flag") || !strings.HasSuffix(r.Stderr, " (-h for help)\n") {
			t.Errorf("bad flag: exit %d, stderr %q; want %d naming the flag and ending in (-h for help)", r.Code, r.Stderr, cli.ExitUsage)
		}
	})
	if c.NoArgs {
		t.Run("stray-arg", func(t *testing.T) {
			r := Exec(c.Run, "", "stray")
			if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "stray") {
				t.Errorf("stray argument: exit %d, stderr %q; want %d naming it", r.Code, r.Stderr, cli.ExitUsage)
			}
		})
	}
	t.Run("missing-file", func(t *testing.T) {
		r := Exec(c.Run, "", c.Missing...)
		if r.Code != cli.ExitError || !strings.Contains(r.Stderr, c.File) {
			t.Errorf("%q: exit %d, stderr %q; want %d naming %s", c.Missing, r.Code, r.Stderr, cli.ExitError, c.File)
		}
	})
	t.Run("json", func(t *testing.T) {
		if c.JSONCheckedBy != "" {
			t.Skipf("%q runs in %s", c.JSON, c.JSONCheckedBy)
		}
		r := Exec(c.Run, c.Stdin, c.JSON...)
		if r.Code != cli.ExitOK {
			t.Fatalf("%q: exit %d, stderr %q", c.JSON, r.Code, r.Stderr)
		}
		if err := CheckJSON(r.Stdout); err != nil {
			t.Errorf("%q: %v in %.300q", c.JSON, err, r.Stdout)
		}
	})
	if c.Empty != nil {
		t.Run("empty-file", func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "empty.swf")
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			args := c.Empty(path)
			if r := Exec(c.Run, "", args...); r.Code != cli.ExitError || !strings.Contains(r.Stderr, "empty.swf: no job lines") {
				t.Errorf("%q: exit %d, stderr %q; want %d and no job lines", args, r.Code, r.Stderr, cli.ExitError)
			}
		})
	}
	if c.Machine != nil {
		t.Run("machine-bounded", func(t *testing.T) {
			args := append([]string{"-machine", "9223372036854775807"}, c.Machine...)
			if r := Exec(c.Run, "", args...); r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "-machine 9223372036854775807: want 0") {
				t.Errorf("%q: exit %d, stderr %q; want %d naming -machine", args, r.Code, r.Stderr, cli.ExitUsage)
			}
		})
	}
	if c.FromStdin != nil {
		t.Run("stdin", func(t *testing.T) {
			b, err := os.ReadFile(c.StdinFile)
			if err != nil {
				t.Fatal(err)
			}
			r := Exec(c.Run, string(b), c.FromStdin...)
			if r.Code != cli.ExitOK {
				t.Fatalf("%q < %s: exit %d, stderr %q", c.FromStdin, c.StdinFile, r.Code, r.Stderr)
			}
			if err := CheckJSON(r.Stdout); err != nil {
				t.Errorf("%q < %s: %v in %.300q", c.FromStdin, c.StdinFile, err, r.Stdout)
			}
		})
	}
}

// UndocumentedFlags returns the flags that help (a command's -h output,
// one "  -name ..." line per flag as package flag prints them) lists and
// readme does not name as "-name" followed by neither a letter, a digit, '-'
// nor '_'. A command's -h and its README drifted apart as flags were added:
// nine commands had flags their README never named.
func UndocumentedFlags(help, readme string) []string {
	var missing []string
	for line := range strings.Lines(help) {
		rest, ok := strings.CutPrefix(line, "  -")
		if !ok {
			continue
		}
		f := strings.Fields(rest) // "-v\tdoc": a one-letter flag's doc follows on its line
		if len(f) > 0 && !named(readme, "-"+f[0]) {
			missing = append(missing, f[0])
		}
	}
	return missing
}

// named reports whether text has flag standing alone: not the start of a
// longer flag (-trace in -traces) nor the end of a word (-json in x-json).
func named(text, flag string) bool {
	word := func(b byte) bool {
		return b == '-' || b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], flag)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(flag)
		if (j == 0 || !word(text[j-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = j + 1
	}
}

// CheckJSON reports whether s is one or more JSON values and nothing else.
func CheckJSON(s string) error {
	dec := json.NewDecoder(strings.NewReader(s))
	n := 0
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return errors.New("no JSON value")
	}
	return nil
}

// WriteTrace writes a tiny valid SWF trace of n jobs on a machine of procs
// processors to dir/name (gzip when name ends in .gz) and returns its
// path: jobs of 1–4 processors arriving every 10 minutes, waiting up to
// 15 minutes, running an hour or less, each with an estimate, over the users 1–3 and the queues 1–2.
func WriteTrace(t testing.TB, dir, name string, n int, procs int64) string {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "; Version: 2.2\n; Computer: clitest\n; MaxNodes: %d\n; MaxProcs: %d\n; UnixStartTime: 1000000000\n", procs, procs)
	for i := range n {
		size := int64(1 + i%4)
		run := int64(300 + 97*(i%37))
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 1 %d 1 -1 -1\n",
			i+1, 600*i, (137*i)%900, run, size, size, 2*run, 1+i%3, 1+i%2)
	}
	p := filepath.Join(dir, name)
	writeLog(t, p, b.Bytes())
	return p
}

// writeLog writes data to path, gzipped when path ends in .gz.
func writeLog(t testing.TB, path string, data []byte) {
	t.Helper()
	if strings.HasSuffix(path, ".gz") {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		data = z.Bytes()
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Progress checks a command's progress bar on a cheap invocation args:
// -progress draws it on stderr (a short run's too: the quiet second is set
// to 0), stdout is byte for byte the same without it, and -json draws none.
func Progress(t *testing.T, cmd cli.Command, args ...string) {
	t.Helper()
	t.Setenv("BATCHQ_PROGRESS_QUIET", "0s")
	off := Exec(cmd, "", args...)
	on := Exec(cmd, "", append(args, "-progress")...)
	if off.Code != 0 || on.Code != 0 {
		t.Fatalf("exit %d without -progress, %d with; stderr %q, %q", off.Code, on.Code, off.Stderr, on.Stderr)
	}
	if off.Stdout == "" || on.Stdout != off.Stdout {
		t.Errorf("stdout differs with -progress:\n%s\nwithout:\n%s", on.Stdout, off.Stdout)
	}
	if !strings.Contains(on.Stderr, "\r[") || strings.Contains(off.Stderr, "\r[") {
		t.Errorf("stderr with -progress %q, without %q; want the bar only with it", on.Stderr, off.Stderr)
	}
	if r := Exec(cmd, "", append(args, "-json")...); strings.Contains(r.Stderr, "\r[") {
		t.Errorf("-json drew a bar: %q", r.Stderr)
	}
}

// Pad appends n zero bytes to the file at path, as a tape or dd pads a
// gzip log, and returns path.
func Pad(t testing.TB, path string, n int) string {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.Write(make([]byte, n))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}
