package readme

import (
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
