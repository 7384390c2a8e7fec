package plugin

import "testing"

type fn func()

func (fn) Call() {}

type caller interface{ Call() }

type ptr struct{}

func (*ptr) Call() {}

func TestMissing(t *testing.T) {
	var nilFn fn
	var nilPtr *ptr
	for _, c := range []struct {
		x    caller
		want bool
	}{{nil, true}, {nilFn, true}, {nilPtr, true}, {fn(func() {}), false}, {&ptr{}, false}} {
		if got := Missing(c.x); got != c.want {
			t.Errorf("Missing(%#v) = %v, want %v", c.x, got, c.want)
		}
	}
}
