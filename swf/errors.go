package swf

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Errors wrapped by ParseError; ErrRange also by the error of Writer.Write
// (and Job.AppendText) on a field the Reader would refuse.
var (
	ErrFieldCount = errors.New("wrong number of fields")
	ErrSyntax     = errors.New("not a number")
	ErrRange      = errors.New("value out of range")
)

// Warnings wrapped by the ParseErrors in Stats.Warnings, besides ErrSyntax
// and ErrRange for a numeric header value kept as text. See Header for the
// rules.
var (
	// ErrRepeatedKey: a single-valued header key given again; the first
	// value is kept and this one ignored.
	ErrRepeatedKey = errors.New("repeated header key ignored, the first value is kept")
	// ErrLateHeader: a "Key: value" comment after the first job line; it is
	// kept in Header.Lines but changes no field.
	ErrLateHeader = errors.New("header key after the first job line ignored")
)

// ParseError reports a malformed line, or, in Stats.Warnings, a header line
// that was kept but not applied. Line counts from 1. Field is the 1-based
// SWF field number (0 when the error concerns the whole line, a header
// key or a demand line); Key is the header key for header warnings, and
// for an error on a demand line the demand key at fault ("gpus", "+lic";
// "" when the line as a whole is wrong), its Err wrapping ErrSyntax or
// ErrRange. Header lines are never errors, so an error (not a warning)
// with a Key is always a demand line's. Value is the offending
// text, cut to about 64 bytes (ending in "…" when cut) so that a hostile
// line cannot make a huge error.
type ParseError struct {
	Line  int
	Field int
	Key   string
	Value string
	Err   error
}

func (e *ParseError) Error() string {
	_, demand := e.Err.(*demandError)
	switch {
	case demand && e.Key != "":
		return fmt.Sprintf("swf: line %d, demand %s: %s: %v", e.Line, plainKey(e.Key), quote(clip(e.Value)), e.Err)
	case demand && e.Value != "":
		return fmt.Sprintf("swf: line %d, demand line: %s: %v", e.Line, quote(clip(e.Value)), e.Err)
	case demand:
		return fmt.Sprintf("swf: line %d: %v", e.Line, e.Err)
	case e.Key != "":
		return fmt.Sprintf("swf: line %d, header %s: %s: %v", e.Line, clip(e.Key), quote(clip(e.Value)), e.Err)
	case e.Field > 0 && e.Field <= NumFields:
		return fmt.Sprintf("swf: line %d, field %d (%s): %s: %v", e.Line, e.Field, FieldName(e.Field-1), quote(clip(e.Value)), e.Err)
	case e.Field > 0:
		return fmt.Sprintf("swf: line %d, field %d: %s: %v", e.Line, e.Field, quote(clip(e.Value)), e.Err)
	default:
		return fmt.Sprintf("swf: line %d: %v", e.Line, e.Err)
	}
}

func (e *ParseError) Unwrap() error { return e.Err }

// maxValue is about the most bytes of a bad value that an error quotes.
const maxValue = 64

// quote is %q of v, a clipped value, cut further while its escapes (four
// bytes for one such as \x92) make it longer than 2*maxValue bytes: an
// error stays short whatever the bytes it quotes (FuzzReader found a
// demand line's key and value of such bytes making one of 401 bytes).
func quote(v string) string {
	q := strconv.Quote(v)
	for n := len(v); len(q) > 2*maxValue && n > 0; {
		n /= 2
		for n > 0 && !utf8.RuneStart(v[n]) {
			n--
		}
		q = strconv.Quote(v[:n] + "…")
	}
	return q
}

// clip returns s, or its first bytes (cut at a rune boundary) and "…" when
// s is longer than maxValue.
func clip[T string | []byte](s T) string {
	if len(s) <= maxValue {
		return string(s)
	}
	n := maxValue - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return string(s[:n]) + "…"
}

// plainKey is a demand key as written when it is printable ASCII, else
// its first 8 bytes quoted (the value, quoted too, holds it whole): a hostile key's bytes go to the terminal
// neither raw nor four times their number.
func plainKey(k string) string {
	for i := 0; i < len(k); i++ {
		if k[i] <= ' ' || k[i] > '~' {
			if len(k) > 8 {
				return strconv.Quote(k[:8]) + "…"
			}
			return strconv.Quote(k)
		}
	}
	return clip(k)
}
