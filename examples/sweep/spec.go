package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/thesislogs"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/predict"
)

// Spec is a sweep: the cross product of its axes, expanded by Expand into
// numbered runs. It is read from a JSON file (unknown fields are an error);
// every axis but traces and policies has a default of one value.
type Spec struct {
	// Name labels the sweep (result file names, the Slurm job name).
	Name string `json:"name"`
	// Report selects what the report command prints from the results:
	// "table48", "table410" (Tables 4.10 and 4.11), "fig43", "study" or ""
	// (a plain table of every run).
	Report string `json:"report,omitempty"`
	// Traces are the logs. {"log": "KTH"} is one of the thesis's four
	// (SDSC, CTC, KTH, BLUE, with the thesis's machine sizes); otherwise
	// give name, file (relative to the traces directory unless absolute)
	// and machine (0: the header's size).
	Traces []Trace `json:"traces"`
	// Policies are sched.LookupPreset names ("EASY", "EASY++", "X2+", …).
	Policies []string `json:"policies"`
	// Predictor, when present, replaces the user-history predictor and the
	// corrector of every policy that has one (EASY_PRED, EASY+, EASY++,
	// X2+, X2++, SJF+). Policies without one run once, unchanged.
	Predictor *PredictorAxes `json:"predictor,omitempty"`
	// Loads are target offered loads (arrivals scaled by load.Scale
	// from the log's own load.Offered); 0 is the log as recorded.
	// Default [0].
	Loads []float64 `json:"loads,omitempty"`
	// Seeds: 0 is the log as recorded; s > 0 shakes the arrivals with
	// shake.Shake (10% of jobs by ±60 s, seed s; thesis §6.5.5) before
	// any load scaling. Default [0].
	Seeds []uint64 `json:"seeds,omitempty"`
	// Options are sched.Config switches, each an axis.
	Options OptionAxes `json:"options,omitempty"`
	// HeelToe adds the heel-and-toe measure (HeelToe, Table 4.11) to every
	// run's summary.
	HeelToe bool `json:"heel_toe,omitempty"`
	// Lenient skips the malformed lines of every trace, counted and said
	// per trace by run (its summary and sidecar), as simulate's -lenient;
	// without it a malformed line is an error. In the spec, not a flag of
	// run: the hash covers it, so a shard is resumed, merged and run by
	// the generated Slurm script reading its traces the same way (absent
	// when false: the hash of a spec without it is as it was).
	Lenient bool `json:"lenient,omitempty"`
}

// Trace is one log of a sweep.
type Trace struct {
	Log     string `json:"log,omitempty"`
	Name    string `json:"name,omitempty"`
	File    string `json:"file,omitempty"`
	Machine int64  `json:"machine,omitempty"`
}

// PredictorAxes are the §4.6 tuning parameters (predict.HistoryConfig and
// the corrector). An absent axis is the EASY++ default (window 2, all,
// full, average, estimate fallback, no propagation, estimate correction).
type PredictorAxes struct {
	Window     IntList  `json:"window,omitempty"`
	Type       []string `json:"type,omitempty"`       // all, immediate, extended
	Metric     []string `json:"metric,omitempty"`     // avg, median, min, max
	Fallback   []string `json:"fallback,omitempty"`   // estimate, relative
	Partial    []bool   `json:"partial,omitempty"`    // false: full window needed
	Propagate  []bool   `json:"propagate,omitempty"`  // re-predict waiting jobs
	Correction []string `json:"correction,omitempty"` // estimate, gradual, exponential, none
}

// OptionAxes are the simulator switches of examples/simulate.
type OptionAxes struct {
	PerEvent []bool   `json:"per_event,omitempty"` // sched.Config.PerEventPass; default [false]
	Ties     []bool   `json:"ties,omitempty"`      // sched.Config.ShadowTies
	Kill     []bool   `json:"kill,omitempty"`      // sched.Config.KillAtEstimate
	Compat   []string `json:"compat,omitempty"`    // none, pyss, predictsim (Config.WithPeer)
}

// IntList is a JSON list of integers and "a-b" ranges: [1, "3-5"] is 1,3,4,5.
type IntList []int

// maxIntList bounds the values of one IntList, ranges expanded. The bound
// is on the whole list, not on each range: 20,000 copies of "0-10000" (a
// 220 KB spec) expanded to 2·10^8 values, 18 s and 4.9 GB, before the
// first was found out of bounds.
const maxIntList = 10001

// UnmarshalJSON reads numbers and "a-b" strings.
func (l *IntList) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("want a list of integers and \"a-b\" ranges: %w", err)
	}
	var out IntList
	for _, r := range raw {
		if len(out) >= maxIntList {
			return fmt.Errorf("more than %d values", maxIntList)
		}
		var n int
		if err := json.Unmarshal(r, &n); err == nil {
			out = append(out, n)
			continue
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return fmt.Errorf("%s: want an integer or an \"a-b\" range", r)
		}
		a, z, ok := strings.Cut(s, "-")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(z))
		// uint: "-9223372036854775808-9223372036854775807" made hi-lo
		// wrap to -1 and pass; and n++ past the largest int wraps, so
		// "9223372036854775807-9223372036854775807" looped for ever.
		if !ok || err1 != nil || err2 != nil || hi < lo {
			return fmt.Errorf("%q: want an \"a-b\" range with a ≤ b", s)
		}
		if uint(hi)-uint(lo) >= maxIntList-uint(len(out)) {
			return fmt.Errorf("%q: more than %d values in the list", s, maxIntList)
		}
		for k := range uint(hi) - uint(lo) + 1 {
			out = append(out, lo+int(k))
		}
	}
	*l = out
	return nil
}

// Params are one run's parameters: a point of the spec's cross product.
// They are written, in this field order, into every result line.
type Params struct {
	Trace     string           `json:"trace"`
	File      string           `json:"file"`
	Machine   int64            `json:"machine"`
	Load      float64          `json:"load"`
	Seed      uint64           `json:"seed"`
	PerEvent  bool             `json:"per_event"`
	Ties      bool             `json:"ties"`
	Kill      bool             `json:"kill"`
	Compat    string           `json:"compat"`
	Policy    string           `json:"policy"`
	Predictor *PredictorParams `json:"predictor,omitempty"`
	HeelToe   bool             `json:"heel_toe,omitempty"`
}

// PredictorParams is one point of PredictorAxes.
type PredictorParams struct {
	Window     int    `json:"window"`
	Type       string `json:"type"`
	Metric     string `json:"metric"`
	Fallback   string `json:"fallback"`
	Partial    bool   `json:"partial"`
	Propagate  bool   `json:"propagate"`
	Correction string `json:"correction"`
}

// Run is one numbered simulation.
type Run struct {
	N int
	Params
}

var (
	windowTypes = map[string]string{"all": "all", "immediate": "immediate", "extended": "extended"}   // predict.HistoryConfig.Type
	metricNames = map[string]string{"avg": "average", "median": "median", "min": "min", "max": "max"} // predict.HistoryConfig.Metric
	fallbacks   = map[string]bool{"estimate": false, "relative": true}                                // predict.HistoryConfig.RelativeFallback
	correctors  = map[string]sched.Corrector{"estimate": sched.EstimateCorrector{}, "gradual": gradualCorrector{}, "exponential": exponentialCorrector{}, "none": nil}
)

// maxNameLen bounds a spec's name: the longest result file it names
// (NAME.shard-i-of-N.jsonl.meta.json, i and N up to 7 digits) then fits
// the 255 bytes of a file name.
const maxNameLen = 200

// maxSpecFile bounds a spec file: one of 200,000 seeds is 1.3 MB.
const maxSpecFile = 64 << 20

// ReadSpec reads and validates a spec file.
func ReadSpec(path string) (*Spec, error) {
	b, err := cli.ReadText(path, "spec", maxSpecFile)
	if err != nil {
		return nil, err
	}
	s, err := ParseSpec(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseSpec decodes a spec (unknown fields and a key given twice in one
// object are errors), fills the defaults and validates it.
func ParseSpec(b []byte) (*Spec, error) {
	var s Spec
	// A byte order mark, as editors on Windows write one, is not JSON's
	// but says nothing: "invalid character 'ï'" named no fault of the
	// spec. An empty file was "spec: EOF".
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if len(bytes.Trim(b, " \t\r\n")) == 0 {
		return nil, errors.New("spec: the file is empty (want a JSON object)")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	// Only JSON's white space may follow (dec.More is false before a '}'
	// or ']', so a spec with a closing brace too many was taken).
	if len(bytes.Trim(b[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, errors.New("spec: trailing data after the JSON object")
	}
	if err := repeatedKey(b); err != nil {
		return nil, err
	}
	if err := s.normalize(); err != nil {
		return nil, err
	}
	return &s, nil
}

// normalize fills defaults, resolves thesis log names and checks every value.
func (s *Spec) normalize() error {
	if s.Name == "" {
		return errors.New("spec: name is required")
	}
	if len(s.Name) > maxNameLen {
		// It names files (NAME.shard-i-of-N.jsonl.meta.json): a longer one
		// failed at the first write, its error line as long as the name.
		return fmt.Errorf("spec: name %q… (%d bytes): at most %d (it names files)", s.Name[:32], len(s.Name), maxNameLen)
	}
	for _, c := range s.Name {
		if !(c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return fmt.Errorf("spec: name %q: use letters, digits, '-', '_' and '.' only (it names files)", s.Name)
		}
	}
	switch s.Report {
	case "", "table48", "table410", "fig43", "study":
	default:
		return fmt.Errorf("spec: report %q: want table48, table410, fig43, study or nothing", s.Report)
	}
	if len(s.Traces) == 0 {
		return errors.New("spec: traces: at least one trace is required")
	}
	seen := map[string]bool{}
	for i := range s.Traces {
		t := &s.Traces[i]
		if t.Log != "" {
			l, ok := thesislogs.Lookup(t.Log)
			if !ok {
				return fmt.Errorf("spec: traces[%d]: unknown log %q (want %s, or give name, file and machine)", i, t.Log, thesislogs.Names())
			}
			if t.Name == "" {
				t.Name = l.Name
			}
			if t.File == "" {
				t.File = l.File
			}
			if t.Machine == 0 {
				t.Machine = l.P
			}
			t.Log = ""
		}
		if t.Name == "" || t.File == "" {
			return fmt.Errorf("spec: traces[%d]: want \"log\", or \"name\" and \"file\"", i)
		}
		if t.Machine < 0 {
			return fmt.Errorf("spec: traces[%d]: machine %d must be positive (0: the header's)", i, t.Machine)
		}
		if seen[t.Name] {
			return fmt.Errorf("spec: traces[%d]: name %q twice", i, t.Name)
		}
		seen[t.Name] = true
	}
	if len(s.Policies) == 0 {
		return errors.New("spec: policies: at least one is required")
	}
	for i, p := range s.Policies {
		pr, ok := sched.LookupPreset(p)
		if !ok {
			return fmt.Errorf("spec: policies[%d]: unknown policy %q", i, p)
		}
		s.Policies[i] = pr.Name
	}
	if len(s.Loads) == 0 {
		s.Loads = []float64{0}
	}
	for i, l := range s.Loads {
		if !(l >= 0 && l <= 10) {
			return fmt.Errorf("spec: loads[%d]: %v outside [0, 10] (0 is the log as recorded)", i, l)
		}
	}
	if len(s.Seeds) == 0 {
		s.Seeds = []uint64{0}
	}
	o := &s.Options
	if len(o.PerEvent) == 0 {
		o.PerEvent = []bool{false}
	}
	if len(o.Ties) == 0 {
		o.Ties = []bool{false}
	}
	if len(o.Kill) == 0 {
		o.Kill = []bool{false}
	}
	if len(o.Compat) == 0 {
		o.Compat = []string{"none"}
	}
	for i, c := range o.Compat {
		var p sched.Peer
		if err := p.UnmarshalText([]byte(c)); err != nil {
			return fmt.Errorf("spec: options.compat[%d]: %q: want none, pyss or predictsim", i, c)
		}
		o.Compat[i] = p.String()
	}
	if a := s.Predictor; a != nil {
		if len(a.Window) == 0 {
			a.Window = IntList{2}
		}
		for i, w := range a.Window {
			if w < 1 || w > 1000 {
				return fmt.Errorf("spec: predictor.window[%d]: %d outside 1..1000", i, w)
			}
		}
		for _, ax := range []struct {
			name string
			vals *[]string
			def  string
			ok   func(string) bool
		}{
			{"type", &a.Type, "all", func(v string) bool { _, ok := windowTypes[v]; return ok }},
			{"metric", &a.Metric, "avg", func(v string) bool { _, ok := metricNames[v]; return ok }},
			{"fallback", &a.Fallback, "estimate", func(v string) bool { _, ok := fallbacks[v]; return ok }},
			{"correction", &a.Correction, "estimate", func(v string) bool { _, ok := correctors[v]; return ok }},
		} {
			if len(*ax.vals) == 0 {
				*ax.vals = []string{ax.def}
			}
			for i, v := range *ax.vals {
				if !ax.ok(v) {
					return fmt.Errorf("spec: predictor.%s[%d]: unknown value %q", ax.name, i, v)
				}
			}
		}
		if len(a.Partial) == 0 {
			a.Partial = []bool{false}
		}
		if len(a.Propagate) == 0 {
			a.Propagate = []bool{false}
		}
	}
	// A value given twice on an axis made every run of it twice: the
	// same parameters, the work done again and the tables' rows doubled
	// (policies compared by preset, EASY and easy alike).
	if err := twice(s); err != nil {
		return err
	}
	if n := s.runs(); n > maxRuns {
		return fmt.Errorf("spec: %d runs or more, above the limit of %d (Expand holds them all in memory)", n, maxRuns)
	}
	return nil
}

// twice reports the first axis of s, normalized, that holds a value
// twice, naming both places.
func twice(s *Spec) error {
	o := &s.Options
	errs := []error{
		repeated("policies", s.Policies), repeated("loads", s.Loads), repeated("seeds", s.Seeds),
		repeated("options.per_event", o.PerEvent), repeated("options.ties", o.Ties),
		repeated("options.kill", o.Kill), repeated("options.compat", o.Compat),
	}
	if a := s.Predictor; a != nil {
		errs = append(errs, repeated("predictor.window", a.Window), repeated("predictor.type", a.Type),
			repeated("predictor.metric", a.Metric), repeated("predictor.fallback", a.Fallback),
			repeated("predictor.partial", a.Partial), repeated("predictor.propagate", a.Propagate),
			repeated("predictor.correction", a.Correction))
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// repeated is twice for one axis: an error naming the first value given
// twice, or nil. (A map: an axis may be long, up to maxRuns values.)
func repeated[T comparable](axis string, vals []T) error {
	at := make(map[T]int, len(vals))
	for j, v := range vals {
		if i, ok := at[v]; ok {
			return fmt.Errorf("spec: %s[%d]: %v, as %s[%d]: each of its runs would be made twice", axis, j, v, axis, i)
		}
		at[v] = j
	}
	return nil
}

// maxRuns bounds a sweep: 30 times the thesis's whole study (34,560
// runs), and small enough for Expand's list.
const maxRuns = 1 << 20

// runs is the number of runs Expand lists, saturating above maxRuns (a
// short spec can name a product of axes far beyond memory).
func (s *Spec) runs() int {
	mul := func(n, k int) int { return min(n*min(k, maxRuns+1), maxRuns+1) }
	o := s.Options
	per := 1
	for _, k := range []int{len(s.Loads), len(s.Seeds), len(o.PerEvent), len(o.Ties), len(o.Kill), len(o.Compat)} {
		per = mul(per, k)
	}
	preds := 1
	if a := s.Predictor; a != nil {
		for _, k := range []int{len(a.Window), len(a.Type), len(a.Metric), len(a.Fallback), len(a.Partial), len(a.Propagate), len(a.Correction)} {
			preds = mul(preds, k)
		}
	}
	pols := 0
	for _, pol := range s.Policies {
		if s.Predictor != nil && hasHistory(pol) {
			pols = min(pols+preds, maxRuns+1)
		} else {
			pols = min(pols+1, maxRuns+1)
		}
	}
	return mul(mul(len(s.Traces), per), pols)
}

// Hash identifies the normalized spec: the SHA-256 of its canonical JSON,
// first 16 hex digits. Formatting, key order and defaults written out or
// left implicit do not change it; the traces directory is not part of it.
func (s *Spec) Hash() string {
	b, _ := json.Marshal(s)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// hasHistory reports whether a preset's predictor is (or doubles) a
// user-history predictor, which the predictor axes replace.
func hasHistory(policy string) bool {
	pr, _ := sched.LookupPreset(policy)
	_, ok := replaceHistory(pr.New(1).Predictor, predict.HistoryConfig{})
	return ok
}

// replaceHistory returns p with its user-history predictor rebuilt from cfg.
func replaceHistory(p sched.RuntimePredictor, cfg predict.HistoryConfig) (sched.RuntimePredictor, bool) {
	switch h := p.(type) {
	case *predict.UserHistory:
		n, err := predict.NewUserHistory(cfg)
		if err != nil {
			return p, false
		}
		return n, true
	case predict.X2:
		if inner, ok := h.P.(sched.RuntimePredictor); ok && inner != nil {
			if n, ok := replaceHistory(inner, cfg); ok {
				return predict.X2{P: n}, true
			}
		}
	}
	return p, false
}

// Expand lists the runs, numbered from 0. The order is fixed: traces (as
// listed) ▸ loads ▸ seeds ▸ per_event ▸ ties ▸ kill ▸ compat ▸ policies ▸
// and, for policies with a history predictor, correction ▸ fallback ▸
// propagate ▸ partial ▸ metric ▸ type ▸ window, the last varying fastest.
// Every axis keeps the order of its values in the spec.
func (s *Spec) Expand() []Run {
	var runs []Run
	var preds []*PredictorParams
	if a := s.Predictor; a != nil {
		for _, c := range a.Correction {
			for _, f := range a.Fallback {
				for _, pg := range a.Propagate {
					for _, pa := range a.Partial {
						for _, m := range a.Metric {
							for _, ty := range a.Type {
								for _, w := range a.Window {
									preds = append(preds, &PredictorParams{Window: w, Type: ty, Metric: m, Fallback: f, Partial: pa, Propagate: pg, Correction: c})
								}
							}
						}
					}
				}
			}
		}
	}
	o := s.Options
	for _, t := range s.Traces {
		for _, l := range s.Loads {
			for _, seed := range s.Seeds {
				for _, pe := range o.PerEvent {
					for _, ti := range o.Ties {
						for _, k := range o.Kill {
							for _, c := range o.Compat {
								for _, pol := range s.Policies {
									p := Params{Trace: t.Name, File: t.File, Machine: t.Machine, Load: l, Seed: seed,
										PerEvent: pe, Ties: ti, Kill: k, Compat: c, Policy: pol, HeelToe: s.HeelToe}
									if preds == nil || !hasHistory(pol) {
										runs = append(runs, Run{len(runs), p})
										continue
									}
									for _, pp := range preds {
										p.Predictor = pp
										runs = append(runs, Run{len(runs), p})
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return runs
}

// Config builds the simulated configuration of a run on a machine of
// size P: the preset, then the predictor parameters, then -compat, then the
// switches (which only switch an option on, as in examples/simulate).
func (p Params) Config(P int64) (sched.Config, error) {
	pr, ok := sched.LookupPreset(p.Policy)
	if !ok {
		return sched.Config{}, fmt.Errorf("unknown policy %q", p.Policy)
	}
	cfg := pr.New(P)
	if pp := p.Predictor; pp != nil {
		hc := predict.HistoryConfig{Window: pp.Window, Type: windowTypes[pp.Type], Metric: metricNames[pp.Metric],
			RelativeFallback: fallbacks[pp.Fallback], Partial: pp.Partial, Propagate: pp.Propagate}
		np, ok := replaceHistory(cfg.Predictor, hc)
		if !ok {
			return sched.Config{}, fmt.Errorf("policy %s has no history predictor to configure", p.Policy)
		}
		cfg.Predictor = np
		cfg.Corrector = correctors[pp.Correction]
	}
	var peer sched.Peer
	if err := peer.UnmarshalText([]byte(p.Compat)); err != nil {
		return sched.Config{}, err
	}
	if peer != sched.PeerNone {
		cfg = cfg.WithPeer(peer)
	}
	cfg.PerEventPass = cfg.PerEventPass || p.PerEvent
	cfg.ShadowTies = cfg.ShadowTies || p.Ties
	cfg.KillAtEstimate = cfg.KillAtEstimate || p.Kill
	return cfg, cfg.Validate()
}
