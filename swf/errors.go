package swf

import (
	"errors"
	"fmt"
)

// Errors wrapped by ParseError.
var (
	ErrFieldCount = errors.New("wrong number of fields")
	ErrSyntax     = errors.New("not a number")
	ErrRange      = errors.New("value out of range")
)

// ParseError reports a malformed line. Line counts from 1. Field is the
// 1-based SWF field number (0 when the error concerns the whole line or a
// header key); Key is the header key for header errors.
type ParseError struct {
	Line  int
	Field int
	Key   string
	Value string
	Err   error
}

func (e *ParseError) Error() string {
	switch {
	case e.Key != "":
		return fmt.Sprintf("swf: line %d, header %s: %q: %v", e.Line, e.Key, e.Value, e.Err)
	case e.Field > 0:
		return fmt.Sprintf("swf: line %d, field %d (%s): %q: %v", e.Line, e.Field, FieldNames[e.Field-1], e.Value, e.Err)
	default:
		return fmt.Sprintf("swf: line %d: %v", e.Line, e.Err)
	}
}

func (e *ParseError) Unwrap() error { return e.Err }
