package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// repeatedKey finds a key given twice in one object of a spec: encoding/json
// keeps the last value silently, so {"loads": [0.5], …, "loads": [0.9]}
// swept 0.9 only. Keys are compared as encoding/json matches them to a
// field, ignoring case ("Loads" sets loads too); every object of a spec is
// a struct. b has been decoded into a Spec (ParseSpec), so its first value
// is valid JSON whose keys all name fields: an object holds few distinct
// keys (a repeat ends the walk), which a list compares well. Anything
// after the first value, or a byte out of place, ends the walk with nil:
// the decoder names what is malformed.
//
// One pass over the bytes, allocating only for the keys not seen before
// (keyCache) and the stack: the walk with encoding/json's Token boxed
// every value (a number, a string) and built a path and a map for every
// object, 0.84–3.14 s on specs of 1.8–7.2 MB, several times the decode
// itself (TestSpecRepeatedKeyAllocs counts it).
func repeatedKey(b []byte) error {
	type level struct {
		obj       bool
		expectKey bool   // an object's next string is a key
		n         int    // an array's index of the value now, an object's first key in keys
		key       string // an object's last key (the name of the value that starts now)
	}
	var (
		stack []level
		keys  []string // the folded keys of the open objects, each object's after the last's
		cache = keyCache{}
	)
	// where names the object on top (for the error), as its keys and
	// indices lead to it from the spec: "traces[1]", "predictor".
	where := func() string {
		path := ""
		for k := 1; k < len(stack); k++ {
			switch p := &stack[k-1]; {
			case !p.obj:
				path += fmt.Sprintf("[%d]", p.n)
			case path == "":
				path = p.key
			default:
				path += "." + p.key
			}
		}
		if path == "" {
			return "the spec"
		}
		return path
	}
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case ' ', '\t', '\n', '\r', ':':
		case '{':
			stack = append(stack, level{obj: true, expectKey: true, n: len(keys)})
		case '[':
			stack = append(stack, level{})
		case '}', ']':
			if len(stack) == 0 {
				return nil
			}
			if top := &stack[len(stack)-1]; top.obj {
				keys = keys[:top.n]
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return nil // the first value's end
			}
		case ',':
			if len(stack) == 0 {
				return nil
			}
			if top := &stack[len(stack)-1]; top.obj {
				top.expectKey = true
			} else {
				top.n++
			}
		case '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(b) {
				return nil
			}
			if len(stack) > 0 && stack[len(stack)-1].obj && stack[len(stack)-1].expectKey {
				top := &stack[len(stack)-1]
				key, folded := cache.get(b[i : j+1])
				for _, k := range keys[top.n:] {
					if k == folded {
						// (%+q: a key in other letters that fold alike,
						// "loadſ", is shown as such)
						return fmt.Errorf("spec: key %+q given twice in %s (the last would win)", key, where())
					}
				}
				keys = append(keys, folded)
				top.key, top.expectKey = key, false
			}
			i = j
		default: // a number, true, false or null: to its end
			for i+1 < len(b) && !strings.ContainsRune(" \t\n\r,]}", rune(b[i+1])) {
				i++
			}
		}
	}
	return nil
}

// keyCache maps a key as the spec spells it (quoted, escapes and all) to
// the key and its folded form, so that a key seen before costs no
// allocation: a spec repeats a few keys over and over.
type keyCache map[string][2]string

// get returns the key that quoted spells and its foldKey.
func (c keyCache) get(quoted []byte) (key, folded string) {
	if v, ok := c[string(quoted)]; ok { // (no allocation for the lookup)
		return v[0], v[1]
	}
	key = string(quoted[1 : len(quoted)-1])
	if bytes.IndexByte(quoted, '\\') >= 0 || !utf8.Valid(quoted) {
		var k string // (not &key: the result would move to the heap at every call)
		if err := json.Unmarshal(quoted, &k); err == nil {
			key = k
		}
	}
	folded = foldKey(key)
	c[string(quoted)] = [2]string{key, folded}
	return key, folded
}

// foldKey is key as encoding/json matches it to a field: every letter
// folded to the least of its case-fold orbit (unicode.SimpleFold), so
// that "loadſ" (long s) and "\u212aill" (Kelvin sign) are "loads" and
// "kill" as the decoder sees them. strings.ToLower left ſ alone: a
// second "loadſ" replaced loads silently.
func foldKey(key string) string {
	return strings.Map(func(r rune) rune {
		for {
			f := unicode.SimpleFold(r)
			if f <= r {
				return f
			}
			r = f
		}
	}, key)
}
