package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// repeatedKey finds a key given twice in one object of a spec: encoding/json
// keeps the last value silently, so {"loads": [0.5], …, "loads": [0.9]}
// swept 0.9 only. Keys are compared as encoding/json matches them to a
// field, ignoring case ("Loads" sets loads too); every object of a spec is
// a struct. Malformed JSON is left to the decoder, which names it. A spec
// is small, so a token walk (slow per byte, plain) is enough.
func repeatedKey(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	type level struct {
		path   string          // "traces[1]", "" at the top
		keys   map[string]bool // nil: an array
		n      int             // an array's next index
		expect bool            // an object's next string is a key
	}
	var stack []level
	// name is the path of the value that starts now, in the open object or
	// array on top, for the error's message.
	name := func(key string) string {
		if len(stack) == 0 {
			return ""
		}
		top := &stack[len(stack)-1]
		if top.keys == nil {
			top.n++
			return fmt.Sprintf("%s[%d]", top.path, top.n-1)
		}
		if top.path == "" {
			return key
		}
		return top.path + "." + key
	}
	key := "" // the key whose value comes next
	for {
		t, err := dec.Token()
		if err != nil {
			return nil // the end, or malformed: the decoder that follows says so
		}
		var top *level
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if s, ok := t.(string); ok && top != nil && top.keys != nil && top.expect {
			folded := foldKey(s)
			if top.keys[folded] {
				where := "the spec"
				if top.path != "" {
					where = top.path
				}
				// (%+q: a key in other letters that fold alike,
				// "loadſ", is shown as such)
				return fmt.Errorf("spec: key %+q given twice in %s (the last would win)", s, where)
			}
			top.keys[folded] = true
			top.expect = false
			key = s
			continue
		}
		switch t {
		case json.Delim('{'):
			stack = append(stack, level{path: name(key), keys: map[string]bool{}, expect: true})
		case json.Delim('['):
			stack = append(stack, level{path: name(key)})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].keys != nil {
				stack[len(stack)-1].expect = true
			}
		default: // a scalar value
			if top != nil && top.keys == nil {
				top.n++
			} else if top != nil {
				top.expect = true
			}
		}
	}
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
