package slurmfeed

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// maxDepth is encoding/json's nesting limit: a value nested deeper
// cannot be decoded, and a whole output holding one could not be read at
// all, so one such record failed the poll and every other job was lost
// for it. splitOutput finds the records without decoding them, and a
// record too deep is a bad record, counted with its reason.
const maxDepth = 10000

var errNotJSON = errors.New("not a JSON value")

// scanValue finds the JSON value that starts at b[i] (after blanks): its
// start and end, and how deeply it nests (1 for an object of numbers).
// A value within maxDepth is not checked here, only delimited (brackets
// and strings matched): encoding/json decodes, hence checks, it. One
// nested deeper, which encoding/json refuses for its depth alone, is
// checked here, all of it (validDeep), so that an output is read only
// when it would be JSON but for its depth. Time is linear in the
// value's length, memory at most maxDepth bytes whatever the depth.
func scanValue(b []byte, i int) (start, end, depth int, err error) {
	i = skipBlanks(b, i)
	if i >= len(b) {
		return 0, 0, 0, errNotJSON
	}
	start = i
	switch b[i] {
	case '"':
		end, err = scanString(b, i)
		return start, end, 0, err
	case '{', '[':
	case '}', ']', ',', ':':
		return 0, 0, 0, errNotJSON
	default: // a number or a literal: up to the next delimiter
		for i < len(b) && !delim(b[i]) {
			i++
		}
		return start, i, 0, nil
	}
	var kinds []byte // the open brackets, up to maxDepth
	open := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			e, err := scanString(b, i)
			if err != nil {
				return 0, 0, 0, err
			}
			i = e - 1
		case '{', '[':
			if open++; open <= maxDepth {
				kinds = append(kinds, c)
			}
			depth = max(depth, open)
		case '}', ']':
			if open <= maxDepth && kinds[open-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
				return 0, 0, 0, errNotJSON
			}
			if open <= maxDepth {
				kinds = kinds[:open-1]
			}
			if open--; open == 0 {
				if depth > maxDepth && !validDeep(b[start:i+1]) {
					return 0, 0, 0, errNotJSON
				}
				return start, i + 1, depth, nil
			}
		}
	}
	return 0, 0, 0, errNotJSON // cut short
}

// scanString finds the end of the string that starts at b[i] (a '"').
func scanString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errNotJSON
}

func delim(c byte) bool {
	return c == ',' || c == ']' || c == '}' || c == ':' || c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// members calls f with each member of the JSON object b (its key
// unquoted, its value's text and depth), in order, until f says stop.
func members(b []byte, f func(key string, v []byte, depth int) bool) error {
	err := sequence(b, '{', func(i int) (int, error) {
		ks, ke, _, err := scanValue(b, i)
		if err != nil || b[ks] != '"' {
			return 0, errNotJSON
		}
		var key string
		if json.Unmarshal(b[ks:ke], &key) != nil {
			return 0, errNotJSON
		}
		i = skipBlanks(b, ke)
		if i >= len(b) || b[i] != ':' {
			return 0, errNotJSON
		}
		vs, ve, d, err := scanValue(b, i+1)
		if err != nil {
			return 0, err
		}
		if !f(key, b[vs:ve], d) {
			return 0, errStop
		}
		return ve, nil
	})
	if err == errStop {
		return nil
	}
	return err
}

var errStop = errors.New("stop")

// elements calls f with each element of the JSON list b and its depth.
func elements(b []byte, f func(v []byte, depth int)) error {
	return sequence(b, '[', func(i int) (int, error) {
		vs, ve, d, err := scanValue(b, i)
		if err != nil {
			return 0, err
		}
		f(b[vs:ve], d)
		return ve, nil
	})
}

// sequence walks the object or list b (open: '{' or '['), item reading
// each of its members or elements, at i, and saying where it ends; after
// the closing bracket there may be blanks only.
func sequence(b []byte, open byte, item func(i int) (end int, err error)) error {
	closing := open + 2 // '{'+2 == '}', '['+2 == ']'
	i := skipBlanks(b, 0)
	if i >= len(b) || b[i] != open {
		return errNotJSON
	}
	i = skipBlanks(b, i+1)
	if i < len(b) && b[i] == closing {
		return trailing(b, i+1)
	}
	for {
		end, err := item(i)
		if err != nil {
			return err
		}
		i = skipBlanks(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i++
		case i < len(b) && b[i] == closing:
			return trailing(b, i+1)
		default:
			return errNotJSON
		}
	}
}

// trailing: nothing but blanks after the value that ends at i.
func trailing(b []byte, i int) error {
	if skipBlanks(b, i) != len(b) {
		return errNotJSON
	}
	return nil
}

// splitOutput reads a --json output's two members, its errors (decoded
// into errs) and its job records (each one's text, undecoded), as
// encoding/json would (a key matched without regard to case, every
// member of a name read in turn, the last kept), without decoding the
// records: one nested beyond maxDepth is then one bad record, not an
// output that cannot be read.
func splitOutput[E any](out []byte) (errs E, recs []json.RawMessage, err error) {
	var errsTexts, jobsTexts [][]byte
	invalid := false
	err = members(out, func(key string, v []byte, depth int) bool {
		switch {
		case strings.EqualFold(key, "jobs"):
			jobsTexts = append(jobsTexts, v) // (its records are checked below)
		case depth <= maxDepth && !json.Valid(v):
			invalid = true // (one deeper was checked by scanValue)
			return false
		case strings.EqualFold(key, "errors"):
			errsTexts = append(errsTexts, v)
		}
		return true
	})
	if err != nil || invalid {
		return errs, nil, errors.New("output is not a JSON object")
	}
	for _, t := range errsTexts {
		if err := json.Unmarshal(t, &errs); err != nil {
			return errs, nil, err
		}
	}
	for i, t := range jobsTexts {
		recs = nil
		if string(t) == "null" {
			continue
		}
		last := i == len(jobsTexts)-1 // (its records are decoded, hence checked, by readOutput)
		err = elements(t, func(v []byte, depth int) {
			if !last && depth <= maxDepth && !json.Valid(v) { // (deeper: checked by scanValue)
				invalid = true
			}
			recs = append(recs, v)
		})
		if err != nil || invalid {
			return errs, nil, errors.New("jobs: not a list")
		}
	}
	return errs, recs, nil
}

// tooDeep says what of a record nested beyond maxDepth is too deep, for
// its reason: the first of its members that is ("a record" when it is no
// object), and the rest of it, what can be read, as an object of its
// other members (nil when it is no object), from which its job id is
// read. A record whose other members are not JSON is an error, as
// encoding/json would find it (what is too deep was checked by
// scanValue).
func tooDeep(raw []byte) (what string, rest json.RawMessage, err error) {
	if len(raw) == 0 || raw[0] != '{' {
		return "a record", nil, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	invalid := false
	err = members(raw, func(key string, v []byte, depth int) bool {
		if depth >= maxDepth { // the record's own level is one more
			if what == "" {
				what = key
			}
			return true
		}
		if !json.Valid(v) {
			invalid = true
			return false
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key) // (a string: no error)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		return true
	})
	if err != nil || invalid {
		return "", nil, errors.New("a record nested deeper than the limit is not JSON")
	}
	if what == "" { // (not reached: a member of the record is too deep)
		return "a record", nil, nil
	}
	b.WriteByte('}')
	return what, b.Bytes(), nil
}
