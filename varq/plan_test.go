package varq

import "testing"

func TestSpan(t *testing.T) {
	for s, want := range map[int64]string{0: "0s", 45: "45s", 60: "1m", 125: "2m5s", 3600: "1h", 9000: "2h30m", 3605: "1h0m5s", 1 << 40: "305419896h36m16s"} {
		if got := span(s); got != want {
			t.Errorf("span(%d) = %q, want %q", s, got, want)
		}
	}
}
