package main

import (
	"fmt"
	"log"
	"slices"
	"strconv"
	"strings"

	"github.com/batchq/batchq/qbets/ibl"
)

// Options are the service's settings; the zero value is the default
// service (the serve command's flags set them).
type Options struct {
	// History is how many of a queue's latest arrivals and starts its
	// QBETS predictors learn from: the feed keeps History to 2·History
	// items, and every predictor is rebuilt from the kept ones when the
	// feed drops its oldest half. 0 means maxFeed (2^20).
	History int
	// Neighbors is the IBL neighbour count N per system, both experience
	// bases; the key "" applies to every system not named. A system in
	// neither gets ibl.DefaultN (Karnak's 56).
	Neighbors map[string]int
	// PruneEvery is the number of stored events between two prunings of
	// the store (retain.go); 0 means 10,000, < 0 never prunes.
	PruneEvery int
	// Logf reports what the service does in the background (prunings and
	// their errors); nil means log.Printf.
	Logf func(format string, a ...any)

	baseSize int // IBL experience-base capacity; 0 = ibl.DefaultMaxSize (tests shrink it)
	// ignore names one bound on the cut that retainFrom leaves out, for
	// the test that shows each is needed; "" in the service.
	ignore string
	// eager prunes every PruneEvery events, however many the last
	// pruning read (tests: more prunings, more chances to go wrong).
	eager bool
}

const defaultPruneEvery = 10000

// withDefaults validates o and fills in the defaults; errors name the
// setting (its serve flag).
func (o Options) withDefaults() (Options, error) {
	if o.History < 0 {
		return o, fmt.Errorf("history: %d, want ≥ 1 arrivals and starts per queue (0 = %d)", o.History, maxFeed)
	}
	if o.History == 0 {
		o.History = maxFeed
	}
	if o.PruneEvery == 0 {
		o.PruneEvery = defaultPruneEvery
	}
	if o.baseSize == 0 {
		o.baseSize = ibl.DefaultMaxSize
	}
	if o.Logf == nil {
		o.Logf = log.Printf
	}
	names := make([]string, 0, len(o.Neighbors))
	for name := range o.Neighbors {
		names = append(names, name)
	}
	slices.Sort(names) // the first bad one, deterministically
	for _, name := range names {
		if err := checkNeighbors(name, o.Neighbors[name], o.baseSize); err != nil {
			return o, err
		}
	}
	return o, nil
}

// checkNeighbors validates one neighbour count: at least 1, and at most
// the experience base's capacity (beyond it every estimate would average
// the whole base).
func checkNeighbors(system string, n, baseSize int) error {
	field := "neighbors"
	if system != "" {
		if !validName(system) {
			return fmt.Errorf("neighbors: %q is not a system name", system)
		}
		field = "neighbors[" + system + "]"
	}
	if n < 1 || n > baseSize {
		return fmt.Errorf("%s: %d, want a neighbour count in 1–%d (the experience base's size)", field, n, baseSize)
	}
	return nil
}

// neighborsFor is the IBL neighbour count of a system.
func (o *Options) neighborsFor(system string) int {
	if n, ok := o.Neighbors[system]; ok {
		return n
	}
	if n, ok := o.Neighbors[""]; ok {
		return n
	}
	return ibl.DefaultN
}

// neighborsFlag is serve's repeatable -neighbors: "N" for every system,
// "system=N" for one.
type neighborsFlag map[string]int

func (f neighborsFlag) String() string {
	parts := make([]string, 0, len(f))
	for name, n := range f {
		if name == "" {
			parts = append(parts, strconv.Itoa(n))
		} else {
			parts = append(parts, fmt.Sprintf("%s=%d", name, n))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func (f neighborsFlag) Set(v string) error {
	name, num, ok := strings.Cut(v, "=")
	if !ok {
		name, num = "", v
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return fmt.Errorf("%q, want N or system=N with N an integer", v)
	}
	if err := checkNeighbors(name, n, ibl.DefaultMaxSize); err != nil {
		return err
	}
	f[name] = n
	return nil
}
