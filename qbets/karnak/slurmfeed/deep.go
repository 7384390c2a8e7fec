package slurmfeed

import "encoding/json"

// validDeep reports whether b is one JSON value, as json.Valid would
// but for its nesting limit: the syntax around brackets is checked here,
// each string, number and literal by json.Valid. Memory is one bit per
// level, so a hostile output of brackets costs an eighth of its length.
func validDeep(b []byte) bool {
	const (
		value        = iota // a value must come
		valueOrClose        // after '[': a value or ']'
		key                 // after ',' in an object: a key
		keyOrClose          // after '{': a key or '}'
		colon               // after a key
		after               // after a value: ',', the closing bracket, or the end
	)
	var objects []uint64 // bit d set: the container at depth d is an object
	depth := 0
	isObject := func() bool { return objects[(depth-1)/64]&(1<<((depth-1)%64)) != 0 }
	state := value
	for i := skipBlanks(b, 0); ; i = skipBlanks(b, i) {
		if i >= len(b) {
			return state == after && depth == 0
		}
		c := b[i]
		switch state {
		case after:
			switch {
			case depth == 0:
				return false // text after the value
			case c == ',' && isObject():
				state = key
			case c == ',':
				state = value
			case c == '}' && isObject(), c == ']' && !isObject():
				depth--
			default:
				return false
			}
			i++
			continue
		case colon:
			if c != ':' {
				return false
			}
			state, i = value, i+1
			continue
		case key, keyOrClose:
			if c == '}' && state == keyOrClose {
				depth--
				state, i = after, i+1
				continue
			}
			if c != '"' {
				return false
			}
			e, err := scanString(b, i)
			if err != nil || !json.Valid(b[i:e]) {
				return false
			}
			state, i = colon, e
			continue
		}
		// value or valueOrClose
		switch {
		case c == ']' && state == valueOrClose:
			depth--
			state, i = after, i+1
		case c == '[' || c == '{':
			if depth%64 == 0 && depth/64 == len(objects) {
				objects = append(objects, 0)
			}
			w, bit := depth/64, uint64(1)<<(depth%64)
			if objects[w] &^= bit; c == '{' {
				objects[w] |= bit
				state = keyOrClose
			} else {
				state = valueOrClose
			}
			depth++
			i++
		case c == '"':
			e, err := scanString(b, i)
			if err != nil || !json.Valid(b[i:e]) {
				return false
			}
			state, i = after, e
		default: // a number or a literal: up to the next delimiter
			e := i
			for e < len(b) && !delim(b[e]) {
				e++
			}
			if !json.Valid(b[i:e]) {
				return false
			}
			state, i = after, e
		}
	}
}
