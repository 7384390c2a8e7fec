package karnak

import (
	"bytes"
	"cmp"
	"html/template"
	"maps"
	"slices"
	"sync"
)

// chartKey is one queue's charts (queue allJobs: the whole system's).
type chartKey struct {
	sys   *system
	queue string
}

// drawnChart is a queue's charts as drawn in one minute of the service
// clock; mu makes the requests of a new minute wait for one drawing
// instead of each drawing its own.
type drawnChart struct {
	mu     sync.Mutex
	minute int64
	svg    template.HTML
}

// queueCharts returns the waits and cores charts of a queue of sys (it
// exists: the caller checked) as inline SVG. They are drawn at most once
// per queue and minute of the service clock (Config.Now), so a page view
// within the minute copies bytes; the map holds at most one entry per
// queue of each system (and all_jobs).
func (s *Service) queueCharts(sys *system, queue string) template.HTML {
	k := chartKey{sys, queue}
	s.charts.mu.Lock()
	if sys.retired.Load() {
		// Replaced since it was looked up (Drop, Rewind): drawn for
		// this request, not kept (charts.drop has emptied the map of it).
		s.charts.mu.Unlock()
		return s.drawQueueCharts(sys, queue)
	}
	if s.charts.drawn == nil {
		s.charts.drawn = map[chartKey]*drawnChart{}
	}
	d := s.charts.drawn[k]
	if d == nil {
		d = &drawnChart{minute: -1}
		s.charts.drawn[k] = d
	}
	s.charts.mu.Unlock()
	minute := s.now() / 60
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.minute != minute {
		d.svg, d.minute = s.drawQueueCharts(sys, queue), minute
		s.charts.mu.Lock()
		s.charts.draws++
		s.charts.mu.Unlock()
	}
	return d.svg
}

// drawQueueCharts copies a queue's waits of the last chartWindow under
// the system's read lock and its series under the charts' lock, and draws
// them after releasing both.
func (s *Service) drawQueueCharts(sys *system, queue string) template.HTML {
	wc := waitChart{id: "waits", level: "95% quantile at 90% confidence"}
	cc := coresChart{id: "cores"}
	sys.mu.RLock()
	now := s.clockOf(sys)
	from := now - chartWindow
	wc.from, wc.to, cc.from, cc.to = from, now, from, now
	name := queue + "@" + sys.name
	hist := &sys.all
	if q := sys.queues[queue]; q != nil {
		hist = &q.hist
	}
	for _, r := range hist.started {
		if sub := r.at - r.dur; sub >= from && r.at <= now {
			wc.waits = append(wc.waits, timed{sub, float64(r.dur)})
		}
	}
	sys.mu.RUnlock()
	s.charts.mu.Lock()
	if ss := s.charts.series[sys]; ss != nil {
		if queue == allJobs {
			// By queue name, then (the stable sort below) by time: in
			// the map's order, samples of several queues at one time
			// were drawn, and thinned, differently at each drawing.
			for _, name := range slices.Sorted(maps.Keys(ss.queues)) {
				wc.preds = append(wc.preds, window(ss.queues[name].preds, from, now, func(p predSample) int64 { return p.at })...)
			}
			cc.cores = window(ss.all.cores, from, now, func(c coreSample) int64 { return c.at })
		} else if qs := ss.queues[queue]; qs != nil {
			wc.preds = window(qs.preds, from, now, func(p predSample) int64 { return p.at })
			cc.cores = window(qs.cores, from, now, func(c coreSample) int64 { return c.at })
		}
	}
	s.charts.mu.Unlock()
	// Waits are recorded at the start; drawn at the submission.
	slices.SortFunc(wc.waits, func(a, b timed) int { return cmp.Compare(a.at, b.at) })
	slices.SortStableFunc(wc.preds, func(a, b predSample) int { return cmp.Compare(a.at, b.at) })
	wc.title = "Waits on " + name + ": the 7 days to " + stamp(now) + " UTC, with the predictions made at submission"
	cc.title = "Cores on " + name + ": running and waiting, the 7 days to " + stamp(now) + " UTC"
	var b bytes.Buffer
	b.WriteString(`<figure class="chart">`)
	drawWaits(&b, &wc)
	b.WriteString(`<figcaption>Wait of each job that started, at its submission; and the QBETS bound (95% quantile, 90% confidence) and the IBL estimate with its 90% interval that the service gave, at most every 5 minutes, for a job of the shape of one just submitted.</figcaption></figure><figure class="chart">`)
	drawCores(&b, &cc)
	b.WriteString(`<figcaption>Cores of the running jobs and cores asked for by the waiting jobs, every 10 minutes.</figcaption></figure>`)
	return template.HTML(b.String()) //nolint:gosec // drawn here; every text in it is escaped
}

// window is a copy of the part of a time-ordered series in [from, to].
func window[T any](xs []T, from, to int64, at func(T) int64) []T {
	i, _ := slices.BinarySearchFunc(xs, from, func(x T, t int64) int { return cmp.Compare(at(x), t) })
	j, _ := slices.BinarySearchFunc(xs, to+1, func(x T, t int64) int { return cmp.Compare(at(x), t) })
	return slices.Clone(xs[i:max(i, j)])
}
