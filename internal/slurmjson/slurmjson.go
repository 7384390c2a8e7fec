// Package slurmjson reads the numbers and job states of Slurm's JSON
// (sacct --json, squeue --json, slurmrestd) in the forms of every version:
// 22.05 (openapi v0.0.38) writes a number plainly (42, or null for NO_VAL
// and INFINITE) and a state as a string ("PENDING"); 23.02 and later
// (data_parser v0.0.39 on) write a number as {"set":true,"infinite":false,
// "number":42} and a state as a list (["PENDING","COMPLETING"]) or, in
// sacct, as {"current": either, "reason": ...}. swf/convert and
// qbets/karnak/slurmfeed share it.
package slurmjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max bounds a plausible number (2^40: a time in seconds, a count): a
// larger magnitude is Big, not a value.
const Max = 1 << 40

// Num is a number of any Slurm version: 42, "42", null, or
// {"set":…,"infinite":…,"number":…}.
//
// Set is false for null, "", {"set":false}, and Slurm's NO_VAL sentinels
// (4294967294, 2^64-2 and its neighbours): no value. Inf is true for
// {"infinite":true} and INFINITE (4294967295). 65534 and 65535 are values:
// the 16-bit sentinels are not those of any field read.
// Big is a number past ±Max, as 1e300: neither a value nor a sentinel,
// so the field is unreadable. A string that is no number, a number with a
// fractional part (2.5, "2.5": Slurm writes integers), true, false or a
// list is an error (a *json.UnmarshalTypeError).
type Num struct {
	V        int64
	Set, Inf bool
	Null     bool   // a literal null (Slurm 22.05 writes NO_VAL and INFINITE so)
	Big      bool   // a number beyond any plausible value (not set): the field is unreadable
	Text     string // the number as written, for errors
}

// OK says the number has a value: set and not infinite.
func (n Num) OK() bool { return n.Set && !n.Inf }

// UnmarshalJSON reads any of the forms.
func (n *Num) UnmarshalJSON(data []byte) error {
	*n = Num{}
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0 || string(data) == "null":
		n.Null = true
		return nil
	case data[0] == '{':
		var o struct {
			Set      *bool           `json:"set"`
			Infinite bool            `json:"infinite"`
			Number   json.RawMessage `json:"number"`
		}
		if err := json.Unmarshal(data, &o); err != nil {
			return &json.UnmarshalTypeError{Value: "object " + Clip(string(data)), Type: numType}
		}
		if o.Infinite {
			n.Set, n.Inf = true, true
			return nil
		}
		if o.Set != nil && !*o.Set || len(o.Number) == 0 || string(o.Number) == "null" {
			return nil
		}
		return n.number(strings.Trim(string(o.Number), `"`))
	case data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return &json.UnmarshalTypeError{Value: "string", Type: numType}
		}
		if s == "" {
			return nil
		}
		return n.number(s)
	case data[0] == 't' || data[0] == 'f' || data[0] == '[':
		return &json.UnmarshalTypeError{Value: Clip(string(data)), Type: numType}
	}
	return n.number(string(data))
}

var numType = reflect.TypeOf(int64(0))

func (n *Num) number(s string) error {
	// A whole number is read exactly: as a float, every integer within
	// 4096 of 2^64 (18446744073709551621, past uint64, among them) would
	// read as NO_VAL64.
	switch u, err := strconv.ParseUint(s, 10, 64); {
	case errors.Is(err, strconv.ErrRange): // (digits only, past 2^64)
		n.Text, n.Big = Clip(s), true
		return nil
	case err == nil:
		n.Text = Clip(s)
		switch {
		case u == 4294967294 || u == math.MaxUint64-1: // NO_VAL, NO_VAL64
		case u == 4294967295 || u == math.MaxUint64: // INFINITE, INFINITE64
			n.Set, n.Inf = true, true
		case u > Max:
			n.Big = true
		default:
			n.V, n.Set = int64(u), true
		}
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) {
		return &json.UnmarshalTypeError{Value: "string " + strconv.Quote(Clip(s)), Type: numType}
	}
	n.Text = Clip(s)
	switch {
	// Not NO_VAL16 and INFINITE16 (65534, 65535): they are sentinels of
	// 16-bit fields only, and every field read is 32-bit or wider, where
	// they are values (job 65535, a limit of 65535 minutes).
	case f == 4294967294 || f >= 1.8446744073709552e19-4096 && f <= 1.8446744073709552e19: // NO_VAL, NO_VAL64
		return nil
	case f == 4294967295: // INFINITE
		n.Set, n.Inf = true, true
		return nil
	case f < -Max || f > Max:
		n.Big = true // as 1e300 or -1e9: not a value, not a sentinel either
		return nil
	}
	if f != math.Trunc(f) {
		// Slurm writes every number read as an integer: 2.5 is no count,
		// time or id, and was cut to 2 without a word. Refused, as
		// "Unknown" is, so the caller names the field; a whole number
		// written as a float (2.0, 1.7e9) is that number.
		return &json.UnmarshalTypeError{Value: "fractional number " + Clip(s), Type: numType}
	}
	n.V, n.Set = int64(f), true
	return nil
}

// State is a state of any Slurm version: "COMPLETED", ["COMPLETED"],
// or {"current": either, "reason": ...}. The first word is the base
// state, the others its flags (COMPLETING, REQUEUED...).
type State struct{ Words []string }

// UnmarshalJSON reads any of the forms.
func (s *State) UnmarshalJSON(data []byte) error {
	s.Words = nil
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0 || string(data) == "null":
		return nil
	case data[0] == '{':
		var o struct {
			Current State `json:"current"`
		}
		if err := json.Unmarshal(data, &o); err != nil {
			return err
		}
		*s = o.Current
		return nil
	case data[0] == '[':
		return json.Unmarshal(data, &s.Words)
	default:
		var w string
		if err := json.Unmarshal(data, &w); err != nil {
			return err
		}
		s.Words = []string{w}
		return nil
	}
}

// First is the first word that is not blank: the base state ("" if none).
func (s State) First() string {
	for _, w := range s.Words {
		if w = strings.TrimSpace(w); w != "" {
			return w
		}
	}
	return ""
}

// Clip cuts s to about 64 bytes at a rune boundary, marking the cut with
// "…", so that an error never quotes a hostile value whole.
func Clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	n := max - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
