package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/batchq/batchq/examples/internal/figures"
	"github.com/batchq/batchq/examples/internal/figures/fromlib"
	"github.com/batchq/batchq/internal/tracetest"
)

// plotOptions are the -plot flags: weekly jobs and processes per user with
// the detected flurries marked (Tsafrir's thesis Figures 6.8 and 6.9).
type plotOptions struct {
	dir, logs string
}

func (p *plotOptions) flags(fs *flag.FlagSet) {
	fs.StringVar(&p.dir, "plot", "", "directory to write the weekly activity figures to (jobs and processes per week, flurries shaded; PNG and SVG)")
	fs.StringVar(&p.logs, "plot-logs", "SDSC-SP2,LANL-CM5", "logs to plot with -plot: comma-separated prefixes of trace file names")
}

// plotUsers is how many flurry users get their own line: the users with
// the most flurry jobs. More lines make the weeks unreadable.
const plotUsers = 5

// plotActivity draws the weekly activity of each log of spec into outDir.
func plotActivity(w io.Writer, traces, outDir, spec string, st setup) error {
	for _, prefix := range strings.Split(spec, ",") {
		prefix = strings.TrimSpace(prefix)
		if prefix == "" {
			continue
		}
		files, err := plotLog(traces, outDir, prefix, st)
		if err != nil {
			return fmt.Errorf("-plot-logs %q: %w", prefix, err)
		}
		fmt.Fprintf(w, "Weekly activity, %s: %s\n", prefix, strings.Join(files, ", "))
	}
	return nil
}

// plotLog draws one log: its weekly arrivals, the plotUsers users with the
// most flurry jobs, and every flurry DetectFlurries (at its defaults, as
// the experiments run it) suspects.
func plotLog(traces, outDir, prefix string, st setup) ([]string, error) {
	path, err := tracetest.FindPrefix(traces, prefix)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	jobs, err := load(traces, name, st.sane, st.notes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a, _, ok, err := fromlib.Activity(jobs, "Weekly arrivals, "+tracetest.ShortName(name), st.det, plotUsers)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s has no user IDs: no flurries to attribute", name)
	}
	return figures.Activities(outDir, "flurries-"+strings.ToLower(tracetest.ShortName(name))+"-activity", a)
}
