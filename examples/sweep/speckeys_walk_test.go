package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// repeatedKey found repeats with encoding/json's Token walk, which boxed
// every value and built a path and a map for every object: 0.84–3.14 s
// on specs of 1.8–7.2 MB. Its allocations now do not grow with the spec
// (the keys' spellings are cached, the stack is reused): a spec of 100
// times the traces and loads allocates no more than the small one (34
// times each); the Token walk allocated 54,849 and 5,499,874 times
// (counted, not timed).
func TestSpecRepeatedKeyAllocs(t *testing.T) {
	spec := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"name":"x","policies":["EASY"],"traces":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"t%d","File":"f","machine":8}`, i)
		}
		b.WriteString(`],"loads":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("0.5")
		}
		b.WriteString(`],"predictor":{"window":[1,"3-5"],"type":["all"]}}`)
		return b.Bytes()
	}
	small, large := spec(1000), spec(100000)
	for _, b := range [][]byte{small, large} {
		if err := repeatedKey(b); err != nil {
			t.Fatal(err)
		}
	}
	a1 := testing.AllocsPerRun(3, func() { _ = repeatedKey(small) })
	a2 := testing.AllocsPerRun(3, func() { _ = repeatedKey(large) })
	if a2 > a1 || a2 > 64 {
		t.Errorf("%.0f allocations on %d bytes, %.0f on %d; want no more on the large spec, at most 64", a1, len(small), a2, len(large))
	}
}

// The one-pass walk finds what the Token walk found, with the same
// message, on random JSON with keys that repeat (in other cases, escaped,
// in letters that fold alike) at random depths, and on the test specs.
func TestSpecRepeatedKeyAsTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	found := 0
	for range 3000 {
		b := randomJSON(rng, 0)
		if !json.Valid([]byte(b)) {
			t.Fatalf("generated invalid JSON: %s", b)
		}
		got, want := repeatedKey([]byte(b)), repeatedKeyTokens([]byte(b))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s:\n got %v\nwant %v", b, got, want)
		}
		if got != nil {
			found++
		}
	}
	if found < 300 || found > 2700 {
		t.Errorf("%d of 3000 with a repeat: the generator should give both kinds", found)
	}
}

// FuzzRepeatedKey: on any valid JSON the two walks agree (the sweep's
// ParseSpec calls repeatedKey only on a spec it decoded).
func FuzzRepeatedKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"A":2}`, `{"x":[{"k":1},{"k":2,"K":3}]}`, `{"lo\u0061ds":1,"loads":2}`, `[{"a":{"b":1,"b":2}}]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		if got, want := repeatedKey(b), repeatedKeyTokens(b); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q:\n got %v\nwant %v", b, got, want)
		}
	})
}

// randomJSON is a value of depth at most 4: objects whose keys come from
// a few, in random spellings, arrays, and scalars.
func randomJSON(rng *rand.Rand, depth int) string {
	keys := []string{"loads", "Loads", "lo\\u0061ds", "loadſ", "kill", "Kill", "k", "window", "traces"}
	switch k := rng.IntN(6); {
	case depth < 4 && k < 2:
		var parts []string
		for range rng.IntN(4) {
			key := keys[rng.IntN(len(keys))]
			parts = append(parts, fmt.Sprintf(" \"%s\" : %s", key, randomJSON(rng, depth+1)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case depth < 4 && k < 4:
		var parts []string
		for range rng.IntN(4) {
			parts = append(parts, randomJSON(rng, depth+1))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return []string{`1`, `-2.5e3`, `"s"`, `"a\"b"`, `"}]"`, `true`, `null`, `"loads"`}[rng.IntN(8)]
}

// repeatedKeyTokens is repeatedKey as it was, walking encoding/json's
// tokens: the reference the one-pass walk is checked against.
func repeatedKeyTokens(b []byte) error {
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
