package karnak

import (
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/batchq/batchq/internal/textclip"
)

// predictForm is the form for a hypothetical job (Karnak's
// predict.html, spec karnak-ibl-service §2.3) as the user filled it in,
// the errors beside its fields, and the answer once it is valid.
type predictForm struct {
	Action string
	// As typed, shown again: at most maxEcho bytes each (boundTyped).
	Cores, WallTime, Quantile, Confidence, Within string
	Levels                                        []Level // the pairs the service answers: the choices offered
	Systems                                       []locGroup
	// More is the systems whose queues the form does not list (compact:
	// more than formMaxChoices queues in all), to check and show.
	More    template.HTML
	Compact bool
	// Left says how many of the locations asked for the form leaves out,
	// not being queue@system ("" when none: see queueLocations), or past
	// maxLocations.
	Left     string
	Errors   map[string]string // field name → message
	Answered bool
	Results  []Prediction
}

// locGroup is the queues of one system as checkboxes (or, last, the
// locations asked for that the service does not know).
type locGroup struct {
	System string
	Queues []locChoice
	// HTML is the group as the template writes it, written by
	// groupHTML for a known system (empty: the template writes it).
	HTML template.HTML
	// shown: the system's queues are listed because they were asked to
	// be (?sys=) in a compact form, which keeps asking (a hidden sys).
	shown bool
}

// formMaxChoices bounds the queues the form lists as checkboxes. With
// every queue of every system listed, the form was 2.2 MB at the default
// limits (256 systems of 64 queues; 5.7 MB with names of 64 bytes), the
// page anyone who asks about a hypothetical job loads first. Beyond the
// bound the form is compact: it lists the systems, each a checkbox
// (sys), and the queues of the systems checked (Show queues) or of the
// queues asked for (a system's page links to the form with its queues
// checked), up to the bound; the rest stay systems
// (TestFormCompactAtDefaultLimits).
const formMaxChoices = 512

// formMaxSystems bounds the systems a compact form lists as checkboxes,
// those checked aside (at most maxParams): they were all listed, and
// an operator's MaxSystems made the form as large as every queue had
// (5,000 systems: 498 KB; TestFormBoundedAnyLimits). The default
// MaxSystems, so that at the default limits every system is listed.
// The systems beyond are reached from their pages (the list of
// systems), whose link to the form lists their queues.
const formMaxSystems = 256

// groupHTML writes a known system's group of checkboxes as the form's
// template does, byte for byte (TestFormGroupsAsTemplate), without it:
// the template spent some 30 µs a checkbox in reflection and escapers,
// and at the default limits (256 systems of 64 queues) the form, the
// first page of anyone who asks about a hypothetical job, cost 450 ms
// and 28 MB a request (TestFormCostBounded). System and queue names are
// names (letters, digits, '.', '_', '-'), which escaping leaves as they
// are; they are escaped all the same.
func groupHTML(g *locGroup) template.HTML {
	var b strings.Builder
	b.Grow(64 + len(g.Queues)*(112+len(g.System)+2*len(g.Queues[0].Value)))
	b.WriteString("<div class=\"system\">\n<p class=\"sysname\">")
	b.WriteString(template.HTMLEscapeString(g.System))
	b.WriteString("</p>\n")
	if g.shown {
		b.WriteString(`<input type="hidden" name="sys" value="`)
		b.WriteString(template.HTMLEscapeString(g.System))
		b.WriteString("\"/>\n")
	}
	for _, c := range g.Queues {
		id, v := template.HTMLEscapeString(c.ID), template.HTMLEscapeString(c.Value)
		b.WriteString(`<label class="check" for="`)
		b.WriteString(id)
		b.WriteString(`"><input type="checkbox" id="`)
		b.WriteString(id)
		b.WriteString(`" name="loc" value="`)
		b.WriteString(v)
		b.WriteString(`"`)
		if c.Checked {
			b.WriteString(` checked="checked"`)
		}
		b.WriteString("/> ")
		b.WriteString(v)
		b.WriteString("</label>\n")
	}
	b.WriteString("</div>\n")
	return template.HTML(b.String()) //nolint:gosec // every value in it is escaped
}

type locChoice struct {
	ID, Value string
	Checked   bool
}

// levelsForm is the queued-job prediction page's form: the levels to ask
// for again.
type levelsForm struct {
	Action                       string
	Quantile, Confidence, Within string
	Levels                       []Level
}

func levelsOf(r *http.Request, levels []Level) *levelsForm {
	v := r.URL.Query()
	f := &levelsForm{Action: r.URL.Path, Quantile: v.Get("quantile"), Confidence: v.Get("confidence"), Within: v.Get("within"), Levels: levels}
	if f.Quantile == "" {
		f.Quantile = itoa(defaultQuantile)
	}
	if f.Confidence == "" {
		f.Confidence = itoa(defaultConfidence)
	}
	return f
}

// predictPage answers GET /karnak/{waittime,starttime}/predict.html: the
// empty form, or, once submitted (the query has cores), the form again
// with each invalid field's error beside it (400), or with the answer
// for each location below it. A GET form: asking is a read, so the
// answer can be bookmarked and needs no token.
func (s *Service) predictPage(w http.ResponseWriter, r *http.Request) {
	if err := query(r.URL.RawQuery).checkLists(formLists, formParams...); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.predictForm(w, r, r.URL.Query(), "") // bounded by checkRequestLine
}

// formParams are the parameters predictForm reads. One whose pair cannot
// be read (a malformed %-escape, a ';': never in what a browser submits)
// is a 400 naming it, as on the lists: URL.Query skipped it, so that
// ?cores=%zz showed the empty form, ?show=%zz asked for a prediction
// and ?quantile=50;x answered the default quantile, each a 200
// (TestFormQuerySkippedRefused).
var formParams = []string{"loc", "queue", "cores", "wallTime", "hours", "minutes", "quantile", "confidence", "within", "show", "sys"}

// formLists are the form's parameters given once a value (a location, a
// system): the others, given twice, are a 400 (query.check).
var formLists = []string{"loc", "queue", "sys"}

// predictForm is predictPage for the query v; overlong, when not "", is
// why the query was too long to read whole (formOverlong): the form is
// then shown again with it, asking nothing.
func (s *Service) predictForm(w http.ResponseWriter, r *http.Request, v url.Values, overlong string) {
	start := strings.HasPrefix(r.URL.Path, "/karnak/starttime/")
	f := &predictForm{Action: r.URL.Path, Cores: "1", WallTime: "01:00:00", Quantile: itoa(defaultQuantile),
		Confidence: itoa(defaultConfidence), Levels: s.opt.Levels, Errors: map[string]string{}}
	status := http.StatusOK
	// Karnak's own form named the locations queue=queue@system and the
	// wall time hours= and minutes= (spec §2.3); both are understood.
	locs := slices.Concat(v["loc"], v["queue"])
	_, asked := v["cores"]
	if asked {
		// Levels left empty (or not sent, as from a link) keep their
		// defaults; the job's size and time must be given.
		f.Cores, f.WallTime, f.Within = v.Get("cores"), v.Get("wallTime"), v.Get("within")
		if !v.Has("wallTime") && (v.Has("hours") || v.Has("minutes")) {
			f.WallTime = cmp.Or(v.Get("hours"), "0") + ":" + cmp.Or(v.Get("minutes"), "0") + ":00"
		}
		f.Quantile = cmp.Or(strings.TrimSpace(v.Get("quantile")), f.Quantile)
		f.Confidence = cmp.Or(strings.TrimSpace(v.Get("confidence")), f.Confidence)
	}
	f.boundTyped()
	switch {
	case overlong != "":
		f.Errors["loc"], status = overlong, http.StatusRequestURITooLong
	case asked && !v.Has("show"): // "Show queues" asks for the systems' queues, not a prediction
		req := f.validate(locs)
		pay := s.payer(r)
		if len(f.Errors) == 0 {
			if err := pay(len(req.Locations)-1, locationsCharged(len(req.Locations))); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		if len(f.Errors) == 0 {
			ps, err := s.predictHypothetical(req, pay)
			if err = s.internal(err); err != nil { // (a cause not the service's own is numbered, not shown)
				f.Errors["loc"], status = err.Error(), statusOf(err)
				retryAfter(w, err)
			} else {
				f.Answered, f.Results = true, ps
			}
		} else {
			status = http.StatusBadRequest
		}
	case len(f.Errors) > 0:
		// Show queues with a field typed longer than maxEcho: the form
		// shows it clipped, with its error, and says so with a 400 as
		// every other answer that refuses a value does (it was a 200
		// with the error: a script or a cache took the clipped form for
		// the one asked for). The page is the same for the user, who
		// sees the error before asking for a prediction. A field merely
		// invalid is not checked until a prediction is asked for.
		status = http.StatusBadRequest
	}
	shown, left := queueLocations(locs)
	if left > 0 {
		f.Left = fmt.Sprintf("%d of the queues chosen are not queue@system and are left out of the form (the first: %q)", left, clip(firstMalformed(locs)))
	}
	if len(shown) > maxLocations { // (locationChoices checks the first maxLocations)
		more := fmt.Sprintf("%d queues chosen: the form checks the first %d (a prediction asks about at most %d), not the others", len(shown), maxLocations, maxLocations)
		f.Left = strings.TrimPrefix(f.Left+"; "+more, "; ")
	}
	f.Systems, f.More = s.locationChoices(shown, v["sys"])
	f.Compact = f.More != ""
	p := &page{Title: "Predict a job's wait", Crumbs: []link{{"/karnak/system/status.html", "Systems"}}, Form: f}
	if start {
		p.Title = "Predict a job's start"
	}
	s.renderPage(w, r, status, "predict", p)
}

// maxEcho bounds what the form shows again of a value typed (a field, a
// location's name): a form shown again with its errors copied every
// value whole, a location twice, and escaped ('"' is 5 bytes), so a
// 64 KiB query came back as 330 KB (a field) or 660 KB (the locations,
// a quantile), ten times its size (TestFormEchoBounded). No valid value
// is as long, leading zeros aside: a field longer is refused, shown
// clipped; a location longer is no queue@system, left out (queueLocations).
const maxEcho = 64

// boundTyped clips each field typed longer than maxEcho, its error
// saying so (validate keeps that error, the first).
func (f *predictForm) boundTyped() {
	for _, fl := range []struct {
		name string
		v    *string
	}{{"cores", &f.Cores}, {"wallTime", &f.WallTime}, {"quantile", &f.Quantile}, {"confidence", &f.Confidence}, {"within", &f.Within}} {
		if len(*fl.v) > maxEcho {
			f.Errors[fl.name] = fmt.Sprintf("%d bytes typed, at most %d (shown clipped)", len(*fl.v), maxEcho)
			*fl.v = clip(*fl.v)
		}
	}
}

// queueLocations is the locations of asked that are queue@system (two
// names: at most 129 bytes, nothing to escape), which the form shows
// again as checkboxes, and how many others it leaves out: it showed
// every one, twice, escaped, and they could not be asked for anyway.
func queueLocations(asked []string) (shown []string, left int) {
	shown = make([]string, 0, len(asked))
	for _, l := range asked {
		if locationName(l) {
			shown = append(shown, l)
		} else {
			left++
		}
	}
	return shown, left
}

func firstMalformed(asked []string) string {
	i := slices.IndexFunc(asked, func(l string) bool { return !locationName(l) })
	return asked[i]
}

// locationName reports whether l is queue@system, both names.
func locationName(l string) bool {
	q, sys, ok := strings.Cut(l, "@")
	return ok && validName(q) && validName(sys)
}

// validate checks each field as typed, recording an error beside each bad
// one (unless one is there already: boundTyped's), and returns the
// request they make.
func (f *predictForm) validate(locs []string) *PredictRequest {
	req := &PredictRequest{}
	var err error
	var ok bool
	if req.Cores, ok = number(strings.TrimSpace(f.Cores)); !ok || req.Cores < 1 || req.Cores > maxSpan {
		f.fail("cores", fmt.Sprintf("%q: want a whole number of cores, at least 1", clip(f.Cores)))
	}
	if req.WallTime, err = parseDuration(strings.TrimSpace(f.WallTime)); err != nil || req.WallTime < 1 || req.WallTime > maxSpan {
		f.fail("wallTime", fmt.Sprintf("%q: want the requested time as hh:mm:ss (or mm:ss, or seconds), at least 1 second, at most %d hours (2^40 s)", clip(f.WallTime), int64(maxSpan)/3600))
	}
	if req.Quantile, ok = smallNumber(strings.TrimSpace(f.Quantile)); !ok || req.Quantile < 1 || req.Quantile > 99 {
		f.fail("quantile", fmt.Sprintf("%q: want a whole percent from 1 to 99", clip(f.Quantile)))
	}
	if req.Confidence, ok = smallNumber(strings.TrimSpace(f.Confidence)); !ok || req.Confidence < 10 || req.Confidence > 95 {
		f.fail("confidence", fmt.Sprintf("%q: want a whole percent from 10 to 95", clip(f.Confidence)))
	}
	if f.Errors["quantile"] == "" && f.Errors["confidence"] == "" && !slices.Contains(f.Levels, Level{req.Quantile, req.Confidence}) {
		// The two lists offer every quantile and every confidence of
		// the levels, not every pair of them is one.
		f.fail("quantile", fmt.Sprintf("the %d%% quantile at %d%% confidence is not answered here: this service answers the quantile/confidence pairs %s (its operator chooses them: qserve -levels)",
			req.Quantile, req.Confidence, levelList(f.Levels)))
	}
	if w := strings.TrimSpace(f.Within); w != "" {
		if req.Within, err = parseDuration(w); err != nil || req.Within > maxSpan {
			f.fail("within", fmt.Sprintf("%q: want hh:mm:ss, at most %d hours (2^40 s), or leave it empty", clip(f.Within), int64(maxSpan)/3600))
		}
	}
	switch {
	case len(locs) == 0:
		f.fail("loc", "choose at least one queue")
	case len(locs) > maxLocations:
		f.fail("loc", fmt.Sprintf("%d queues chosen, at most %d", len(locs), maxLocations))
	default:
		for _, l := range locs {
			q, sys, ok := strings.Cut(l, "@")
			if !ok || !validName(q) || !validName(sys) {
				f.fail("loc", fmt.Sprintf("%q is not queue@system", clip(l)))
				break
			}
			req.Locations = append(req.Locations, Location{System: sys, Queue: q})
		}
	}
	return req
}

// fail records msg as the error of field, unless it has one already
// (boundTyped's, which says the value shown is clipped).
func (f *predictForm) fail(field, msg string) {
	if _, ok := f.Errors[field]; !ok {
		f.Errors[field] = msg
	}
}

// option is one choice of a select: a quantile or a confidence.
type option struct {
	Value    string
	Selected bool
}

// levelOptions are the quantiles (or the confidences, conf) of levels,
// in their order, each once, with typed selected; a value typed that is
// none of them (from an address) comes first, selected, so the user sees
// what was asked beside its error.
func levelOptions(levels []Level, conf bool, typed string) []option {
	var out []option
	seen := map[string]bool{}
	for _, l := range levels {
		v := itoa(l.Quantile)
		if conf {
			v = itoa(l.Confidence)
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, option{Value: v, Selected: v == typed})
		}
	}
	if !seen[typed] {
		out = append([]option{{Value: typed, Selected: true}}, out...)
	}
	return out
}

// clip shortens what a user typed to quote it in an error (at most
// maxEcho bytes, on a rune boundary).
func clip(s string) string { return textclip.Clip(s, maxEcho) }

// locationChoices lists every queue of every system as a checkbox,
// checked when asked for; locations asked for that the service does not
// know come last, checked, so the user sees them and can uncheck them.
// Beyond formMaxChoices queues, or systems, in all it is compact
// (formMaxChoices): only the queues of the systems of show (?sys=) and
// of the locations asked for are listed, as many systems as the bound
// takes, in name order, and the other systems are more, as checkboxes.
//
// What a request costs is bounded whatever the number of systems: the
// queues are counted as they are declared (Service.queueCount), a
// compact form looks up only the systems it opens, and its checkboxes
// of the others are the first formMaxSystems names and those checked
// (moreSystems). It visited every system, and built a list of all of
// them, at every request of the form (TestFormCostBounded).
func (s *Service) locationChoices(asked, show []string) (out []locGroup, more template.HTML) {
	asked = asked[:min(len(asked), maxLocations)]
	want := map[string]bool{}
	for _, l := range asked {
		want[l] = true
	}
	type sysQueues struct {
		sys *system
		n   int // its queues
	}
	s.mu.RLock()
	nsys := len(s.names)
	s.mu.RUnlock()
	total := int(s.queueCount.Load())
	// (A system without queues counts too: past formMaxChoices systems
	// a form that listed every system would cost as many.)
	compact := total > formMaxChoices || nsys > formMaxChoices
	open, checked := map[string]bool{}, map[string]bool{}
	var names []string // the systems to visit, in name order
	if compact {
		for _, n := range show[:min(len(show), maxParams)] {
			open[n], checked[n] = true, true
		}
		for _, l := range asked {
			if _, sys, ok := strings.Cut(l, "@"); ok {
				open[sys] = true
			}
		}
		for n := range open {
			names = append(names, n)
		}
		slices.Sort(names)
	} else {
		names = s.systemNames() // at most formMaxChoices
	}
	// The queues are counted first, and listed only for the systems
	// listed: a compact form builds no other system's list.
	all := make([]sysQueues, 0, len(names))
	for _, name := range names {
		sys, err := s.lookup(name)
		if err != nil {
			continue
		}
		sys.mu.RLock()
		n := len(sys.queues)
		sys.mu.RUnlock()
		all = append(all, sysQueues{sys, n})
	}
	n, listed := 0, 0
	next := func(v string) locChoice {
		n++
		c := locChoice{ID: "loc-" + itoa(n), Value: v, Checked: want[v]}
		delete(want, v)
		return c
	}
	rest := map[string]bool{} // the systems opened but not listed
	cutQueues, cutSys := 0, ""
	for _, sq := range all {
		name := sq.sys.name
		// (The first system asked for is listed whatever its queues, so
		// that a system of more than formMaxChoices (Config.MaxQueues)
		// can still be asked about: its queues asked for, and the first
		// others up to the bound.)
		if compact && listed > 0 && listed+sq.n > formMaxChoices {
			rest[name] = true
			continue
		}
		_, qs := s.statusOf(sq.sys)
		if compact && len(qs) > formMaxChoices {
			room := formMaxChoices
			for _, q := range qs {
				if want[q.Queue+"@"+name] {
					room--
				}
			}
			kept := qs[:0]
			for _, q := range qs {
				if asked := want[q.Queue+"@"+name]; asked || room > 0 {
					if !asked {
						room--
					}
					kept = append(kept, q)
				}
			}
			cutQueues, cutSys = len(qs)-len(kept), name
			qs = kept
		}
		listed += len(qs)
		g := locGroup{System: name, shown: compact}
		for _, q := range qs {
			g.Queues = append(g.Queues, next(q.Queue+"@"+name))
		}
		if len(g.Queues) > 0 {
			g.HTML = groupHTML(&g)
		}
		out = append(out, g)
	}
	// A known system not listed: opened but beyond the bound, or, in a
	// compact form, not opened.
	unlisted := func(sys string) bool {
		if !compact {
			return false
		}
		if rest[sys] {
			return true
		}
		_, err := s.lookup(sys)
		return err == nil && !open[sys]
	}
	if len(want) > 0 {
		// Those of a system not listed (a compact form's bound) are
		// not unknown: they are said apart, checked all the same.
		other := locGroup{System: fmt.Sprintf("chosen, of systems not listed above (at most %d queues are)", formMaxChoices)}
		unknown := locGroup{System: "not known to the service"}
		for _, l := range asked {
			if want[l] {
				if _, sys, _ := strings.Cut(l, "@"); unlisted(sys) {
					other.Queues = append(other.Queues, next(l))
				} else {
					unknown.Queues = append(unknown.Queues, next(l))
				}
			}
		}
		for _, g := range []locGroup{other, unknown} {
			if len(g.Queues) > 0 {
				out = append(out, g)
			}
		}
	}
	if compact {
		shown := map[string]bool{} // the systems whose queues are listed
		for _, g := range out {
			if g.shown {
				shown[g.System] = true
			}
		}
		more = moreHTML(s.moreSystems(shown, checked), checked, total, cutQueues, cutSys)
	}
	return out, more
}

// moreSystems is what a compact form lists of the systems whose queues
// it does not list (shown): those checked, and the first formMaxSystems
// others, in name order, and how many others are left. It visits at
// most formMaxSystems names besides those shown or checked (each a
// parameter of the request: at most maxParams), not every system.
func (s *Service) moreSystems(shown, checked map[string]bool) moreList {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var m moreList
	known := 0 // the known systems shown or checked
	for n := range shown {
		if _, ok := s.systems[n]; ok {
			known++
		}
	}
	var late []string // the systems checked after the walk's end
	for n := range checked {
		if _, ok := s.systems[n]; ok && !shown[n] {
			known++
			late = append(late, n)
		}
	}
	slices.Sort(late)
	end := ""
	for _, n := range s.names {
		if shown[n] {
			continue
		}
		if !checked[n] {
			if m.unchecked == formMaxSystems {
				break
			}
			m.unchecked++
		}
		m.names = append(m.names, n)
		end = n
	}
	for _, n := range late {
		if n > end {
			m.names = append(m.names, n)
		}
	}
	m.left = len(s.names) - known - m.unchecked
	return m
}

// moreList is moreSystems' answer.
type moreList struct {
	names           []string
	unchecked, left int
}

// moreHTML is a compact form's systems whose queues it does not list
// (moreSystems), as checkboxes to show them (sys), checked when checked
// (?sys=) and left out by the bound, so that the user sees which were
// not shown: at most formMaxSystems unchecked, the rest counted. cut
// queues of the system cutSys were left out by formMaxChoices.
func moreHTML(m moreList, checked map[string]bool, total, cut int, cutSys string) template.HTML {
	var b strings.Builder
	b.WriteString(`<div class="system more">` + "\n")
	fmt.Fprintf(&b, `<p class="sysname">The service knows %d queues, too many to list at once: check systems and press Show queues to choose among theirs (at most %d queues are listed).</p>`+"\n", total, formMaxChoices)
	if cut > 0 {
		fmt.Fprintf(&b, `<p class="note">%d queues of %s are not listed (at most %d are): a queue's page links here with it chosen.</p>`+"\n", cut, template.HTMLEscapeString(cutSys), formMaxChoices)
	}
	for _, name := range m.names {
		v := template.HTMLEscapeString(name)
		b.WriteString(`<label class="check"><input type="checkbox" name="sys" value="`)
		b.WriteString(v)
		if checked[name] {
			b.WriteString(`" checked="checked`)
		}
		b.WriteString(`"/> `)
		b.WriteString(v)
		b.WriteString("</label>\n")
	}
	if m.left > 0 {
		fmt.Fprintf(&b, `<p class="note">%d more systems are not listed here (at most %d are, by name): a system's page, from the list of systems, links here with its queues.</p>`+"\n", m.left, formMaxSystems)
	}
	b.WriteString("</div>\n")
	return template.HTML(b.String()) //nolint:gosec // every value in it is escaped
}

// formOverlong is the form's answer to a query too long to read whole
// (checkRequestLine's 414): a form with more queues checked than a
// query holds (each is a parameter, and at most maxParams are read) got
// a bare 414 where fewer got the form's own error. The form is shown
// again with its error and the fields of the query's first part (at
// most maxQuery bytes and maxParams parameters, so no more is read or
// kept than for a query within the bounds), still a 414; the locations
// are counted in the whole query without keeping them.
func (s *Service) formOverlong(w http.ResponseWriter, r *http.Request, why error) {
	raw := r.URL.RawQuery
	locs, params, cut := 0, 0, len(raw)
	for i := 0; i <= len(raw); {
		j := strings.IndexAny(raw[i:], "&;")
		if j < 0 {
			j = len(raw) - i
		}
		p := raw[i : i+j]
		if strings.HasPrefix(p, "loc=") || strings.HasPrefix(p, "queue=") {
			locs++
		}
		if params++; params == maxParams || i+j > maxQuery {
			cut = min(cut, i)
		}
		i += j + 1
	}
	// The part read is read as predictPage reads a query within the
	// bounds: a pair of the form's that cannot be read is a 400 naming
	// it, not left out (url.ParseQuery skips it: ?cores=%zz and 300
	// queues showed the form with cores back at 1).
	read := raw[:min(cut, maxQuery)]
	if err := query(read).checkLists(formLists, formParams...); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, _ := url.ParseQuery(read) // no pair of the form's is left out: checked
	msg := fmt.Sprintf("the form's address is too long for the service to read (%v), with %d queues chosen: choose at most %d", why, locs, maxLocations)
	if locs <= maxLocations {
		msg = fmt.Sprintf("the form's address is too long for the service to read (%v)", why)
	}
	s.predictForm(w, r, v, msg)
}

// predictLink is the form's address with locs chosen (the system and
// queue pages link to it).
func predictLink(locs ...string) string {
	return "/karnak/waittime/predict.html?" + url.Values{"loc": locs}.Encode()
}
