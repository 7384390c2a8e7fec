package batchq

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// noExample are the library packages without a runnable Example, and why.
var noExample = map[string]string{
	".":                       "the root package holds no code",
	"qbets/karnak/karnaktest": "its one function takes a *testing.T (its package doc shows the test to write)",
}

// TestExamplesTeach: every library package (outside internal/) has a
// runnable Example (one with an Output comment), and one whose code, as
// godoc shows it, uses the package: an example in package p_test that
// calls only other packages, or whose calls of p are in a helper godoc does
// not show (a file that also holds tests shows the example's body alone),
// teaches nothing of p.
func TestExamplesTeach(t *testing.T) {
	byDir := map[string][]*ast.File{}
	names := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path == ".":
			case name == "examples" || name == "internal" || name == "testdata" || strings.HasPrefix(name, "."):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_test.go") {
			byDir[dir] = append(byDir[dir], f)
		} else {
			names[dir] = f.Name.Name
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, name := range names {
		if _, ok := noExample[dir]; ok || name == "main" {
			continue
		}
		runnable, teaches := 0, false
		for _, f := range byDir[dir] {
			for _, ex := range doc.Examples(f) {
				if ex.Output == "" && !ex.EmptyOutput {
					continue
				}
				runnable++
				if f.Name.Name == name || uses(ex.Code, name) {
					teaches = true
				}
			}
		}
		switch {
		case runnable == 0:
			t.Errorf("%s (package %s) has no runnable Example", dir, name)
		case !teaches:
			t.Errorf("%s: no runnable Example uses package %s in the code godoc shows", dir, name)
		}
	}
}

// uses reports whether n refers to package name (name.X).
func uses(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}
