package karnak

import "testing"

// The cache answers only for the state it was filled in, keeps only each
// system's current state, and ignores predictions computed for a state
// already left behind.
func TestPredCache(t *testing.T) {
	var c predCache
	a, b := &system{}, &system{}
	r := reqKey{queue: "q", cores: 4}
	c.put(predKey{a, 1, 10, r}, Prediction{Cores: 1})
	c.put(predKey{b, 7, 10, r}, Prediction{Cores: 2})
	if p, ok := c.get(predKey{a, 1, 10, r}); !ok || p.Cores != 1 {
		t.Fatalf("same state: %v %v", p, ok)
	}
	for _, k := range []predKey{{a, 2, 10, r}, {a, 1, 11, r}, {a, 1, 10, reqKey{queue: "q", cores: 5}}} {
		if _, ok := c.get(k); ok {
			t.Errorf("hit for another state or request: %+v", k)
		}
	}
	c.put(predKey{a, 2, 10, r}, Prediction{Cores: 3}) // newer state: the old one is dropped
	if len(c.m[a].m) != 1 || c.m[a].gen != 2 {
		t.Errorf("system a keeps %d entries of gen %d, want 1 of gen 2", len(c.m[a].m), c.m[a].gen)
	}
	c.put(predKey{a, 1, 12, r}, Prediction{Cores: 4}) // late, for an older state: ignored
	if p, ok := c.get(predKey{a, 2, 10, r}); !ok || p.Cores != 3 {
		t.Errorf("current state lost: %v %v", p, ok)
	}
	if p, ok := c.get(predKey{b, 7, 10, r}); !ok || p.Cores != 2 {
		t.Errorf("other system's state lost: %v %v", p, ok)
	}
	if c.hits != 3 || c.misses != 3 {
		t.Errorf("hits %d misses %d, want 3 and 3", c.hits, c.misses)
	}
}
