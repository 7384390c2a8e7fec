// Package tracetest locates the Parallel Workloads Archive traces that live
// beside the checkout (../shared/traces), for tests, benchmarks and
// examples. The traces are never copied into the repository.
//
// When a trace is missing, tests skip with a message; when the environment
// has CI=true they fail instead, because CI must run against the traces.
package tracetest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The traces of ../shared/traces, by their file names.
const (
	CTC      = "CTC-SP2-1996-3.1-cln.swf.gz"
	KTH      = "KTH-SP2-1996-2.1-cln.swf.gz"
	SDSCSP2  = "SDSC-SP2-1998-4.2-cln.swf.gz"
	SDSCBlue = "SDSC-BLUE-2000-4.2-cln.swf.gz"
	LANLCM5  = "LANL-CM5-1994-4.1-cln.swf.gz"
	CEACurie = "CEA-Curie-2011-2.1-cln.swf.gz"
	LLNL     = "LLNL-Atlas-2006-2.1-cln.swf.gz"
	OSC      = "OSC-Clust-2000-3.1-cln.swf.gz"
	SDSCPar  = "SDSC-Par-1996-3.1-cln.swf.gz"
	NASA     = "NASA-iPSC-1993-3.1-cln.swf.gz"
	Lublin   = "lublin_256.swf"
)

// All lists every shared trace with its job count (the traces README table).
var All = []struct {
	Name string
	Jobs int
}{
	{CTC, 77222}, {KTH, 28476}, {SDSCSP2, 59715}, {SDSCBlue, 243306},
	{LANLCM5, 122060}, {CEACurie, 312826}, {LLNL, 43778}, {OSC, 36097},
	{SDSCPar, 32135}, {NASA, 18239}, {Lublin, 10000},
}

// Dir returns the traces directory: $BATCHQ_TRACES if set, else
// ../shared/traces beside the repository root. The root is the nearest
// directory above the working directory whose go.mod is the library's
// (module github.com/batchq/batchq), so the examples module, nested in the
// repository, finds the same traces; failing that, the nearest go.mod.
func Dir() (string, error) {
	if d := os.Getenv("BATCHQ_TRACES"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	nearest := ""
	for d := wd; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			if isLibraryModule(b) {
				return filepath.Join(d, "..", "shared", "traces"), nil
			}
			if nearest == "" {
				nearest = d
			}
		}
		if filepath.Dir(d) == d {
			if nearest != "" {
				return filepath.Join(nearest, "..", "shared", "traces"), nil
			}
			return "", errors.New("tracetest: no go.mod above " + wd + ": set BATCHQ_TRACES to the traces directory")
		}
	}
}

// isLibraryModule reports whether a go.mod file declares the library's
// module path.
func isLibraryModule(gomod []byte) bool {
	for line := range strings.Lines(string(gomod)) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`) == "github.com/batchq/batchq"
		}
	}
	return false
}

// Find returns the path of a trace, or an error when it is not present.
func Find(name string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(d, name)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// ShortName is a trace's name without the archive's version and suffix,
// for labels and file names: SDSC-BLUE-2000-4.2-cln.swf.gz → SDSC-BLUE,
// lublin_256.swf → lublin_256.
func ShortName(path string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".swf")
	var keep []string
	for _, part := range strings.Split(base, "-") {
		if part != "" && part[0] >= '0' && part[0] <= '9' {
			break
		}
		keep = append(keep, part)
	}
	if len(keep) == 0 {
		return base
	}
	return strings.Join(keep, "-")
}

// FindPrefix returns the one trace (*.swf*) in dir whose file name starts
// with prefix, case-insensitively, so that examples can take short names
// such as "SDSC-BLUE"; none or several matches are an error naming them.
func FindPrefix(dir, prefix string) (string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.swf*"))
	if err != nil {
		return "", err
	}
	var hits []string
	for _, p := range paths {
		if strings.HasPrefix(strings.ToLower(filepath.Base(p)), strings.ToLower(prefix)) {
			hits = append(hits, p)
		}
	}
	slices.Sort(hits)
	switch len(hits) {
	case 0:
		return "", fmt.Errorf("no trace in %s starts with %q", dir, prefix)
	case 1:
		return hits[0], nil
	}
	return "", fmt.Errorf("%d traces in %s start with %q: %s", len(hits), dir, prefix, strings.Join(hits, ", "))
}

// Path returns the path of a trace for a test or benchmark. It skips tb when
// the trace is absent, or fails it when CI=true.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	p, err := Find(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("trace %s required in CI: %v", name, err)
		}
		tb.Skipf("trace %s not available (%v); skipping", name, err)
	}
	return p
}

// DirOf returns a fresh temporary directory holding only the named trace
// (a symbolic link to it), for tests of examples that take a traces
// directory. It skips or fails tb like Path.
func DirOf(tb testing.TB, name string) string {
	tb.Helper()
	p := Path(tb, name)
	dir := tb.TempDir()
	if err := os.Symlink(p, filepath.Join(dir, filepath.Base(p))); err != nil {
		tb.Fatal(err)
	}
	return dir
}
