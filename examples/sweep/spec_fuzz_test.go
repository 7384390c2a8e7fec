package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseSpec: any bytes parse or fail with an error, never a panic;
// a spec that parses expands to exactly its counted runs (bounded, so a
// short spec cannot name billions), every run builds a configuration,
// and normalizing is idempotent (the normalized spec, written and read
// again, has the same hash).
func FuzzParseSpec(f *testing.F) {
	files, _ := filepath.Glob("specs/*.json")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"]}`,
		`{"name":"x","traces":[{"name":"a","file":"a.swf","machine":64}],"policies":["EASY++","x2+"],"loads":[0.7,0.9],"seeds":[0,1],
		  "predictor":{"window":[1,"3-5"],"type":["all","immediate"],"metric":["avg","median"],"fallback":["relative"],
		  "partial":[true],"propagate":[false,true],"correction":["gradual","none"]},"options":{"compat":["pyss"],"kill":[true]}}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY++"],"predictor":{"window":["1-1000","1-1000","1-1000"]},"seeds":[1,2,3,4,5,6,7,8,9,10]}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"]} {}`,
		`{"name":"../x","traces":[],"policies":[]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSpec(b)
		if err != nil {
			return
		}
		n := s.runs()
		if n > maxRuns {
			t.Fatalf("a spec of %d runs parsed", n)
		}
		runs := s.Expand()
		if len(runs) != n {
			t.Fatalf("Expand lists %d runs, counted %d", len(runs), n)
		}
		for i, r := range runs {
			if r.N != i {
				t.Fatalf("run %d numbered %d", i, r.N)
			}
			if i < 50 {
				if _, err := r.Params.Config(max(r.Params.Machine, 1)); err != nil {
					t.Fatalf("run %d: %v", i, err)
				}
			}
		}
		again, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := ParseSpec(again)
		if err != nil {
			t.Fatalf("the normalized spec does not parse: %v\n%s", err, again)
		}
		if s2.Hash() != s.Hash() {
			t.Fatalf("hash %s, normalized again %s", s.Hash(), s2.Hash())
		}
	})
}

// A short spec whose axes multiply beyond maxRuns is refused at parse
// time (it used to parse, and Expand then built millions of runs).
// (Each value once: an axis that repeats one is refused as such,
// TestSpecAxisValueTwice.)
func TestSpecRunLimit(t *testing.T) {
	seeds := "1"
	for i := 2; i <= 2000; i++ {
		seeds += "," + strconv.Itoa(i)
	}
	spec := `{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY++"],"predictor":{"window":["1-1000"]},"seeds":[` + seeds + `]}`
	if s, err := ParseSpec([]byte(spec)); err == nil || !strings.Contains(err.Error(), "above the limit") {
		t.Fatalf("a spec of 2,000,000 runs: %v (runs %d), want refused above the limit", err, s.runs())
	}
}

// A value given twice on an axis is refused, naming both places: it
// made each of its runs twice, the same parameters simulated again and
// the report's rows doubled (seeds [0,0]: 2 runs, both "seed=0"; a
// policy by two spellings, EASY and easy, alike). The shipped specs
// repeat none.
func TestSpecAxisValueTwice(t *testing.T) {
	const head = `{"name":"x","traces":[{"log":"KTH"}],`
	for _, c := range []struct{ body, want string }{
		{`"policies":["EASY"],"seeds":[0,0]}`, "seeds[1]: 0, as seeds[0]"},
		{`"policies":["EASY","easy"]}`, "policies[1]: EASY, as policies[0]"},
		{`"policies":["EASY"],"loads":[0.5,0.7,0.5]}`, "loads[2]: 0.5, as loads[0]"},
		{`"policies":["EASY"],"options":{"kill":[true,true]}}`, "options.kill[1]: true, as options.kill[0]"},
		{`"policies":["EASY"],"options":{"compat":["pyss","PySS"]}}`, "options.compat[1]: pyss, as options.compat[0]"},
		{`"policies":["EASY++"],"predictor":{"window":["1-3",2]}}`, "predictor.window[3]: 2, as predictor.window[1]"},
		{`"policies":["EASY++"],"predictor":{"metric":["avg","avg"]}}`, "predictor.metric[1]: avg, as predictor.metric[0]"},
	} {
		if _, err := ParseSpec([]byte(head + c.body)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
	files, _ := filepath.Glob("specs/*.json")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseSpec(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
