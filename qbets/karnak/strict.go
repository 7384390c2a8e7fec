package karnak

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"
)

// strictJSON rejects what encoding/json would read silently otherwise:
// bytes that are not UTF-8 and escapes of lone surrogates (decoded as
// U+FFFD), and an object with a key given twice (the last would win).
// An event or a request that says two things is refused, not guessed.
// It also refuses arrays and objects nested deeper than maxDepth and
// objects of more than maxKeys keys, which no event or request has. It
// costs three linear passes over the body, no decoding, and memory
// bounded by maxDepth·maxKeys, whatever the body.
func strictJSON(body []byte) error { return strictJSONValues(body, arrayBound{}) }

// strictJSONValues is strictJSON that also refuses (errLongArray) the
// array bound names when it has more than bound.n values (0: any
// number), before decoding: an event batch's count (maxEvents) was
// checked once decoded, and 4 MiB of "{}," decoded 1.4 million events,
// 1.1 GB allocated, before the 413 (TestEventsCountedFirst); and a
// prediction request's locations (maxLocations) were checked once
// decoded, 2.2 MB allocated for 64 KiB of "q@s" (TestLocationsCost).
func strictJSONValues(body []byte, bound arrayBound) error {
	if err := validUTF8(body); err != nil {
		return err
	}
	if err := loneSurrogate(body); err != nil {
		return err
	}
	return scanKeys(body, bound)
}

// arrayBound names the array strictJSONValues bounds, at most n values:
// the value of key in the body's object (a batch's "events", a
// request's "locations"), and, with top, the body itself when it is an
// array (a batch's events).
type arrayBound struct {
	key string
	top bool
	n   int
}

// outer reports whether the innermost of stack is the array bound
// names: the body's array (with bound.top), or its object's bound.key
// (the last key read, matched as encoding/json matches it). An array
// elsewhere, in an event, is no count of events (it was a 413 saying
// "more than 20000 in one batch" for one event); the decoder refuses
// it, naming its field, and skips it without storing it
// (TestEventsCountedOnlyEvents).
func (bound arrayBound) outer(stack []keySet) bool {
	switch o := &stack[0]; len(stack) {
	case 1:
		return bound.top
	case 2:
		return !o.array && len(o.keys) > 0 && bytes.EqualFold(o.keys[len(o.keys)-1], []byte(bound.key))
	}
	return false
}

// errLongArray is the cause of a body refused for an array of more
// values than strictJSONValues takes.
var errLongArray = errors.New("body: an array of too many values")

// validUTF8 says which byte of body first is not UTF-8, if one is.
func validUTF8(body []byte) error {
	if utf8.Valid(body) {
		return nil
	}
	i := 0
	for i < len(body) {
		r, n := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	return fmt.Errorf("body: not valid UTF-8 (byte %d)", i)
}

// duplicateKey finds a key given twice in one object of body, by a scan
// of its bytes that keeps each open object's keys (a few, compared
// linearly): BenchmarkDuplicateKey, a 2.5 MB batch of
// 20,000 events, took 21 ms on a loaded 2-core machine, where
// BenchmarkDuplicateKeyByToken, json.Decoder.Token, took 0.66 s. Beyond
// its bounds (maxDepth, maxKeys) it judges nothing else: malformed JSON is left to the decoder that
// follows, which names it. Keys are compared
// as written, unless one has an escape, which is decoded first ("\u0061"
// is "a").
func duplicateKey(b []byte) error { return scanKeys(b, arrayBound{}) }

// scanKeys is duplicateKey that also bounds an array's values
// (strictJSONValues).
func scanKeys(b []byte, bound arrayBound) error {
	// Nesting is bounded first: the stack below held one keySet (48
	// bytes) per open bracket, and a body of 4 MiB of "[" allocated
	// 985 MB (13 MB for an anonymous prediction request of 64 KiB)
	// before encoding/json refused it at a depth of 10,000; and keys
	// per object, which took a map entry and a copy each (30 MB for a
	// 4 MiB object of short keys).
	// The open objects and arrays, innermost last; an entry popped keeps
	// its keys' storage for the next object at its depth, so that a batch
	// of many small objects allocates once per depth, not per object.
	var stack []keySet
	top := func() *keySet {
		if len(stack) == 0 || stack[len(stack)-1].array {
			return nil
		}
		return &stack[len(stack)-1]
	}
	push := func(array bool) {
		if len(stack) < cap(stack) {
			stack = stack[:len(stack)+1]
			o := &stack[len(stack)-1]
			*o = keySet{keys: o.keys[:0], array: array, expect: !array}
			return
		}
		stack = append(stack, keySet{array: array, expect: !array})
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			if len(stack) == maxDepth {
				return fmt.Errorf("body: arrays and objects nested deeper than %d", maxDepth)
			}
			push(b[i] == '[')
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) == 0 {
				break
			}
			if o := &stack[len(stack)-1]; !o.array {
				o.expect = true
			} else if o.values++; bound.n > 0 && o.values >= bound.n && bound.outer(stack) {
				return errLongArray
			}
		case '"':
			j := i + 1
			esc := false
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					esc = true
					j++
				}
				j++
			}
			if j >= len(b) {
				return nil // unterminated: the decoder says so
			}
			o := top()
			if o != nil && o.expect {
				o.expect = false
				key := b[i+1 : j]
				if esc {
					var k string
					if err := json.Unmarshal(b[i:j+1], &k); err != nil {
						return nil
					}
					key = []byte(k)
				}
				if o.has(key) {
					return fmt.Errorf("body: key %q given twice in one object", clip(string(key)))
				}
				if len(o.keys) > maxKeys {
					return fmt.Errorf("body: an object with more than %d keys", maxKeys)
				}
			}
			i = j
		}
	}
	return nil
}

// maxDepth bounds the nesting of a JSON body: an event batch is 3 deep
// ({"events": [{...}]}), a prediction request 2. maxKeys bounds an
// object's keys: an event has 13 fields, a request 8.
const (
	maxDepth = 32
	maxKeys  = 64
)

// keySet is the keys of one open object (duplicateKey).
type keySet struct {
	keys   [][]byte // into the body, not copied; at most maxKeys+1
	array  bool     // an array, which has no keys
	expect bool     // the next string is a key
	values int      // of an array: its commas so far
}

// has reports whether key was seen in o, and notes it: a linear scan of
// at most maxKeys. Keys are compared case-insensitively, as encoding/json
// matches them to fields: "Cores" after "cores" set the same field, the
// last winning. (bytes.EqualFold folds a little more than encoding/json,
// "K" and the Kelvin sign alike too; such a pair is never two known
// fields, and a field not known is refused by the decoder anyway.)
func (o *keySet) has(key []byte) bool {
	for _, k := range o.keys {
		if bytes.EqualFold(k, key) {
			return true
		}
	}
	o.keys = append(o.keys, key)
	return false
}

// loneSurrogate finds a \uD800–\uDFFF escape that is not a high one
// followed by a low one: encoding/json decodes it as U+FFFD.
func loneSurrogate(b []byte) error {
	for i := 0; i+5 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] != 'u' {
			i++ // an escaped character, maybe a backslash
			continue
		}
		r, ok := hex4(b[i+2:])
		if !ok || r < 0xD800 || r > 0xDFFF {
			i += 5
			continue
		}
		if r < 0xDC00 && i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
			if lo, ok := hex4(b[i+8:]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				i += 11
				continue
			}
		}
		return fmt.Errorf("body: %s is a lone UTF-16 surrogate, not a character", b[i:i+6])
	}
	return nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// mediaType parses a Content-Type: the media type, and an error when a
// charset other than UTF-8 is named (the service reads every body as
// UTF-8, so another one would be misread).
func mediaType(ct string) (string, error) {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", err
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return mt, fmt.Errorf("charset %q, want utf-8", clip(cs))
	}
	return mt, nil
}

// trailingData says whether anything but JSON's white space follows the
// value d decoded from body. d.More cannot say it: it is false before a
// '}' or ']', so a body with a closing brace too many was taken.
func trailingData(body []byte, d *json.Decoder) bool {
	return len(bytes.TrimLeft(body[d.InputOffset():], " \t\r\n")) > 0
}
