package progress

import (
	"strings"
	"testing"
)

// TestQuiet: a bar is silent for its first second unless $BATCHQ_PROGRESS_QUIET
// shortens that (the commands' tests), and Done erases what it drew.
func TestQuiet(t *testing.T) {
	for _, c := range []struct {
		env   string
		drawn bool
	}{{"", false}, {"not a duration", false}, {"0s", true}} {
		t.Setenv(quietEnv, c.env)
		var b strings.Builder
		p := New(&b, true, 2)
		p.Stage("read", 1)
		if got := strings.Contains(b.String(), "\r[") && strings.Contains(b.String(), "read"); got != c.drawn {
			t.Errorf("%s=%q: drew %q, want drawn %v", quietEnv, c.env, b.String(), c.drawn)
		}
		p.Done()
		if c.drawn && !strings.HasSuffix(b.String(), "\r"+strings.Repeat(" ", 62)+"\r") {
			t.Errorf("%s=%q: Done left %q", quietEnv, c.env, b.String())
		}
	}
	t.Setenv(quietEnv, "0s")
	var b strings.Builder
	p := New(&b, false, 1)
	p.Stage("x", 1)
	p.Done()
	if b.Len() != 0 {
		t.Errorf("a disabled bar wrote %q", b.String())
	}
}

// TestSetWithoutStage: a run that never names a stage still moves the bar
// (examples/forecast once drew 0% for a whole run this way).
func TestSetWithoutStage(t *testing.T) {
	t.Setenv(quietEnv, "0s")
	var b strings.Builder
	p := New(&b, true, 4)
	p.Set(0.5)
	if !strings.Contains(b.String(), " 50% ") {
		t.Errorf("Set(0.5) before any Stage drew %q, want 50%%", b.String())
	}
	p.Done()
}
