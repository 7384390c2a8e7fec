package batchq

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The public surface's budget (DESIGN.md): exported top-level names
// (types, functions, variables and constants; not methods or fields) of
// the library module, outside internal/ and test files. Issue 35 set the
// total at 350 for the 22 packages of v0.1.0 (344 then, 354 once the
// queue snapshots of swf/convert came); the two packages of issue 36,
// sched/forecast and qbets/conformal, add 14 names of new capability, so
// the total is 350 plus those 14 plus swf/convert's 4: what stays fixed is
// that every name added from here on must be paid for by one removed, and
// that a package a user imports shows at most 40.
const (
	maxNames           = 368
	maxNamesPerPackage = 40
)

// TestExportedNames counts the exported top-level names of every library
// package and holds them to the budget.
func TestExportedNames(t *testing.T) {
	counts := map[string]int{}
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					counts[pkg]++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							counts[pkg]++
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								counts[pkg]++
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for pkg, n := range counts {
		total += n
		if n > maxNamesPerPackage {
			t.Errorf("%s exports %d top-level names, more than %d", pkg, n, maxNamesPerPackage)
		}
	}
	if total > maxNames {
		t.Errorf("the module exports %d top-level names, more than %d", total, maxNames)
	}
	t.Logf("%d exported top-level names in %d packages", total, len(counts))
}
