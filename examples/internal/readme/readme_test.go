package readme

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestRegionReplaceCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	doc := "# T\n\n<!-- generated:t1 -->\n| a |\n<!-- /generated:t1 -->\n\ntext\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	got, err := Region(b, "t1")
	if err != nil || string(got) != "| a |\n" {
		t.Fatalf("Region = %q, %v", got, err)
	}
	if _, err := Region(b, "t2"); err == nil {
		t.Fatal("missing region: no error")
	}
	if err := Replace(path, "t1", []byte("| b |\n| c |\n")); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	want := "# T\n\n<!-- generated:t1 -->\n| b |\n| c |\n<!-- /generated:t1 -->\n\ntext\n"
	if string(b) != want {
		t.Fatalf("after Replace:\n%s", b)
	}
	Check(t, path, "t1", []byte("| b |\n| c |\n"))
	CheckDigest(t, path, "t1", Digest([]byte("| b |\n| c |\n")))

	ft := &fakeT{TB: t}
	Check(ft, path, "t1", []byte("| b |\n| d |\n"))
	if !ft.failed {
		t.Error("Check passed on a differing region")
	}
	ft = &fakeT{TB: t}
	CheckDigest(ft, path, "t1", Digest([]byte("x")))
	if !ft.failed {
		t.Error("CheckDigest passed on a wrong digest")
	}
}

func TestDuplicateRegion(t *testing.T) {
	doc := []byte("<!-- generated:a -->\nx\n<!-- /generated:a -->\n<!-- generated:a -->\ny\n<!-- /generated:a -->\n")
	if _, err := Region(doc, "a"); err == nil {
		t.Fatal("duplicate region: no error")
	}
}

type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Helper()               {}

func TestCheckLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte("| a | 1 |\n| b | 2 |\n| bc | 3 |"), 0o644); err != nil {
		t.Fatal(err)
	}
	CheckLine(t, path, "| b |", []byte("| b | 2 |\n"))
	CheckLine(t, path, "| bc |", []byte("| bc | 3 |"))
	ft := &fakeT{TB: t}
	CheckLine(ft, path, "| a |", []byte("| a | 9 |\n"))
	if !ft.failed {
		t.Error("CheckLine passed on a differing line")
	}
	t.Setenv(UpdateEnv, "1")
	CheckLine(t, path, "| a |", []byte("| a | 9 |\n"))
	b, _ := os.ReadFile(path)
	if string(b) != "| a | 9 |\n| b | 2 |\n| bc | 3 |" {
		t.Errorf("after the update: %q", b)
	}
	if _, _, err := line(b, "| "); err == nil {
		t.Error("two matching lines: no error")
	}
	if _, _, err := line(b, "| z"); err == nil {
		t.Error("no matching line: no error")
	}
}

func TestCheckLong(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte("<!-- generated:x -->\nold\n<!-- /generated:x -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	digests := map[string]string{"x": Digest([]byte("old\n"))}
	computed := false
	compute := func() map[string][]byte { computed = true; return map[string][]byte{"x": []byte("new\n")} }
	t.Setenv(LongEnv, "")
	CheckLong(t, path, digests, compute)
	if computed {
		t.Error("computed without BATCHQ_LONG")
	}
	t.Setenv(LongEnv, "1")
	ft := &fakeT{TB: t}
	CheckLong(ft, path, digests, compute)
	if !computed || !ft.failed {
		t.Errorf("long run: computed %v, failed %v; want both", computed, ft.failed)
	}
	digests["x"] = Digest([]byte("new\n"))
	t.Setenv(UpdateEnv, "1")
	CheckLong(t, path, digests, compute)
	t.Setenv(UpdateEnv, "")
	t.Setenv(LongEnv, "")
	CheckLong(t, path, digests, compute)
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		vs   []float64
		want string
	}{
		{[]float64{0.5, 0.25, math.NaN()}, "0.25–0.50"},
		{[]float64{0.501, 0.499}, "0.50"},
		{[]float64{math.Inf(1)}, "–"},
		{nil, "–"},
	} {
		if got := Span("%.2f", c.vs); got != c.want {
			t.Errorf("Span(%v) = %q, want %q", c.vs, got, c.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 48221: "48,221"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
