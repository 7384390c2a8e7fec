//go:build ignore

// decisionprefix rewrites the citations of the three decision registers
// that all numbered their items A1, A2, … (docs/decisions.md) to a prefix
// of their own, so that a citation names one decision wherever it
// stands:
//
//	Tsafrir (simulation: sched, sanitize, swf, estmodel, …)   A7 → S7
//	Nurmi (QBETS, VARQ, CO-VARQ: qbets, varq, coalloc, …)     A7 → Q7
//	Hariharan et al. (APQ, range sets, molding)               A7 → H7
//
// The register is the one of the package or example the file belongs to
// (the table "How to read a citation" of docs/decisions.md); a citation
// qualified by a name ("sched A6", "Nurmi A3") uses that name's register.
// Only Go comments and Markdown prose change: string literals, code,
// fenced code blocks and generated README regions (command output) stay
// as they are. Items beyond a register's range are left and listed.
//
// Run from the repository root, on any branch (idempotent):
//
//	go run scripts/decisionprefix.go
package main

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// registers by directory; the longest matching prefix wins, "" is none.
var byDir = map[string]string{
	"sched": "S", "sanitize": "S", "swf": "S", "estmodel": "S", "internal/thesislogs": "S",
	"examples/simulate": "S", "examples/tsafrir": "S", "examples/estimates": "S",
	"examples/flurries": "S", "examples/sweep": "S",
	"qbets": "Q", "internal/parametric": "Q", "internal/runlen": "Q", "varq": "Q", "coalloc": "Q",
	"examples/qbets": "Q", "examples/varq": "Q", "examples/coalloc": "Q",
	"qbets/apq": "H", "estmodel/rangeset": "H", "varq/molding": "H", "examples/apq": "H",
	"swf/synth": "", "examples/synth": "", "qbets/ibl": "", "qbets/karnak": "", "examples/qserve": "",
	"examples/replay": "",
}

// size of each register.
var size = map[string]int{"S": 32, "Q": 24, "H": 25}

// qualifiers name a register.
var qualifiers = map[string]string{
	"sched": "S", "Tsafrir": "S", "Tsafrir's": "S",
	"qbets": "Q", "QBETS": "Q", "Nurmi": "Q", "Nurmi's": "Q",
	"apq": "H", "APQ": "H", "Hariharan": "H", "molding": "H", "rangeset": "H",
}

var cite = regexp.MustCompile(`(\b[\w']+[ \x{00a0}])?\bA([0-9]{1,2})\b`)

var counts = map[string]int{}
var left []string

// rewrite rewrites the citations in text, in register reg.
func rewrite(text, reg, where string) string {
	return cite.ReplaceAllStringFunc(text, func(m string) string {
		sub := cite.FindStringSubmatch(m)
		r := reg
		if q, ok := qualifiers[strings.TrimSpace(sub[1])]; ok {
			r = q
		}
		n, _ := strconv.Atoi(sub[2])
		if r == "" || n < 1 || n > size[r] {
			left = append(left, fmt.Sprintf("%s: %q", where, m))
			return m
		}
		counts[r]++
		return sub[1] + r + sub[2]
	})
}

func register(path string) string {
	dir := filepath.ToSlash(filepath.Dir(path))
	best, reg := -1, ""
	for d, r := range byDir {
		if (dir == d || strings.HasPrefix(dir, d+"/")) && len(d) > best {
			best, reg = len(d), r
		}
	}
	return reg
}

func goFile(path string, src []byte) []byte {
	reg := register(path)
	if reg == "" && !bytes.Contains(src, []byte(" A")) {
		return src
	}
	fset := token.NewFileSet()
	f := fset.AddFile(path, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	out := bytes.Clone(src)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		off := f.Offset(pos)
		nl := rewrite(lit, reg, fmt.Sprintf("%s:%d", path, f.Line(pos)))
		copy(out[off:], nl) // same length: one letter for one letter
	}
	return out
}

// section registers of docs/decisions.md, by heading.
func decisionsSection(h string) string {
	switch {
	case strings.Contains(h, "(Tsafrir)"), strings.HasPrefix(h, "### Tsafrir notes"):
		return "S"
	case strings.Contains(h, "(Nurmi)"), strings.HasPrefix(h, "### Nurmi notes"), strings.Contains(h, "(Brevik et al.)"):
		return "Q" // BMBP's items cite the Nurmi items above them
	case strings.Contains(h, "(Hariharan et al.)"), strings.HasPrefix(h, "### Hariharan notes"):
		return "H"
	}
	return ""
}

func mdFile(path string, src []byte) []byte {
	reg := register(path)
	decisions := filepath.ToSlash(path) == "docs/decisions.md"
	lines := strings.SplitAfter(string(src), "\n")
	gen, fence := false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "<!-- generated:"):
			gen = true
		case strings.HasPrefix(t, "<!-- /generated:"):
			gen = false
		case strings.HasPrefix(t, "```"):
			fence = !fence
		case decisions && strings.HasPrefix(t, "#"):
			reg = decisionsSection(t)
			lines[i] = rewrite(l, reg, fmt.Sprintf("%s:%d", path, i+1))
		case !gen && !fence:
			lines[i] = rewrite(l, reg, fmt.Sprintf("%s:%d", path, i+1))
		}
	}
	return []byte(strings.Join(lines, ""))
}

func main() {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "scripts") {
				return filepath.SkipDir
			}
			return nil
		}
		var fix func(string, []byte) []byte
		switch {
		case strings.HasSuffix(path, ".go"):
			fix = goFile
		case strings.HasSuffix(path, ".md") && strings.Contains(path, "/"):
			fix = mdFile // the root's README and CHANGELOG are edited by hand
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if out := fix(path, src); !bytes.Equal(out, src) {
			return os.WriteFile(path, out, d.Type().Perm()|0o644)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("rewritten: S %d, Q %d, H %d\n", counts["S"], counts["Q"], counts["H"])
	for _, l := range left {
		fmt.Println("left:", l)
	}
}
