package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/batchq/batchq/internal/textcheck"
	"github.com/batchq/batchq/swf"
)

// ReadLog is swf.ReadFile (strict, every error naming the file) that also
// returns how many zero bytes followed the last gzip member: padding (a
// tape's, dd's) that the reader ignores, as gzip(1) does, and that the
// command then says in its report in PaddingNote's words. swf.ReadFile
// drops the count: a command reading a log with it could not say so (the
// commands that read a whole SWF log read it here; simulate, swfstat and
// convert, which open theirs with swf.Open or inflate, take the count
// from the reader).
func ReadLog(path string) (*swf.Header, []swf.Job, int64, error) {
	h, jobs, zeros, _, err := ReadLogHeader(path)
	return h, jobs, zeros, err
}

// ReadLogHeader is ReadLog that also returns the header lines the reader
// did not take as written (Skipped.Header, the first 100), which the
// command says in HeaderNote's words (-json: "header_warnings"): sweep,
// apq, flurries and tsafrir read with ReadLog, which dropped them, and ran
// on another machine size than the file's line gave without a word.
func ReadLogHeader(path string) (*swf.Header, []swf.Job, int64, []string, error) {
	h, jobs, st, zeros, err := readLog(path, false)
	if pe := (*swf.ParseError)(nil); errors.As(err, &pe) && notTextLine(pe) {
		// (a command without -lenient: the note alone, not its hint)
		err = fmt.Errorf("%w: %s", err, notText)
	}
	if err != nil {
		return nil, nil, 0, nil, err
	}
	return h, jobs, zeros, SkippedOf(st).Header, nil
}

// ReadLogLenient is ReadLog for a command with -lenient (simulate's and
// swfstat's flag): lenient, a malformed line is skipped and counted in the
// returned Stats (Skipped, Errors), which the command reports (SkippedOf);
// strict, the error of a malformed line says that -lenient skips it
// (LenientHint). A log whose every job line was skipped is an error
// (NoJobLines).
func ReadLogLenient(path string, lenient bool) (*swf.Header, []swf.Job, swf.Stats, int64, error) {
	h, jobs, st, zeros, err := readLog(path, lenient)
	if err != nil {
		return nil, nil, st, 0, LenientHint(err)
	}
	if len(jobs) == 0 && st.Skipped > 0 {
		return nil, nil, st, 0, NoJobLines(path, st)
	}
	return h, jobs, st, zeros, nil
}

func readLog(path string, lenient bool) (*swf.Header, []swf.Job, swf.Stats, int64, error) {
	f, err := swf.Open(path)
	if err != nil {
		return nil, nil, swf.Stats{}, 0, err
	}
	defer BoundDrain(f, DamageIdle)() // (a named pipe may stall)
	f.Lenient = lenient
	h, err := f.Header()
	if err == nil {
		var jobs []swf.Job
		if jobs, err = f.ReadAll(); err == nil {
			return h, jobs, f.Stats(), f.TrailingZeros(), nil
		}
	}
	// A *ParseError names no file (swf.ReadFile's rule); the others do.
	if pe := (*swf.ParseError)(nil); errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return nil, nil, f.Stats(), 0, err
}

// LenientHint makes the error of a strict read's malformed line (a
// *swf.ParseError, which a lenient read skips) say that -lenient skips
// such lines; any other error (a damaged gzip stream's, whose garbage
// lines a lenient read would skip only to fail at its end) is as it is.
func LenientHint(err error) error {
	if pe := (*swf.ParseError)(nil); errors.As(err, &pe) {
		if notTextLine(pe) {
			return fmt.Errorf("%w: %s", err, notText)
		}
		return fmt.Errorf("%w (-lenient skips malformed lines, counted and reported)", err)
	}
	return err
}

// notText is what an error adds when the malformed line is binary data
// (textcheck.Binary): skipping it (-lenient) or making it UTF-8 (iconv, which a
// little-endian file's NULs beside every other byte had drawn) cannot
// make it a log.
const notText = "binary data, not a text log (SWF is text: a job line is 18 numbers); is it the right file?"

// notTextLine reports whether the malformed line of pe is not text: its
// value is binary (textcheck.Binary), or, the file's first field, opens
// as a binary file does (textcheck.FirstLine).
func notTextLine(pe *swf.ParseError) bool {
	if pe.Line == 1 && pe.Field == 1 {
		return textcheck.FirstLine(pe.Value)
	}
	return textcheck.Binary(pe.Value)
}

// NoJobLines is the error for a log of name without a job line: with
// -lenient, every job line may have been malformed and skipped, and then
// it says so (simulate's and swfstat's words).
func NoJobLines(name string, st swf.Stats) error {
	if st.Skipped == 0 {
		return fmt.Errorf("%s: no job lines", name)
	}
	err := fmt.Errorf("%s: no job line could be read: %d malformed lines skipped (-lenient)", name, st.Skipped)
	if len(st.Errors) > 0 {
		err = fmt.Errorf("%w; first: %v", err, st.Errors[0])
		if pe := (*swf.ParseError)(nil); errors.As(st.Errors[0], &pe) && notTextLine(pe) {
			err = fmt.Errorf("%w: %s", err, notText)
		}
	}
	return err
}

// NothingLeft is err, the error of a log left with nothing to work on
// after it was read (no job with a wait, no sane job), with the malformed
// lines a lenient read skipped, if any ("; 3 malformed lines skipped
// (-lenient)"): they may have been the jobs it missed.
func NothingLeft(err error, st swf.Stats) error {
	return NothingLeftAs(err, st.Skipped, "-lenient")
}

// NothingLeftAs is NothingLeft for a command whose leniency is not the
// -lenient flag: skipped lines were skipped, said as by ("the spec's
// \"lenient\"", sweep's).
func NothingLeftAs(err error, skipped int, by string) error {
	if skipped == 0 {
		return err
	}
	return fmt.Errorf("%w; %d malformed lines skipped (%s)", err, skipped, by)
}

// Skipped is a lenient read's skipped lines as a report says them: in
// -json under swfstat's keys, the count and the errors kept (the first
// 100; a command's JSON object embeds it), in text Note's line. It also
// carries the time fields the reader rounded (written with a fraction,
// which SWF allows: swf.Stats.Rounded), a rule that changed jobs, so that
// every command reading a log through it says them (swfstat's key,
// absent when none).
//
// Header is the header lines the reader did not take as written
// (swf.Stats.Warnings: a "; MaxProcs: 12.5" kept as text, so that the size
// came from MaxNodes; a "; MaxProcs: 50" after the first job line,
// ignored), the first 100, in swfstat's and simulate's words: only those
// two said them, and every other command ran on another machine size than
// the file's line gave without a word.
type Skipped struct {
	Lines   int      `json:"malformed_lines_skipped"`
	Errors  []string `json:"skipped,omitempty"`
	Rounded int      `json:"time_fields_rounded,omitempty"`
	Below   string   `json:"fields_below_unknown,omitempty"` // BelowNote's, "" when none
	Header  []string `json:"header_warnings,omitempty"`
}

// Note is the text report's line of the skipped lines, "" when none was
// (simulate's words).
func (s Skipped) Note() string {
	var w string
	if s.Lines > 0 {
		w = fmt.Sprintf("skipped %d malformed lines (-lenient)", s.Lines)
		if len(s.Errors) > 0 {
			w += "; first: " + s.Errors[0]
		}
	}
	if s.Rounded > 0 {
		if w != "" {
			w += "; "
		}
		w += RoundedNote(s.Rounded)
	}
	if s.Below != "" {
		if w != "" {
			w += "; "
		}
		w += s.Below
	}
	if len(s.Header) > 0 {
		if w != "" {
			w += "; "
		}
		w += HeaderNote(s.Header)
	}
	return w
}

// HeaderNote is the report's note of the header lines not taken as
// written (Skipped.Header), naming the first.
func HeaderNote(header []string) string {
	noun := "lines"
	if len(header) == 1 {
		noun = "line"
	}
	return fmt.Sprintf("%d header %s not taken as written; first: %s", len(header), noun, header[0])
}

// RoundedNote is the report's note of n time fields written with a
// fraction and read rounded (swf.Stats.Rounded; simulate's words).
func RoundedNote(n int) string {
	return fmt.Sprintf("%d time fields written with a fraction read rounded to the nearest second, halves away from zero (swf.Stats.Rounded)", n)
}

// BelowNote is the report's note of the fields that held a number below
// -1 and were read as -1 (swf.Stats.BelowUnknown), by field; "" when
// none did.
func BelowNote(st swf.Stats) string {
	if st.BelowUnknown == 0 {
		return ""
	}
	var by []string
	for k, n := range st.BelowUnknownFields {
		if n > 0 {
			by = append(by, fmt.Sprintf("%d %s", n, swf.FieldName(k)))
		}
	}
	return fmt.Sprintf("%d fields held a number below -1, which SWF does not define, read as -1, unknown, the jobs kept as pyss and predictsim keep them (%s; swf.Stats.BelowUnknown)",
		st.BelowUnknown, strings.Join(by, ", "))
}

// BelowByField is st.BelowUnknownFields by field name, nil when no field
// held a number below -1 (the commands' -json).
func BelowByField(st swf.Stats) map[string]int {
	var m map[string]int
	for k, n := range st.BelowUnknownFields {
		if n > 0 {
			if m == nil {
				m = make(map[string]int)
			}
			m[swf.FieldName(k)] = n
		}
	}
	return m
}

// SkippedOf is st's Skipped.
func SkippedOf(st swf.Stats) Skipped {
	s := Skipped{Lines: st.Skipped, Rounded: st.Rounded, Below: BelowNote(st)}
	for _, e := range st.Errors {
		s.Errors = append(s.Errors, e.Error())
	}
	for _, e := range st.Warnings[:min(len(st.Warnings), 100)] {
		s.Header = append(s.Header, e.Error())
	}
	return s
}

// Add adds the lines st skipped in the log named name to s, for a
// command reading several logs (varq's, coalloc's): the errors kept stay
// the first 100 (the reader's bound), each prefixed "name: " when named
// (more than one log: which log the line is in).
func (s *Skipped) Add(name string, st swf.Stats, named bool) {
	s.Lines += st.Skipped
	s.Rounded += st.Rounded
	if b := BelowNote(st); b != "" {
		if named {
			b = name + ": " + b
		}
		s.Below = strings.TrimPrefix(s.Below+"; "+b, "; ")
	}
	for _, e := range st.Errors {
		if len(s.Errors) == 100 {
			break
		}
		w := e.Error()
		if named {
			w = name + ": " + w
		}
		s.Errors = append(s.Errors, w)
	}
	for _, e := range st.Warnings {
		if len(s.Header) == 100 {
			break
		}
		w := e.Error()
		if named {
			w = name + ": " + w
		}
		s.Header = append(s.Header, w)
	}
}

// PaddingNote is the report's note of z zero bytes after the last gzip
// member (simulate's, swfstat's and convert's words); -json says
// "trailing_zero_bytes": z.
func PaddingNote(z int64) string {
	return fmt.Sprintf("%d zero bytes after the last gzip member ignored", z)
}
