package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/batchq/batchq/internal/progress"
)

// Parse parses args with fs, accepting flags before and after the
// positional arguments ("--" ends the flags), and returns the positional
// ones in order. Errors are fs.Parse's (flag.ErrHelp for -h), with
// numberHint's advice for a negative number taken for a flag (here, not
// in ParseArgs only, so that sweep's subcommands give it too), and a
// flag of one value given twice (once): the second replaced the first
// with no word ("-machine 100 -machine 200" simulated 200). A flag whose
// usage says "repeatable" may be given again.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	twice, restore := once(fs)
	defer restore()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if *twice != nil {
				return nil, *twice
			}
			if msg := numberHint(err.Error()); msg != err.Error() {
				return nil, errors.New(msg)
			}
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && endedByTerminator(fs, args[:n]) {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// once makes every flag of fs but the repeatable ones (usage saying
// "repeatable") refuse a second value, the refusal in *twice, until
// restore puts fs's values back (PrintDefaults and a caller's Lookup see
// them as they were). It wraps the values for the whole of Parse, whose
// fs.Parse calls, one between positional arguments, see one command line.
func once(fs *flag.FlagSet) (twice *error, restore func()) {
	twice = new(error)
	var wrapped []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if strings.Contains(f.Usage, "repeatable") {
			return
		}
		o := &onceValue{Value: f.Value, name: f.Name, twice: twice}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			o.bool = true
			f.Value = onceBool{o}
		} else {
			f.Value = o
		}
		wrapped = append(wrapped, f)
	})
	return twice, func() {
		for _, f := range wrapped {
			switch v := f.Value.(type) {
			case *onceValue:
				f.Value = v.Value
			case onceBool:
				f.Value = v.Value
			}
		}
	}
}

// onceValue is a flag's value that takes one Set.
type onceValue struct {
	flag.Value
	name  string
	bool  bool    // a boolean flag's: its values are no news
	first *string // the first value given, nil before
	twice *error
}

func (o *onceValue) Set(v string) error {
	if o.first != nil {
		*o.twice = fmt.Errorf("-%s given twice (%q, then %q): it takes one value", o.name, *o.first, v)
		if o.bool {
			*o.twice = fmt.Errorf("-%s given twice: it takes one value", o.name)
		}
		return *o.twice
	}
	o.first = &v
	return o.Value.Set(v)
}

// onceBool is a boolean flag's onceValue: package flag asks IsBoolFlag to
// take "-json" without a value.
type onceBool struct{ *onceValue }

func (onceBool) IsBoolFlag() bool { return true }

// NewFlagSet returns a flag set that returns its errors instead of
// printing them or exiting; ParseArgs reports them.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// ParseArgs is Parse for a command: on -h it prints usage and the flags'
// defaults on stdout and returns flag.ErrHelp (Status: exit 0); any other
// error is a UsageError (exit 2).
func ParseArgs(fs *flag.FlagSet, args []string, usage string, stdout io.Writer) ([]string, error) {
	pos, err := Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		return nil, err
	}
	if err != nil {
		return nil, UsageError{err.Error()}
	}
	return pos, nil
}

// numberHint adds to package flag's "flag provided but not defined: -5"
// what the user likely meant: a negative number as an argument (qserve
// kwouldwait -5 …), which only follows a "--" (the message alone sent
// them looking for a flag named 5).
func numberHint(msg string) string {
	name, ok := strings.CutPrefix(msg, "flag provided but not defined: -")
	if _, err := strconv.ParseFloat(name, 64); !ok || err != nil {
		return msg
	}
	return msg + "; a negative number as an argument: put -- before the arguments"
}

// ParseFlags is ParseArgs for a command that takes flags only: a
// positional argument is a UsageError.
func ParseFlags(fs *flag.FlagSet, args []string, usage string, stdout io.Writer) error {
	pos, err := ParseArgs(fs, args, usage, stdout)
	if err == nil && len(pos) > 0 {
		err = Usagef("unexpected argument %q: this command takes flags only", pos[0])
	}
	return err
}

// JSONFlag registers -json, output for scripts, on fs.
func JSONFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, "print JSON on standard output instead of the text report")
}

// ProgressFlag registers -progress on fs: a progress bar on stderr for
// runs longer than a second, on by default when stderr is a terminal.
func ProgressFlag(fs *flag.FlagSet, stderr io.Writer) *bool {
	return fs.Bool("progress", progress.IsTerminal(stderr), "progress bar on stderr for runs longer than a second (default: when stderr is a terminal)")
}

// Terminal reports whether w is a terminal, as progress.IsTerminal does,
// also for the standard output Main hands a command (wrapped to keep its
// write errors): a command whose output streams to stdout draws no bar by
// default when stdout is the terminal too, or the bar cuts the lines.
func Terminal(w io.Writer) bool {
	if s, ok := w.(*stickyWriter); ok {
		w = s.w
	}
	return progress.IsTerminal(w)
}

// ProgressOn reports whether to draw the bar of -progress (registered by
// ProgressFlag as bar): as the command line set it, else a terminal's
// default, which -json turns off (its output is for scripts).
func ProgressOn(fs *flag.FlagSet, bar *bool, json bool) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "progress" })
	return *bar && (set || !json)
}

// endedByTerminator reports whether fs.Parse stopped after a "--" that
// ended the flags, walking the consumed arguments as package flag does:
// a "--" that is the value of a non-boolean flag ("-o --") is no
// terminator (it was taken for one, and every later flag for a
// positional argument).
func endedByTerminator(fs *flag.FlagSet, consumed []string) bool {
	for i := 0; i < len(consumed); i++ {
		s := consumed[i]
		if s == "--" {
			return true
		}
		name := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		i++ // the next argument is this flag's value
	}
	return false
}

// ParseTrace is ParseArgs for a command whose input is -trace: a trace may
// also be given as an argument, before or after the flags (as simulate's
// and forecast's), several joined with commas when the command reads a
// list (sep ","; "" for one trace). A trace given both ways, or more than
// one to a command of one, is a UsageError.
func ParseTrace(fs *flag.FlagSet, args []string, usage string, stdout io.Writer, trace *string, sep string) error {
	pos, err := ParseArgs(fs, args, usage, stdout)
	switch {
	case err != nil || len(pos) == 0:
		return err
	case *trace != "":
		return Usagef("trace given twice: -trace %q and argument %q", *trace, pos[0])
	case len(pos) > 1 && sep == "":
		return Usagef("one trace expected, got %q", pos)
	}
	*trace = strings.Join(pos, sep)
	return nil
}
