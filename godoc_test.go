package batchq

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The docs' budget (issue 35, DESIGN.md): a package comment teaches what a
// user needs to start and the contracts in one screen, and `go doc` of the
// package, the comment and its index of names, fits on two. A screen is
// taken as 50 lines of 80 columns (a terminal at full height on a laptop).
// What does not fit belongs in the doc of the type or function it is about,
// in docs/decisions.md, or in a README; measurements live beside the
// benchmarks and tests that produce them.
const (
	maxCommentLines = 50
	maxGoDocLines   = 100
)

// docPending are the packages still over the budget, each with the work
// that will bring it in. The list only shrinks: a package on it that fits
// fails the test until it is taken off.
var docPending = map[string]string{}

// decl starts the index of names that follows a package comment in go doc.
var decl = regexp.MustCompile(`^(const|var|func|type) `)

// TestDocLength holds every library package's go doc to the budget.
func TestDocLength(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run go doc")
	}
	list, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, path := range strings.Fields(string(list)) {
		pkg, ok := strings.CutPrefix(path, "github.com/batchq/batchq/")
		if !ok {
			pkg = "." // the module's own package
		}
		if strings.HasPrefix(pkg, "internal/") || strings.Contains(pkg, "/internal/") {
			continue
		}
		seen[pkg] = true
		out, err := exec.Command(goTool, "doc", "./"+pkg).Output()
		if err != nil {
			t.Errorf("go doc ./%s: %v", pkg, err)
			continue
		}
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		comment := 0 // the lines between the package clause and the index
		for _, l := range lines[min(2, len(lines)):] {
			if decl.MatchString(l) {
				comment-- // the blank line before the index
				break
			}
			comment++
		}
		over := comment > maxCommentLines || len(lines) > maxGoDocLines
		why, pending := docPending[pkg]
		switch {
		case over && pending:
			t.Logf("%s: go doc %d lines, comment %d: over the budget; pending: %s", pkg, len(lines), comment, why)
		case over:
			t.Errorf("%s: go doc prints %d lines (at most %d), its package comment %d (at most %d)", pkg, len(lines), maxGoDocLines, comment, maxCommentLines)
		case pending:
			t.Errorf("%s fits the budget now (go doc %d lines, comment %d): take it off docPending", pkg, len(lines), comment)
		}
	}
	for pkg := range docPending {
		if !seen[pkg] {
			t.Errorf("docPending names %s, which is not a library package", pkg)
		}
	}
}
