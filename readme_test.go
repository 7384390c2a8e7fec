package batchq

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeExamples checks the README's table of examples against the
// examples module: one row per example directory, each with its own
// README, and every flag a row names defined by that example.
func TestReadmeExamples(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| example | command | what it shows | figures |\n|---|---|---|---|\n")
	if !ok {
		t.Fatal("README.md has no table of examples")
	}
	rows := map[string]string{}
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, "| ") {
			break
		}
		name := strings.TrimSpace(strings.SplitN(l, "|", 3)[1])
		rows[name] = l
	}
	dirs, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "internal" {
			names = append(names, d.Name())
		}
	}
	flagRe := regexp.MustCompile("(?:^|[ `(])-([a-z][a-z-]*)")
	for _, name := range names {
		row, ok := rows[name]
		if !ok {
			t.Errorf("examples/%s has no row in the README's table", name)
			continue
		}
		if _, err := os.Stat(filepath.Join("examples", name, "README.md")); err != nil {
			t.Errorf("examples/%s: %v", name, err)
		}
		src := sources(t, filepath.Join("examples", name))
		for _, m := range flagRe.FindAllStringSubmatch(row, -1) {
			if !strings.Contains(src, `"`+m[1]+`"`) {
				t.Errorf("row %s names -%s, which examples/%s does not define", name, m[1], name)
			}
		}
	}
	for name := range rows {
		if !slices.Contains(names, name) {
			t.Errorf("the README's table names %s, which is not in examples/", name)
		}
	}
}

// sources is the text of a directory's non-test Go files.
func sources(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(src)
	}
	return b.String()
}

// TestDocListsEveryPackage checks that the root package doc names every
// library package (one line each), so a new package is not missed.
func TestDocListsEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == "." {
			return err
		}
		if n := d.Name(); n == "examples" || n == "internal" || n == "testdata" || n == "docs" || n == "scripts" || strings.HasPrefix(n, ".") {
			return filepath.SkipDir
		}
		if srcs, _ := filepath.Glob(filepath.Join(path, "*.go")); len(srcs) > 0 && !strings.Contains(string(doc), "//   - "+filepath.ToSlash(path)+":") {
			t.Errorf("doc.go does not list package %s", filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadmeRequires checks the README's claim about what the library's
// go.mod requires against go.mod.
func TestReadmeRequires(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`go.mod` requires only ([a-z ,]+), not").FindSubmatch(doc)
	if m == nil {
		t.Fatal("README.md no longer says what go.mod requires")
	}
	said := regexp.MustCompile(`\w+`).FindAllString(strings.ReplaceAll(string(m[1]), " and ", ","), -1)
	var req []string
	for _, l := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(l); len(f) == 2 && strings.Contains(f[0], "/") && !strings.HasPrefix(l, "module") {
			parts := strings.Split(strings.TrimSuffix(f[0], "/v1"), "/")
			req = append(req, strings.Split(parts[len(parts)-1], ".")[0])
		}
	}
	slices.Sort(said)
	slices.Sort(req)
	if !slices.Equal(said, req) {
		t.Errorf("README says go.mod requires %v; it requires %v", said, req)
	}
}

// TestReadmeCoalloc checks the figures of the README's coalloc row against
// the table they summarize, examples/coalloc/README.md's generated region
// "default" (each trial's P_all, P_achieved and the thesis's P_achieved),
// so that a regenerated table cannot leave the row stale.
func TestReadmeCoalloc(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile(filepath.Join("examples", "coalloc", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, region, ok := strings.Cut(string(ex), "<!-- generated:default -->\n")
	region, _, ok2 := strings.Cut(region, "<!-- /generated:default -->")
	if !ok || !ok2 {
		t.Fatal("examples/coalloc/README.md has no region default")
	}
	var head []string
	var rows [][]string
	for _, l := range strings.Split(region, "\n") {
		if !strings.HasPrefix(l, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if head == nil {
			head = cells
		} else if len(cells) != len(head) {
			t.Fatalf("region default: %d cells under %d columns: %s", len(cells), len(head), l)
		} else {
			rows = append(rows, cells)
		}
	}
	ach := slices.Index(head, "P_achieved")
	if ach < 0 || ach+2 >= len(head) || head[1] != "P_all" || head[ach+2] != "thesis" || len(rows) == 0 {
		t.Fatalf("region default's columns changed: %q", head)
	}
	// val is the number in row r, column c (the table's probabilities).
	val := func(r []string, c int) float64 {
		v, err := strconv.ParseFloat(r[c], 64)
		if err != nil {
			t.Fatalf("region default: %v", err)
		}
		return v
	}
	// span is the lowest and the highest of column c, as printed.
	span := func(c int) string {
		lo, hi := rows[0], rows[0]
		for _, r := range rows {
			if val(r, c) < val(lo, c) {
				lo = r
			}
			if val(r, c) > val(hi, c) {
				hi = r
			}
		}
		return lo[c] + "–" + hi[c]
	}
	atOrAbove := 0
	for _, r := range rows {
		if val(r, ach) >= val(r, 1) {
			atOrAbove++
		}
	}
	want := fmt.Sprintf("P_achieved %s against P_all %s, at or above it in %d of %d trials (thesis %s)",
		span(ach), span(1), atOrAbove, len(rows), span(ach+2))
	if !strings.Contains(string(doc), want) {
		t.Errorf("README.md's coalloc row should say %q (examples/coalloc/README.md, region default)", want)
	}
}

// TestReadmeLinks checks that every relative link of the top-level
// markdown (the README, the examples' READMEs, docs/*.md) names a file
// or directory that exists, relative to the file that holds it: text
// moved from one file to another keeps links that pointed from the old
// place (docs/performance-history.md had two, from the root README).
func TestReadmeLinks(t *testing.T) {
	files := []string{"README.md", "CHANGELOG.md"}
	for _, g := range []string{"examples/*/README.md", "docs/*.md"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	link := regexp.MustCompile(`\]\(([^)#\s]+)(?:#[^)\s]*)?\)`)
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(doc), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist relative to it", f, target)
			}
		}
	}
}

// TestReadmeSJBFLines checks the README's count of the lines of the user
// policy in sched's ExampleScheduler (the sjbf type, its Name and its
// Schedule method, comments and blank lines included) against the file:
// the README said 35 when the file had 36.
func TestReadmeSJBFLines(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("sched", "example_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	first, schedule, last := -1, -1, -1
	for i, l := range lines {
		switch {
		case l == "type sjbf struct{}":
			first = i
		case strings.HasPrefix(l, "func (sjbf) Schedule("):
			schedule = i
		case l == "}" && schedule >= 0 && last < 0:
			last = i
		}
	}
	if first < 0 || schedule < first || last < schedule {
		t.Fatal("sched/example_test.go no longer has the sjbf type followed by its Schedule method")
	}
	want := fmt.Sprintf("EASY-SJBF in %d lines, from its type to the end of its Schedule method", last-first+1)
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), want) {
		t.Errorf("README.md should say %q (sched/example_test.go, lines %d–%d)", want, first+1, last+1)
	}
}

// TestReadmeProgress checks the README's sentence on the progress bar
// against the commands it names: each one the sentence says takes
// -progress defines it or decides by cli.ProgressOn (which reads it), and
// those it says leave the bar off under -json decide by cli.ProgressOn or
// a barOn of their own, the others by neither. It said slurmfeed took no
// -progress and kept its bar under -json after both had changed.
func TestReadmeProgress(t *testing.T) {
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	m := regexp.MustCompile(`stop a run \(cleanly where the command watches for them\), and (.*?) draw a progress bar when stderr is a terminal \(all (but (.*?) )?take ` + "`-progress`" + ` to force it; all of these but (.*?) leave it off under ` + "`-json`").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md no longer has its sentence on the progress bar")
	}
	names := func(s string) []string {
		var out []string
		for _, q := range regexp.MustCompile("`([a-z]+)[^`]*`").FindAllStringSubmatch(s, -1) {
			out = append(out, q[1])
		}
		return out
	}
	noFlag, keepsBar := names(m[3]), names(m[4])
	listed := names(m[1])
	if len(listed) < 10 {
		t.Fatalf("the sentence names %d commands: %v", len(listed), listed)
	}
	for _, c := range listed {
		src := sources(t, filepath.Join("examples", c))
		decides := strings.Contains(src, "ProgressOn(") || strings.Contains(src, "barOn(")
		if has := strings.Contains(src, `"progress"`) || strings.Contains(src, "ProgressOn("); has == slices.Contains(noFlag, c) {
			t.Errorf("the README says %s %s -progress; its code says otherwise", c, map[bool]string{true: "takes no", false: "takes"}[slices.Contains(noFlag, c)])
		}
		if decides == slices.Contains(keepsBar, c) {
			t.Errorf("the README says %s %s the bar off under -json; its code says otherwise", c, map[bool]string{true: "does not leave", false: "leaves"}[slices.Contains(keepsBar, c)])
		}
	}
}
