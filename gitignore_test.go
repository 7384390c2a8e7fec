package batchq

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGitignoreBinaries checks that `go build` of any example, in the
// root or in the example's own directory, makes a file git ignores: a
// 5.5 MB slurmcheck binary once reached a branch's history that way. The
// root's own directories (coalloc, qbets, varq) are left out, as go build
// refuses to overwrite a directory.
func TestGitignoreBinaries(t *testing.T) {
	b, err := os.ReadFile(".gitignore")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	dirs, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "internal" {
			continue
		}
		n := d.Name()
		want := []string{"/" + filepath.ToSlash(filepath.Join("examples", n, n))}
		if fi, err := os.Stat(n); err != nil || !fi.IsDir() {
			want = append(want, "/"+n)
		}
		for _, w := range want {
			if !slices.Contains(lines, w) {
				t.Errorf(".gitignore lacks %s (go build of examples/%s)", w, n)
			}
		}
	}
}

// TestGitignoreQserveDB: qserve serve writes its database and a tokens
// file of secrets (<db>.tokens) in the directory it runs in, the root for
// the README's command; git add -A took both.
func TestGitignoreQserveDB(t *testing.T) {
	b, err := os.ReadFile(".gitignore")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("examples", "qserve", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`fs\.String\("db", "([^"]+)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("examples/qserve/main.go no longer has a -db flag with a default file")
	}
	lines := strings.Split(string(b), "\n")
	for _, w := range []string{"/" + string(m[1]) + "*", "/examples/qserve/" + string(m[1]) + "*"} {
		if !slices.Contains(lines, w) {
			t.Errorf(".gitignore lacks %s (qserve serve's database and its tokens file)", w)
		}
	}
}
