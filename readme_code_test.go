package batchq

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeCode compiles the README's Go snippets ("Six common jobs", "With
// a real trace") against the library, so that a renamed function, field or
// package leaves no snippet that no longer builds: nothing checked them.
// The snippets leave out what surrounds them, so each is wrapped in a
// function that declares what it takes (ctx, a time, a snapshot, a
// policy), each snippet that redeclares a name (p, r) in a block of its
// own, and its `{ ... }` become returns; "declared and not used" is the
// one error a fragment may give.
func TestReadmeCode(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	doc, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) != 6 {
		t.Fatalf("README.md has %d Go blocks, want the six of \"Six common jobs\" and \"With a real trace\"", len(blocks))
	}
	code := make([]string, len(blocks))
	for i, b := range blocks {
		code[i] = strings.ReplaceAll(b[1], "{ ... }", "{ return }")
	}
	src := `package snippets

import (
	"context"
	"fmt"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

type myPolicy struct{ sched.Scheduler }

var _ = fmt.Println

func sixJobs(ctx context.Context, t, s, now int64, r, w []swf.Job, snap *forecast.Snapshot) {
` + code[0] + "{\n" + code[1] + "}\n" + code[2] + "{\n" + code[3] + "}\n{\n" + code[4] + "}\n" + `}

func realTrace() {
` + code[5] + "}\n"
	dir, err := os.MkdirTemp(".", "zz-readme-code-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "snippets.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("go", "build", "-gcflags=-e", "-o", os.DevNull, "./"+filepath.Base(dir)).CombinedOutput()
	for _, l := range strings.Split(string(out), "\n") {
		if l == "" || strings.HasPrefix(l, "# ") || strings.Contains(l, "declared and not used") {
			continue
		}
		t.Errorf("a README snippet does not build: %s", l)
	}
	if t.Failed() {
		t.Logf("the snippets as compiled:\n%s", src)
	}
}
