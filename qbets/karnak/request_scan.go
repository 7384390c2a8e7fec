package karnak

import (
	"encoding/json"
	"strconv"
)

// scanRequest decodes the common form of a JSON prediction request
// without encoding/json, whose reflection and scanner were most of the
// cost of a cached prediction: one flat object whose keys are
// jsonRequest's, each at most once, with plain integers (no sign,
// fraction or exponent), strings of printable ASCII without escapes, and
// an array of such strings for locations. It reports false for anything
// else, and decodeJSON then uses encoding/json, which decides; where it
// reports true, j is what encoding/json would have decoded
// (FuzzScanRequest).
func scanRequest(b []byte, j *jsonRequest) bool {
	s := scanner{b: b}
	if !s.byte('{') {
		return false
	}
	seen := 0
	if s.byte('}') {
		return s.end()
	}
	for {
		key, ok := s.str()
		if !ok || !s.byte(':') {
			return false
		}
		var bit int
		switch string(key) {
		case "cores":
			bit = 1
			n, ok := s.int()
			if !ok {
				return false
			}
			j.Cores = &n
		case "wallTime", "within":
			bit = 2
			v, ok := s.intOrStr()
			if !ok {
				return false
			}
			if key[1] == 'i' {
				bit = 4
				j.Within = v
			} else {
				j.WallTime = v
			}
		case "confidence", "quantile":
			n, ok := s.int()
			if !ok || int64(int(n)) != n {
				return false
			}
			v := int(n)
			if key[0] == 'c' {
				bit = 8
				j.Confidence = &v
			} else {
				bit = 16
				j.Quantile = &v
			}
		case "locations":
			bit = 32
			if !s.byte('[') {
				return false
			}
			j.Locations = []wireLocation{} // as encoding/json: [] is an empty slice
			if !s.byte(']') {
				for {
					l, ok := s.str()
					if !ok || len(j.Locations) == maxLocations {
						// (At the location maxLocations+1, the
						// others undecoded: strictJSONValues
						// refuses the body.)
						return false
					}
					j.Locations = append(j.Locations, wireLocation(l))
					if s.byte(']') {
						break
					}
					if !s.byte(',') {
						return false
					}
				}
			}
		default:
			return false
		}
		if seen&bit != 0 {
			return false // repeated: encoding/json's rules decide
		}
		seen |= bit
		if s.byte('}') {
			return s.end()
		}
		if !s.byte(',') {
			return false
		}
	}
}

// scanner reads JSON tokens from b, skipping white space before each.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// byte consumes c if it comes next.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// str reads a string of printable ASCII without escapes; the result
// aliases b.
func (s *scanner) str() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	from := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[from : s.i-1], true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// int reads an unsigned integer of at most 18 digits without leading
// zeros (no overflow, the form JSON allows).
func (s *scanner) int() (int64, bool) {
	s.space()
	from := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	d := s.b[from:s.i]
	if len(d) == 0 || len(d) > 18 || len(d) > 1 && d[0] == '0' || s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	n, err := strconv.ParseInt(string(d), 10, 64)
	return n, err == nil
}

// intOrStr reads an integer or a string as the raw JSON text.
func (s *scanner) intOrStr() (json.RawMessage, bool) {
	s.space()
	from := s.i
	var ok bool
	if s.i < len(s.b) && s.b[s.i] == '"' {
		_, ok = s.str()
	} else {
		_, ok = s.int()
	}
	return json.RawMessage(s.b[from:s.i]), ok
}
