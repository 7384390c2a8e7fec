package karnak

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"
)

// strictJSON rejects what encoding/json would read silently otherwise:
// bytes that are not UTF-8 and escapes of lone surrogates (decoded as
// U+FFFD), and an object with a key given twice (the last would win).
// An event or a request that says two things is refused, not guessed.
// It costs one pass of json.Decoder.Token over the body, bounded as the
// body is.
func strictJSON(body []byte) error {
	if !utf8.Valid(body) {
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
	if err := loneSurrogate(body); err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	type obj struct {
		keys   map[string]bool
		expect bool // the next string token is a key
	}
	var stack []*obj
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // malformed: the decoder that follows names it
		}
		var top *obj
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				if top != nil {
					top.expect = true // the object is a value
				}
				stack = append(stack, &obj{keys: map[string]bool{}, expect: true})
				continue
			case '[':
				if top != nil {
					top.expect = true
				}
				stack = append(stack, nil)
				continue
			case '}', ']':
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1] != nil {
					stack[len(stack)-1].expect = true
				}
				continue
			}
		case string:
			if top != nil && top.expect {
				if top.keys[t] {
					return fmt.Errorf("body: key %q given twice in one object", clip(t))
				}
				top.keys[t] = true
				top.expect = false
				continue
			}
		}
		if top != nil {
			top.expect = true // a value was read: a key comes next
		}
	}
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
		return mt, fmt.Errorf("charset %q, want utf-8", cs)
	}
	return mt, nil
}
