// Package cli is the one skeleton of the example commands: flags before or
// after the arguments, injected streams, exit statuses (0 ok, 1 a run
// error, 2 a usage error), SIGINT/SIGTERM as a cancelled context, -json
// and a progress bar on a terminal. A command is
//
//	func main() { cli.Main(run) }
//
//	func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
//		fs := cli.NewFlagSet("name")
//		asJSON := cli.JSONFlag(fs)
//		pos, err := cli.ParseArgs(fs, args, usage, stdout)
//		...
//		return cli.Status("name", stderr, err)
//	}
//
// and its test runs the shared table of package clitest on run.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Exit statuses of every command.
const (
	ExitOK    = 0 // done, or -h
	ExitError = 1 // a run error: unreadable or malformed input, unwritable output, interrupted
	ExitUsage = 2 // a bad command line
)

// Command is a command's whole body over explicit streams; it returns the
// exit status. Tests call it directly.
type Command func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// UsageError is a bad command line: Status reports it with exit status 2.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef returns a UsageError with a formatted message.
func Usagef(format string, a ...any) error { return UsageError{fmt.Sprintf(format, a...)} }

// Main runs cmd on the process's arguments and standard streams and exits
// with its status. SIGINT or SIGTERM cancels cmd's context. A command that
// watches its context (it has asked for Done or Err by the time of the
// signal: a server, a simulation that checks between steps) gets to stop
// cleanly, however long its shutdown takes, and a second signal ends the
// process at once; one that has not looked at its context is ended at the
// first signal, with ExitError, since it would not notice.
func Main(cmd Command) {
	ctx, stop := notifyWatched(os.Interrupt, syscall.SIGTERM)
	parent := ctx.Context // its Done, which does not mark ctx as watched
	done := make(chan int, 1)
	stdout := commandStdout(os.Stdout)
	go func() { done <- cmd(ctx, os.Args[1:], os.Stdin, stdout, os.Stderr) }()
	select {
	case code := <-done:
		stop()
		os.Exit(stdout.status(code))
	case <-parent.Done():
	}
	stop() // a second signal gets the default action
	if !ctx.watchedYet() {
		// Named as Status names it ("forecast: interrupted"): a user saw
		// a bare "interrupted" from qbets, varq, coalloc, apq, flurries.
		fmt.Fprintf(os.Stderr, "%s: interrupted\n", filepath.Base(os.Args[0]))
		os.Exit(ExitError)
	}
	// A command that stopped cleanly on the signal may have lost its
	// report too.
	os.Exit(stdout.status(<-done))
}

// commandStdout is the standard output Main hands a command: Terminal
// sees through it (TestTerminal checks it on this very writer, so that a
// new wrapper here cannot hide a terminal from the progress bars' check).
func commandStdout(f *os.File) *stickyWriter { return &stickyWriter{w: f} }

// stickyWriter keeps the first error of its writes (safe for concurrent
// writes, as the *os.File it wraps is).
type stickyWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

// status is the exit status of a command that returned code: ExitError,
// said on stderr, when it returned ExitOK after a write failed. A report
// printed with fmt.Fprint to a full disk is lost, whether or not the
// command looked at the write's error; a command that failed already
// (and said why) keeps its status and its message alone.
func (s *stickyWriter) status(code int) int {
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if code != ExitOK || err == nil {
		return code
	}
	fmt.Fprintf(os.Stderr, "%s: write standard output: %v\n", filepath.Base(os.Args[0]), err)
	return ExitError
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return n, err
}

// watched is the context Main hands a command. It records whether its
// holder ever watched it (asked for Done or Err; Main ends at once a
// command that never did), and it is cancelled only through cancel, which
// marks it before its Done closes. Its Err is then one atomic load while
// the run goes on: a simulation reads it at every simulated instant
// (sched.Sim.RunUntilContext), and the chain it replaces (a store of the
// mark at every call, signal.NotifyContext's context, then the cancel
// context: three calls) cost 1.3% of examples/simulate's instructions on
// KTH-SP2 (CHANGELOG).
type watched struct {
	context.Context // context.WithCancelCause of Background, cancelled by cancel alone
	state           atomic.Uint32
	cancelCause     context.CancelCauseFunc
}

// The bits of watched.state.
const (
	watchedUsed      = 1 << iota // Done or Err was called
	watchedCancelled             // cancel was called: Err asks the context
)

// notifyWatched is signal.NotifyContext(context.Background(), sigs...)
// as a watched: one of sigs, or stop, cancels it; stop also gives the
// signals their default action back.
func notifyWatched(sigs ...os.Signal) (w *watched, stop func()) {
	w = newWatched()
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case s := <-ch:
			w.cancel(signalCause(s.String() + " signal received"))
		case <-w.Context.Done():
		}
	}()
	return w, func() {
		w.cancel(nil)
		signal.Stop(ch)
	}
}

// signalCause is the cause of a cancel on a signal, as os/signal's own
// (signal.NotifyContext's): its message, and errors.Is(cause,
// context.Canceled) holds, so that a caller testing context.Cause(ctx)
// for a cancel still sees one.
type signalCause string

func (s signalCause) Error() string { return string(s) }

func (s signalCause) Is(target error) bool { return target == context.Canceled }

// newWatched is a watched that only its cancel cancels.
func newWatched() *watched {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &watched{Context: ctx, cancelCause: cancel}
}

// cancel cancels w with cause (context.Canceled for nil). The mark comes
// first: whoever sees Done closed then sees it, so Err, which looks past
// the mark only once it is set, is non-nil once Done is closed.
func (w *watched) cancel(cause error) {
	w.state.Or(watchedCancelled)
	w.cancelCause(cause)
}

// watchedYet tells whether w's holder has asked for Done or Err.
func (w *watched) watchedYet() bool { return w.state.Load()&watchedUsed != 0 }

// use marks w as watched: a store only the first time.
func (w *watched) use() {
	if w.state.Load()&watchedUsed == 0 {
		w.state.Or(watchedUsed)
	}
}

func (w *watched) Done() <-chan struct{} {
	w.use()
	return w.Context.Done()
}

func (w *watched) Err() error {
	if w.state.Load() == watchedUsed {
		return nil // watched already, and not cancelled: the common case
	}
	w.use()
	return w.Context.Err()
}

// Status reports err on stderr as "name: err" and returns the exit status
// it means: ExitOK for nil and flag.ErrHelp (the usage was printed),
// ExitUsage for a UsageError, ExitError for anything else (a cancelled
// context reads "interrupted").
func Status(name string, stderr io.Writer, err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, new(UsageError)):
		fmt.Fprintf(stderr, "%s (-h for help)\n", prefixed(name, err))
		return ExitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "%s: interrupted\n", name)
		return ExitError
	default:
		fmt.Fprintln(stderr, prefixed(name, err))
		return ExitError
	}
}

// prefixed is err's message after "name: ", once: a library's error may
// name the command's package already ("synth: machine size -5"), for a
// usage error as for a run error.
func prefixed(name string, err error) string {
	msg := err.Error()
	if !strings.HasPrefix(msg, name+": ") {
		msg = name + ": " + msg
	}
	return msg
}
