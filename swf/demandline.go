package swf

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The demand line: see the package documentation ("Demand lines"). It is
// a comment to every other SWF tool, so a file with demands still reads
// as 18 fields a line; its keys are fixed words, named resources carry a
// '+' so that a future key is never mistaken for one, and names and GPU
// models are %XX-escaped so that any Demand that validates round-trips.

// demandMark starts a demand line; a blank or the end of the line follows
// it, so that a comment such as ";=====" stays a comment.
const demandMark = ";="

// isDemandLine reports whether line (without leading blanks) is a demand
// line.
func isDemandLine(line []byte) bool {
	return len(line) >= 2 && line[0] == ';' && line[1] == '=' &&
		(len(line) == 2 || isBlank(line[2]))
}

// demandError is the error of a malformed demand line, wrapping ErrSyntax
// or ErrRange; ParseError.Error names the line a demand line by it.
type demandError struct {
	msg string
	err error
}

func (e *demandError) Error() string { return e.msg }
func (e *demandError) Unwrap() error { return e.err }

var (
	errDemandKey      = &demandError{"unknown key (want nodes, cores, mem, gpus, models, excl or +NAME)", ErrSyntax}
	errDemandRepeated = &demandError{"key given twice", ErrSyntax}
	errDemandFlag     = &demandError{"excl takes no value", ErrSyntax}
	errDemandNoValue  = &demandError{"key without =value", ErrSyntax}
	errDemandNumber   = &demandError{"not a count (decimal digits)", ErrSyntax}
	errDemandRange    = &demandError{"count above 2^40", ErrRange}
	errDemandEscape   = &demandError{"bad %XX escape", ErrSyntax}
	errDemandName     = &demandError{"empty resource name", ErrSyntax}
	errDemandOrphan   = &demandError{"demand line not followed by its job line", ErrSyntax}
)

// parseDemand parses the tokens after demandMark into a new Demand. The
// returned error has Key and Value set, Line not.
func parseDemand(rest []byte) (*Demand, *ParseError) {
	d := &Demand{}
	var seen [6]bool // nodes, cores, mem, gpus, models, excl
	bad := func(key string, tok []byte, err error) (*Demand, *ParseError) {
		return nil, &ParseError{Key: clip(key), Value: clip(tok), Err: err}
	}
	for i := blanks(rest, 0); i < len(rest); i = blanks(rest, i) {
		start := i
		for i < len(rest) && !isBlank(rest[i]) {
			i++
		}
		tok := rest[start:i]
		key, val, hasVal := bytes.Cut(tok, []byte{'='})
		if len(key) > 0 && key[0] == '+' {
			name, err := unescape(key[1:])
			switch {
			case err != nil:
				return bad(string(key), tok, err)
			case name == "":
				return bad(string(key), tok, errDemandName)
			case !hasVal:
				return bad(name, tok, errDemandNoValue)
			}
			if _, dup := d.Named[name]; dup {
				return bad(name, tok, errDemandRepeated)
			}
			n, err := demandCount(val)
			if err != nil {
				return bad(name, tok, err)
			}
			if d.Named == nil {
				d.Named = map[string]int64{}
			}
			d.Named[name] = n
			continue
		}
		k := slices.Index(demandKeys[:], string(key))
		switch {
		case k < 0:
			return bad(string(key), tok, errDemandKey)
		case k == 5 && hasVal:
			return bad(string(key), tok, errDemandFlag)
		case k < 5 && !hasVal:
			return bad(string(key), tok, errDemandNoValue)
		case seen[k]:
			return bad(string(key), tok, errDemandRepeated)
		}
		seen[k] = true
		switch k {
		case 4:
			for m := range bytes.SplitSeq(val, []byte{'|'}) {
				s, err := unescape(m)
				if err != nil {
					return bad(string(key), tok, err)
				}
				d.GPUModels = append(d.GPUModels, s)
			}
		case 5:
			d.Exclusive = true
		default:
			n, err := demandCount(val)
			if err != nil {
				return bad(string(key), tok, err)
			}
			switch k {
			case 0:
				d.Nodes = n
			case 1:
				d.Cores = n
			case 2:
				d.Memory = n
			case 3:
				d.GPUs = n
			}
		}
	}
	if err := d.Validate(); err != nil {
		return nil, &ParseError{Value: clip(bytes.TrimSpace(rest)), Err: &demandError{strings.TrimPrefix(err.Error(), "swf: demand: "), ErrRange}}
	}
	return d, nil
}

// demandKeys are the fixed keys, in the order a Writer writes them.
var demandKeys = [...]string{"nodes", "cores", "mem", "gpus", "models", "excl"}

// demandCount reads a count in [0, 2^40]: decimal digits only.
func demandCount(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 19 {
		if len(b) > 19 && len(bytes.Trim(b, "0123456789")) == 0 {
			return 0, errDemandRange
		}
		return 0, errDemandNumber
	}
	v, i := digits(b, 0, 0)
	switch {
	case i != len(b):
		return 0, errDemandNumber
	case v > maxAmount:
		return 0, errDemandRange
	}
	return int64(v), nil
}

// appendDemand appends d's demand line (without a line end) to b.
func appendDemand(b []byte, d *Demand) []byte {
	b = append(b, demandMark...)
	for k, v := range []int64{d.Nodes, d.Cores, d.Memory, d.GPUs} {
		if v != 0 {
			b = append(b, ' ')
			b = append(b, demandKeys[k]...)
			b = append(b, '=')
			b = strconv.AppendInt(b, v, 10)
		}
	}
	if len(d.GPUModels) > 0 {
		b = append(b, " models="...)
		for i, m := range d.GPUModels {
			if i > 0 {
				b = append(b, '|')
			}
			b = escape(b, m)
		}
	}
	if d.Exclusive {
		b = append(b, " excl"...)
	}
	for _, name := range slices.Sorted(maps.Keys(d.Named)) {
		b = append(b, " +"...)
		b = escape(b, name)
		b = append(b, '=')
		b = strconv.AppendInt(b, d.Named[name], 10)
	}
	return b
}

// plain reports whether c is written as it is in a name or model: a
// printable ASCII byte other than the line's separators and '%'.
func plain(c byte) bool {
	return c > ' ' && c < 0x7f && c != '%' && c != '=' && c != '|'
}

const hexDigits = "0123456789ABCDEF"

func escape(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; plain(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return b
}

func unescape(b []byte) (string, error) {
	if bytes.IndexByte(b, '%') < 0 {
		return string(b), nil
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '%' {
			out = append(out, b[i])
			continue
		}
		if i+2 >= len(b) {
			return "", errDemandEscape
		}
		hi, lo := unhex(b[i+1]), unhex(b[i+2])
		if hi < 0 || lo < 0 {
			return "", errDemandEscape
		}
		out = append(out, byte(hi<<4|lo))
		i += 2
	}
	return string(out), nil
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
