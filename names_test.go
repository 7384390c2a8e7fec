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
// the library module, outside internal/ and test files, at most 350 in
// all and 40 per package. It is a budget, not a record of the count: new
// capability pays for its names inside it. v0.1.0 exported 344; the
// forecasting, conformal, snapshot and multi-resource work of the next
// wave took the module to 370, and the cuts listed under "Unreleased" in
// CHANGELOG.md (enums that only set a config field became documented
// string or bool fields, functions of one type became its methods,
// constants nobody needs were unexported) brought it to 339. The node
// model took it to 346, and a second round of cuts (CHANGELOG.md) to 341
// without sched/slurm's names; raising the limit is a decision to record
// in CHANGELOG.md with what the names buy, never a way to make this test
// pass.
const (
	maxNames           = 350
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
