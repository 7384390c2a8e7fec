package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		args, pos []string
		v         bool
	}{
		{[]string{"a", "-v", "b"}, []string{"a", "b"}, true},
		{[]string{"-v", "a"}, []string{"a"}, true},
		{[]string{"a", "--", "-v"}, []string{"a", "-v"}, false},
		{nil, nil, false},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		v := fs.Bool("v", false, "")
		pos, err := Parse(fs, c.args)
		if err != nil || !slices.Equal(pos, c.pos) || *v != c.v {
			t.Errorf("%q: %q, v=%v, %v", c.args, pos, *v, err)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := Parse(fs, []string{"a", "-nope"}); err == nil {
		t.Error("unknown flag accepted")
	}
}

func TestStatus(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		msg  string
	}{
		{nil, ExitOK, ""},
		{flag.ErrHelp, ExitOK, ""},
		{Usagef("bad %s", "x"), ExitUsage, "t: bad x (-h for help)\n"},
		{fmt.Errorf("wrapped: %w", context.Canceled), ExitError, "t: interrupted\n"},
		{errors.New("open f: no such file"), ExitError, "t: open f: no such file\n"},
		{errors.New("t: a library error that names the command already"), ExitError, "t: a library error that names the command already\n"},
		// A usage error from a library's Validate ("synth: machine size
		// -5") was printed "synth: synth: ...".
		{UsageError{"t: a library's validation error"}, ExitUsage, "t: a library's validation error (-h for help)\n"},
	} {
		var b strings.Builder
		if code := Status("t", &b, c.err); code != c.code || b.String() != c.msg {
			t.Errorf("Status(%v) = %d, %q; want %d, %q", c.err, code, b.String(), c.code, c.msg)
		}
	}
}

func TestParseArgs(t *testing.T) {
	fs := NewFlagSet("t")
	JSONFlag(fs)
	var out strings.Builder
	if _, err := ParseArgs(fs, []string{"-h"}, "usage: t\n", &out); !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(out.String(), "usage: t\n") || !strings.Contains(out.String(), "-json") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
	if _, err := ParseArgs(fs, []string{"-x"}, "", &out); !errors.As(err, new(UsageError)) {
		t.Errorf("-x: %v, want a UsageError", err)
	}
	if err := ParseFlags(fs, []string{"a"}, "", &out); !errors.As(err, new(UsageError)) {
		t.Errorf("ParseFlags: %v", err)
	}
	// A negative number taken for a flag says what to do: it read only
	// "flag provided but not defined: -5".
	for _, a := range []string{"-5", "-1.5", "--7"} {
		if _, err := ParseArgs(fs, []string{a}, "", &out); err == nil || !strings.Contains(err.Error(), "put -- before the arguments") {
			t.Errorf("%s: %v, want the hint to put -- first", a, err)
		}
	}
	if _, err := ParseArgs(fs, []string{"-x5"}, "", &out); err == nil || strings.Contains(err.Error(), "--") {
		t.Errorf("-x5: %v, want no hint (not a number)", err)
	}
}

func TestReport(t *testing.T) {
	md := "intro line\n\n## Table V\n\nsome text\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter\n# Two\n| x |\n|:-:|\n"
	got := Report(md)
	b, _ := json.Marshal(got)
	want := `{"sections":[{"text":["intro line"]},{"title":"Table V","text":["some text","after"],"tables":[{"columns":["a","b"],"rows":[["1","2"],["3","4"]]}]},{"title":"Two","tables":[{"columns":["x"],"rows":[]}]}]}`
	if string(b) != want {
		t.Errorf("Report:\n got %s\nwant %s", b, want)
	}
	var out strings.Builder
	w, flush := Output(&out, true)
	fmt.Fprint(w, md)
	if err := flush(); err != nil || !json.Valid([]byte(out.String())) {
		t.Errorf("Output: %v, %q", err, out.String())
	}
}

func TestWatched(t *testing.T) {
	w := newWatched()
	if w.watchedYet() {
		t.Fatal("used before any call")
	}
	_ = w.Value("k")
	if w.watchedYet() {
		t.Error("Value marks the context as watched")
	}
	child, stop := context.WithCancel(w) // a derived context watches its parent
	defer stop()
	w.cancel(nil)
	<-child.Done()
	if !w.watchedYet() || w.Err() == nil {
		t.Errorf("used %v, err %v after a derived context", w.watchedYet(), w.Err())
	}
}

// TestWatchedErr: Err is nil until cancel and context.Canceled after,
// once its holder has read it (its one-load path) as before (the path
// that marks it), and Cause keeps the signal's.
func TestWatchedErr(t *testing.T) {
	for _, readFirst := range []bool{true, false} {
		w := newWatched()
		if readFirst && w.Err() != nil {
			t.Fatalf("Err %v before cancel", w.Err())
		}
		if readFirst && w.Err() != nil { // the second read takes the one-load path
			t.Fatalf("Err %v before cancel, read again", w.Err())
		}
		cause := errors.New("interrupt signal received")
		w.cancel(cause)
		select {
		case <-w.Done():
		default:
			t.Fatalf("readFirst %v: Done open after cancel", readFirst)
		}
		if err := w.Err(); err != context.Canceled {
			t.Errorf("readFirst %v: Err %v after cancel, want %v", readFirst, err, context.Canceled)
		}
		if got := context.Cause(w); got != cause {
			t.Errorf("readFirst %v: Cause %v, want %v", readFirst, got, cause)
		}
		if !w.watchedYet() {
			t.Errorf("readFirst %v: not watched after Err and Done", readFirst)
		}
	}
}

// TestProgressOn: -progress as given wins; else the terminal's default,
// which -json turns off.
func TestProgressOn(t *testing.T) {
	for _, c := range []struct {
		args      []string
		def, json bool
		want      bool
	}{
		{nil, true, false, true},
		{nil, true, true, false},
		{nil, false, false, false},
		{[]string{"-progress"}, false, true, true},
		{[]string{"-progress=false"}, true, false, false},
	} {
		fs := NewFlagSet("t")
		bar := fs.Bool("progress", c.def, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := ProgressOn(fs, bar, c.json); got != c.want {
			t.Errorf("%q, default %v, json %v: %v, want %v", c.args, c.def, c.json, got, c.want)
		}
	}
}

// A -trace command takes its trace as an argument too, before or after
// the flags (replay, varq and estimates said "unexpected argument"); the
// trace given twice, or two to a command of one, is a usage error.
func TestParseTrace(t *testing.T) {
	for _, c := range []struct {
		args []string
		sep  string
		want string
		bad  bool
	}{
		{[]string{"a.swf", "-v"}, "", "a.swf", false},
		{[]string{"-v", "a.swf"}, "", "a.swf", false},
		{[]string{"-trace", "a.swf", "-v"}, "", "a.swf", false},
		{[]string{"a.swf", "b.swf"}, ",", "a.swf,b.swf", false},
		{[]string{"a.swf", "b.swf"}, "", "", true},
		{[]string{"-trace", "a.swf", "b.swf"}, "", "", true},
		// "--" ends the flags: a trace named like a flag, and a flag
		// after it is a second trace; "-" (standard input) is a trace.
		{[]string{"-v", "--", "-a.swf"}, "", "-a.swf", false},
		{[]string{"a.swf", "--", "-v"}, "", "", true},
		{[]string{"-", "-v"}, "", "-", false},
		{[]string{"-v", "a.swf", "-trace=", "b.swf"}, ",", "a.swf,b.swf", false},
		// -trace takes the next argument, flag-like or not, as its value
		{[]string{"-trace", "-v", "a.swf"}, "", "", true},
	} {
		fs := NewFlagSet("t")
		trace := fs.String("trace", "", "")
		fs.Bool("v", false, "")
		err := ParseTrace(fs, c.args, "usage", io.Discard, trace, c.sep)
		if c.bad != (err != nil) || !c.bad && *trace != c.want || c.bad && !errors.As(err, new(UsageError)) {
			t.Errorf("%q: trace %q, %v; want %q (bad %v)", c.args, *trace, err, c.want, c.bad)
		}
	}
}

// TestTerminal: Terminal sees through the writer Main wraps os.Stdout in
// (commandStdout; a character device stands for the terminal: /dev/null
// is one).
func TestTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if !Terminal(f) || !Terminal(commandStdout(f)) {
		t.Errorf("Terminal(%s) %v, as Main hands it %v; want true", os.DevNull, Terminal(f), Terminal(commandStdout(f)))
	}
	file, err := os.Create(t.TempDir() + "/out")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if Terminal(io.Discard) || Terminal(&stickyWriter{w: io.Discard}) || Terminal(commandStdout(file)) {
		t.Error("Terminal: true of io.Discard or a regular file")
	}
}

// TestNotifyWatchedAsNotifyContext: on a real signal, the context Main
// hands a command ends as signal.NotifyContext's did (it replaced it):
// the same Err, a Cause with the same message that is still
// context.Canceled for errors.Is, and a context derived from it (as
// commands make with WithTimeout) cancelled too.
func TestNotifyWatchedAsNotifyContext(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGUSR1, syscall.SIGUSR2} {
		w, stop := notifyWatched(sig)
		ref, refStop := signal.NotifyContext(context.Background(), sig)
		child, childStop := context.WithTimeout(w, time.Hour)
		if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		for _, c := range []context.Context{w, ref, child} {
			select {
			case <-c.Done():
			case <-time.After(10 * time.Second):
				t.Fatalf("%v: not cancelled after 10 s", sig)
			}
		}
		if w.Err() != ref.Err() || child.Err() != ref.Err() {
			t.Errorf("%v: Err %v, derived %v, NotifyContext's %v", sig, w.Err(), child.Err(), ref.Err())
		}
		got, want := context.Cause(w), context.Cause(ref)
		if got.Error() != want.Error() {
			t.Errorf("%v: Cause %q, NotifyContext's %q", sig, got, want)
		}
		if errors.Is(got, context.Canceled) != errors.Is(want, context.Canceled) {
			t.Errorf("%v: errors.Is(Cause, context.Canceled) %v, NotifyContext's %v",
				sig, errors.Is(got, context.Canceled), errors.Is(want, context.Canceled))
		}
		if got := context.Cause(child); got.Error() != want.Error() {
			t.Errorf("%v: derived context's Cause %q, want %q", sig, got, want)
		}
		childStop()
		refStop()
		stop()
	}
}

// TestWatchedDoneErrAgree: a reader that sees Done closed sees Err
// non-nil, and one that sees Err non-nil finds Done closed, while another
// goroutine cancels (sched.Sim stops on Err; a server waits on Done).
func TestWatchedDoneErrAgree(t *testing.T) {
	for range 2000 {
		w := newWatched()
		_ = w.Err() // watched: Err's one-load path from here on
		var wg sync.WaitGroup
		bad := make(chan string, 2)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-w.Done():
					if w.Err() == nil {
						bad <- "Done closed, Err nil"
					}
					return
				default:
				}
				if w.Err() != nil {
					select {
					case <-w.Done():
					default:
						bad <- "Err non-nil, Done open"
					}
					return
				}
			}
		}()
		w.cancel(nil)
		wg.Wait()
		close(bad)
		for b := range bad {
			t.Fatal(b)
		}
	}
}
