package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// peerModes are the modes of testdata/peers.txt: the flags of this command
// that claim to reproduce each peer run.
var peerModes = map[string][]string{
	"pyss-easy":       {"-compat", "pyss"},
	"pyss-easy++":     {"-policy", "easy++", "-compat", "pyss"},
	"predictsim-easy": {"-compat", "predictsim"},
}

// peerPin is one line of testdata/peers.txt: the SHA-256 of a peer's
// schedule of a trace in peerSchedule's form, and its job count.
type peerPin struct {
	trace, mode string
	jobs        int
	sum         string
}

func readPeerPins(t *testing.T) []peerPin {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "peers.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var pins []peerPin
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 4 || peerModes[f[1]] == nil || len(f[3]) != 64 {
			t.Fatalf("testdata/peers.txt:%d: want TRACE MODE JOBS SHA256 with a mode of peerModes, got %q", i+1, line)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("testdata/peers.txt:%d: jobs: %v", i+1, err)
		}
		pins = append(pins, peerPin{f[0], f[1], n, f[3]})
	}
	return pins
}

// peerTrace returns the path of the trace of a line of testdata/peers.txt:
// a shared trace, or with ":N" after its name the trace's comment lines
// and its first N job lines, written to a temporary file (the peer's
// input was made so: grep '^;' TRACE; grep -v '^;' TRACE | head -N).
func peerTrace(t *testing.T, name string) string {
	t.Helper()
	name, prefix, cut := strings.Cut(name, ":")
	path := tracetest.Path(t, name)
	if !cut {
		return path
	}
	n, err := strconv.Atoi(prefix)
	if err != nil || n <= 0 {
		t.Fatalf("testdata/peers.txt: %s:%s: want a positive number of jobs after the colon", name, prefix)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	var comments, jobs bytes.Buffer
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		switch line := sc.Bytes(); {
		case bytes.HasPrefix(line, []byte(";")):
			comments.Write(line)
			comments.WriteByte('\n')
		case n > 0:
			jobs.Write(line)
			jobs.WriteByte('\n')
			n--
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".swf")+"-"+prefix+".swf")
	if err := os.WriteFile(out, append(comments.Bytes(), jobs.Bytes()...), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// peerSchedule reads the -jobs-out CSV at path and returns the schedule in
// the normalized form of testdata/peers.txt: one line per job, "id submit
// start end procs estimate", sorted as LC_ALL=C sort -n sorts them (by id,
// then by the line's bytes), and the number of jobs.
func peerSchedule(t *testing.T, path string) ([]byte, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	head, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"id", "submit", "start", "end", "procs", "estimate"}
	col := make([]int, len(want))
	for i, name := range want {
		if col[i] = slices.Index(head, name); col[i] < 0 {
			t.Fatalf("%s: no column %q", path, name)
		}
	}
	type line struct {
		id   int64
		text string
	}
	var lines []line
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		id, err := strconv.ParseInt(rec[col[0]], 10, 64)
		if err != nil {
			t.Fatalf("%s: id %q: %v", path, rec[col[0]], err)
		}
		var b strings.Builder
		for i, c := range col {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(rec[c])
		}
		b.WriteByte('\n')
		lines = append(lines, line{id, b.String()})
	}
	slices.SortFunc(lines, func(a, b line) int {
		if a.id != b.id {
			return int(min(max(a.id-b.id, -1), 1))
		}
		return strings.Compare(a.text, b.text)
	})
	var out bytes.Buffer
	for _, l := range lines {
		out.WriteString(l.text)
	}
	return out.Bytes(), len(lines)
}

// TestPeerSchedules runs each peer mode on each trace of
// testdata/peers.txt and compares the schedule, job by job through its
// SHA-256, with the one the real peer produced (the file's header says
// which commit and command); then it writes the README's table of them
// (BATCHQ_UPDATE_README=1 rewrites it). -short skips the traces of more
// than 100,000 jobs and the table.
func TestPeerSchedules(t *testing.T) {
	pins := readPeerPins(t)
	var table strings.Builder
	fmt.Fprintln(&table, "| log | flags | jobs | jobs the same as the peer's |")
	fmt.Fprintln(&table, "|---|---|---:|---:|")
	complete := !testing.Short()
	for _, p := range pins {
		same := false // checked, and the peer's
		t.Run(p.trace+"/"+p.mode, func(t *testing.T) {
			if testing.Short() && p.jobs > 100000 {
				t.Skip("-short: more than 100,000 jobs")
			}
			trace := peerTrace(t, p.trace)
			out := filepath.Join(t.TempDir(), "jobs.csv")
			args := append([]string{trace, "-jobs-out", out}, peerModes[p.mode]...)
			if code, _, errs := runCmd(t, args...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			sched, n := peerSchedule(t, out)
			sum := fmt.Sprintf("%x", sha256.Sum256(sched))
			if same = n == p.jobs && sum == p.sum; same {
				return
			}
			keep, err := os.CreateTemp("", "batchq-"+p.mode+"-*.txt")
			if err == nil {
				_, err = keep.Write(sched)
				keep.Close()
			}
			t.Errorf("%s, %s: %d jobs, SHA-256 %s; the peer's (testdata/peers.txt) %d jobs, %s.\n"+
				"batchq's schedule in the normalized form is in %s (%v).\n"+
				"To see which jobs differ, run the peer as testdata/peers.txt says, normalize its output with the\n"+
				"awk line given there for its kind and diff the two.",
				p.trace, p.mode, n, sum, p.jobs, p.sum, keep.Name(), err)
		})
		if complete = complete && same; !complete {
			continue
		}
		log, prefix, cut := strings.Cut(p.trace, ":")
		log = strings.TrimSuffix(strings.TrimSuffix(log, ".gz"), ".swf")
		if cut {
			log += " (first " + prefix + " jobs)"
		}
		fmt.Fprintf(&table, "| %s | `%s` | %d | %d |\n", log, strings.Join(peerModes[p.mode], " "), p.jobs, p.jobs)
	}
	if complete {
		readme.Check(t, "README.md", "peer-schedules", []byte(table.String()))
	}
}
