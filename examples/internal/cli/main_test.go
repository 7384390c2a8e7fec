package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary run Main as a child process, so that a
// real signal reaches it.
func TestMain(m *testing.M) {
	switch os.Getenv("CLI_CHILD") {
	case "watching": // stops cleanly on the signal, with its own status
		Main(func(ctx context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) int {
			done := ctx.Done() // watching from here on, before the parent signals
			io.WriteString(stdout, "ready\n")
			<-done
			time.Sleep(100 * time.Millisecond) // a shutdown that takes a while
			return 7
		})
	case "full": // writes its report and returns 0, its stdout a full disk
		Main(func(_ context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) int {
			io.WriteString(stdout, "the report\n")
			return 0
		})
	case "fullfails": // sees its write fail, says so and returns 1
		Main(func(_ context.Context, _ []string, _ io.Reader, stdout, stderr io.Writer) int {
			if _, err := io.WriteString(stdout, "the report\n"); err != nil {
				io.WriteString(stderr, "fullfails: "+err.Error()+"\n")
				return ExitError
			}
			return 0
		})
	case "fullsig": // stops cleanly on a signal, then writes its report
		Main(func(ctx context.Context, _ []string, _ io.Reader, stdout, stderr io.Writer) int {
			done := ctx.Done()
			io.WriteString(stderr, "ready\n")
			<-done
			io.WriteString(stdout, "the report\n")
			return 0
		})
	case "stubborn": // watches its context, then ignores the signal
		Main(func(ctx context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) int {
			done := ctx.Done()
			io.WriteString(stdout, "ready\n")
			<-done
			time.Sleep(time.Minute)
			return 0
		})
	case "deaf": // never looks at its context
		Main(func(_ context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) int {
			io.WriteString(stdout, "ready\n")
			time.Sleep(time.Minute)
			return 0
		})
	}
	os.Exit(m.Run())
}

// startReady starts the test binary as the child of TestMain named child,
// its stderr to stderr, and returns once the child said "ready" on stdout.
func startReady(t *testing.T, child string, stderr io.Writer) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CLI_CHILD="+child)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := io.ReadFull(out, buf); err != nil || !strings.HasPrefix(string(buf), "ready") {
		t.Fatalf("%s: %q, %v", child, buf, err)
	}
	return cmd
}

func TestMainSignals(t *testing.T) {
	for _, c := range []struct {
		child string
		sig   syscall.Signal
		code  int
	}{
		{"watching", syscall.SIGTERM, 7},
		{"watching", syscall.SIGINT, 7},
		{"deaf", syscall.SIGINT, ExitError},
	} {
		var stderr strings.Builder
		cmd := startReady(t, c.child, &stderr)
		t0 := time.Now()
		cmd.Process.Signal(c.sig)
		err := cmd.Wait()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("%s after %v: exit %d, want %d", c.child, c.sig, code, c.code)
		}
		if want := filepath.Base(os.Args[0]) + ": interrupted\n"; c.child == "deaf" && stderr.String() != want {
			t.Errorf("%s after %v: stderr %q, want %q (the command named)", c.child, c.sig, stderr.String(), want)
		}
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("%s: took %v to stop", c.child, d)
		}
	}
}

// A command whose standard output cannot be written exits 1 with the
// error, even when it ignored the write's error itself: swfstat, replay,
// qbets, varq, coalloc and sweep list printed their reports with fmt.Fprint
// to a full disk (stdout > /dev/full) and exited 0, the report lost. The
// same after a signal it stopped on cleanly; and a command that failed on
// the write and said so keeps its status and its one message.
func TestMainStdoutWriteError(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, c := range []struct {
		child string
		want  string // the one line on stderr
	}{
		{"full", "write standard output: write /dev/stdout: no space left on device"},
		{"fullsig", "write standard output: write /dev/stdout: no space left on device"},
		{"fullfails", "fullfails: write /dev/stdout: no space left on device"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CLI_CHILD="+c.child)
		cmd.Stdout = full
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if c.child == "fullsig" {
			buf := make([]byte, 6)
			if _, err := io.ReadFull(stderr, buf); err != nil || string(buf) != "ready\n" {
				t.Fatalf("%s: %q, %v", c.child, buf, err)
			}
			cmd.Process.Signal(syscall.SIGTERM)
		}
		msg, _ := io.ReadAll(stderr)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != ExitError {
			t.Errorf("%s: exit %v, stderr %q; want exit %d", c.child, err, msg, ExitError)
		}
		if lines := strings.Split(strings.TrimSuffix(string(msg), "\n"), "\n"); len(lines) != 1 || !strings.HasSuffix(lines[0], c.want) {
			t.Errorf("%s: stderr %q, want one line ending %q", c.child, msg, c.want)
		}
	}
}

// TestMainSecondSignal: a command that watched its context but does not
// stop on the first signal is ended by the second, with the signal's
// default action, as when Main used signal.NotifyContext (the second is
// sent again until the process ends, since Main gives the default action
// back only once it has seen the first).
func TestMainSecondSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := startReady(t, "stubborn", nil)
		cmd.Process.Signal(sig)
		var err error
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		tick := time.NewTicker(50 * time.Millisecond)
		deadline := time.After(20 * time.Second)
	loop:
		for {
			select {
			case err = <-waited:
				break loop
			case <-tick.C:
				cmd.Process.Signal(sig)
			case <-deadline:
				cmd.Process.Kill()
				t.Fatalf("%v: still running 20 s after the second signal", sig)
			}
		}
		tick.Stop()
		ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ok || !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: ended with %v (%v), want killed by the signal", sig, cmd.ProcessState, err)
		}
	}
}
