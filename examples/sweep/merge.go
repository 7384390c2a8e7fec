package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/batchq/batchq/internal/textcheck"
)

// shardName matches the file name run writes, NAME.shard-i-of-N.jsonl.
var shardName = regexp.MustCompile(`^(.*)\.shard-[0-9]+-of-[0-9]+\.jsonl(\.gz)?$`)

// resultFiles lists the result files named by args: files as given, and
// every *.jsonl file of a directory (sorted). With a spec name, a
// directory's shard files of other specs (OTHER.shard-i-of-N.jsonl) are
// left out, so that specs run with the same -out (run's default, results)
// can be merged and reported one by one. The other specs' names are
// returned, for the errors of a read that misses runs (a spec renamed
// after its run: its shard files now look like another spec's).
func resultFiles(args []string, name string) (files, others []string, err error) {
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "*.jsonl"))
		if err != nil {
			return nil, nil, err
		}
		gz, _ := filepath.Glob(filepath.Join(a, "*.jsonl.gz"))
		m = append(m, gz...)
		if name != "" {
			m = slices.DeleteFunc(m, func(f string) bool {
				g := shardName.FindStringSubmatch(filepath.Base(f))
				if g != nil && g[1] != name && !slices.Contains(others, g[1]) {
					others = append(others, g[1])
				}
				return g != nil && g[1] != name
			})
		}
		if len(m) == 0 && len(others) > 0 {
			return nil, nil, fmt.Errorf("%s: no result files of spec %s (%s)", a, name, leftOut(others))
		}
		if len(m) == 0 {
			return nil, nil, fmt.Errorf("%s: no *.jsonl result files", a)
		}
		slices.Sort(m)
		files = append(files, m...)
	}
	slices.Sort(others)
	return files, others, nil
}

// leftOut says which other specs' shard files were left out.
func leftOut(others []string) string {
	return "other specs' shard files left out: " + strings.Join(others, ", ")
}

// readMaybeGz reads a file, gunzipping it when its name ends in .gz.
func readMaybeGz(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = zr
	}
	// Binary data is refused at its first bytes, not read to the bound.
	br := bufio.NewReader(r)
	head, _ := br.Peek(4096)
	if line, _, _ := bytes.Cut(head, []byte{'\n'}); textcheck.FirstLine(string(line)) {
		return nil, fmt.Errorf("%s: binary data, not a result file (its first bytes: %q)", path, head[:min(len(head), 16)])
	}
	b, err := io.ReadAll(io.LimitReader(br, int64(maxResultFile)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxResultFile {
		return nil, fmt.Errorf("%s: more than %d MiB (inflated): a result file holds a line of about 2 KB a run; is it one?", path, maxResultFile>>20)
	}
	return b, nil
}

// maxResultFile bounds a result file as read (inflated): /dev/zero given
// as one was read into memory until the command was killed, and a gzip
// bomb would be. It holds a shard's half a million runs' lines (about 2 KB
// each); a sweep of more is run in more shards. A variable so that a
// test can lower it.
var maxResultFile = 1 << 30

// trim keeps only the metrics the reports use (mean wait, bounded
// slowdown, accuracy, the predictability rates and means), for small
// committed result files.
func trim(l Line) []byte {
	s := l.Summary
	l.Summary = Metrics{MeanWait: s.MeanWait, MeanBSLD: s.MeanBSLD, Accuracy: s.Accuracy, PredRate: s.PredRate,
		PredAbsMean: s.PredAbsMean, DelayRate: s.DelayRate, DelayMean: s.DelayMean, HeelToe: s.HeelToe}
	return encodeLine(l)
}

// located is a result line and where it was read.
type located struct {
	raw  []byte // the line's bytes, newline included
	line Line
	at   string // file:line
}

// collect reads every line of the files and checks it against the spec:
// same hash, a run number of the sweep, the parameters the expansion gives
// that number, no run twice. It returns the lines by run number (nil where
// missing). A truncated last line (no newline) is reported as an error
// unless lenient, when it is ignored (resume will redo it).
func collect(spec *Spec, runs []Run, files []string) ([]*located, error) {
	hash := spec.Hash()
	byRun := make([]*located, len(runs))
	var errs []string
	add := func(format string, a ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, a...))
		} else if len(errs) == 20 {
			errs = append(errs, "… (more errors left out)")
		}
	}
	for _, f := range files {
		b, err := readMaybeGz(f)
		if err != nil {
			return nil, err
		}
		k := 0
		for len(b) > 0 {
			k++
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				add("%s:%d: truncated last line (an interrupted shard: run it again to complete it)", f, k)
				break
			}
			raw := b[:i+1]
			b = b[i+1:]
			if len(bytes.TrimSpace(raw)) == 0 {
				continue
			}
			at := fmt.Sprintf("%s:%d", f, k)
			var l Line
			if err := json.Unmarshal(raw, &l); err != nil {
				add("%s: not a result line: %v", at, err)
				continue
			}
			if l.Spec != hash {
				add("%s: run %d belongs to spec %s, not to %s (%s, hash %s)", at, l.Run, l.Spec, spec.Name, spec.Name, hash)
				continue
			}
			if l.Run < 0 || l.Run >= len(runs) {
				add("%s: run %d outside the sweep's 0..%d", at, l.Run, len(runs)-1)
				continue
			}
			want, _ := json.Marshal(runs[l.Run].Params)
			got, _ := json.Marshal(l.Params)
			if !bytes.Equal(want, got) {
				add("%s: run %d has parameters %s, the spec gives %s", at, l.Run, got, want)
				continue
			}
			if prev := byRun[l.Run]; prev != nil {
				add("%s: run %d duplicated (also at %s)", at, l.Run, prev.at)
				continue
			}
			byRun[l.Run] = &located{raw: raw, line: l, at: at}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%d problem(s):\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
	return byRun, nil
}

// missing lists the absent run numbers as ranges ("3, 7-9").
func missing(byRun []*located) (string, int) {
	var parts []string
	n := 0
	for i := 0; i < len(byRun); i++ {
		if byRun[i] != nil {
			continue
		}
		j := i
		for j+1 < len(byRun) && byRun[j+1] == nil {
			j++
		}
		n += j - i + 1
		if len(parts) < 10 {
			if i == j {
				parts = append(parts, fmt.Sprint(i))
			} else {
				parts = append(parts, fmt.Sprintf("%d-%d", i, j))
			}
		} else if len(parts) == 10 {
			parts = append(parts, "…")
		}
		i = j
	}
	return strings.Join(parts, ", "), n
}

// loadComplete reads result files and requires every run of the sweep.
func loadComplete(spec *Spec, args []string) ([]*located, error) {
	files, others, err := resultFiles(args, spec.Name)
	if err != nil {
		return nil, err
	}
	runs := spec.Expand()
	byRun, err := collect(spec, runs, files)
	if err != nil {
		return nil, err
	}
	if s, n := missing(byRun); n > 0 {
		hint := "run the shards that hold them, or check the directories given"
		if len(others) > 0 {
			hint += "; " + leftOut(others)
		}
		return nil, fmt.Errorf("%d of %d runs missing: %s (%s)", n, len(runs), s, hint)
	}
	return byRun, nil
}

// merge writes the lines in run order (trimmed: only the reports' metrics).
func merge(w io.Writer, spec *Spec, args []string, trimmed bool) (int, error) {
	byRun, err := loadComplete(spec, args)
	if err != nil {
		return 0, err
	}
	for _, l := range byRun {
		b := l.raw
		if trimmed {
			b = trim(l.line)
		}
		if _, err := w.Write(b); err != nil {
			return 0, err
		}
	}
	return len(byRun), nil
}
