package swf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Header holds the header comments of an SWF file. The standard keys are
// parsed into typed fields (numeric fields are 0 when absent); Lines keeps
// every raw comment line, in order, so that a Writer reproduces the header.
// Repeated keys (Queue, Partition, Note, Information) collect one entry per
// occurrence; an indented continuation line (";    more text") is appended
// to the previous multi-line entry with a newline.
//
// Real archive logs bend the format, and a Reader accepts them, reporting
// each bend as a warning in Stats.Warnings rather than failing, in strict
// mode too:
//
//   - Keys are read ignoring case ("; maxprocs: 128" is MaxProcs); a
//     warning or Other keeps a key as written.
//   - A numeric key whose value does not start with an integer (as in
//     Sandia-Ross's "MaxRuntime: N/A"), or whose integer goes on in
//     another notation ("1.5", "1e3", "1,024", "64k": "not a whole
//     number"), or past int64, leaves its field 0 and is kept as text in
//     Other; a later line of the key may still set it. A whole number
//     written with a zero fraction ("UnixStartTime: 1234.0") is read as
//     that number (1234), without a warning: nothing of it is lost.
//   - A TimeZone more than a day (86400 s) either way of UTC is no offset,
//     and a UnixStartTime more than 2^40 s either way of 1970 no time base
//     (adding either to a time could wrap past int64): it is kept as
//     text, as a value past int64 is, its warning wrapping ErrRange.
//   - A single-valued key given twice keeps its first value: the machine
//     size cannot change halfway through a header.
//   - "Key: value" comments after the first job line are kept in Lines but
//     do not change any field, so the Header that Reader.Header returns
//     (which reads ahead to the first job) is final.
type Header struct {
	Version        string
	Computer       string
	Installation   string
	Acknowledge    string
	Information    []string
	Conversion     string
	MaxJobs        int64
	MaxRecords     int64
	Preemption     string
	UnixStartTime  int64
	TimeZone       int64 // seconds east of UTC; deprecated by TimeZoneString
	TimeZoneString string
	StartTime      string
	EndTime        string
	MaxNodes       int64
	MaxProcs       int64
	MaxRuntime     int64
	MaxMemory      int64
	AllowOveruse   string
	MaxQueues      int64
	Queues         string   // free-text description of the queues
	Queue          []string // one entry per "Queue:" line, e.g. "1 express"
	MaxPartitions  int64
	Partitions     string
	Partition      []string
	Note           []string
	// Other holds "Key: value" lines whose key is not standard, and those
	// of numeric standard keys whose value is not a number, in order.
	Other []KeyValue
	// Lines is every comment line of the file (with its leading ';',
	// without its line terminator), in order. When it is nil the Writer generates the header from the fields.
	Lines []string
}

// KeyValue is one nonstandard header entry.
type KeyValue struct{ Key, Value string }

// ErrNoMachineSize is returned by MachineSize when the header has neither
// MaxProcs nor MaxNodes (errors.Is; a line that names one in a form not
// read, such as "MaxProcs: abc", is quoted in the message).
var ErrNoMachineSize = errors.New("swf: header has neither MaxProcs nor MaxNodes")

// MachineSize returns the machine size in processors: MaxProcs, else
// MaxNodes (which the definition allows when each node is one processor).
func (h *Header) MachineSize() (int64, error) {
	if h.MaxProcs > 0 {
		return h.MaxProcs, nil
	}
	if h.MaxNodes > 0 {
		return h.MaxNodes, nil
	}
	// A line that means to give the size but was not read as one ("abc",
	// past int64, 0) is named, so that the user can mend it rather than be
	// told it is absent. One whose value is a size was not applied, and
	// is said why (it was called no size, "want N a whole number > 0", of
	// "; MaxNodes: 100"): it follows the first job line (a header at the
	// end of the file), or it is indented under a multi-line entry, which
	// it continues.
	for _, line := range h.Lines {
		body := strings.TrimLeft(strings.TrimPrefix(line, ";"), " \t")
		for _, key := range []string{"MaxProcs", "MaxNodes"} {
			if len(body) > len(key) && body[len(key)] == ':' && strings.EqualFold(body[:len(key)], key) {
				u := unreadableSize{line: line}
				if n, err := leadingInt(strings.TrimSpace(body[len(key)+1:])); err == nil && n > 0 {
					u.why = "it continues the multi-line entry above it, under which it is indented"
					if late, ok := lateSizeLine(h.Lines); ok {
						u.line, u.why = late, "it follows the first job line, where a header key sets nothing (move the header before the jobs)"
					}
				}
				return 0, u
			}
		}
	}
	return 0, ErrNoMachineSize
}

// lateSizeLine is the first of lines that sets a machine size when every
// line is read as a header line, if one does. A Reader reads them so up to
// the first job line, and the same lines left the size unset: that line
// follows the first job line. (Only a late line tells this apart from an
// indented one, which continues an entry wherever it is.)
func lateSizeLine(lines []string) (string, bool) {
	var h Header
	p := headerParser{h: &h}
	for _, line := range lines {
		p.add(line, false)
		if h.MaxProcs > 0 || h.MaxNodes > 0 {
			return line, true
		}
	}
	return "", false
}

// unreadableSize is ErrNoMachineSize for a header line that names the
// machine size in a form not read as one, or (why) one whose size was not
// applied and the reason.
type unreadableSize struct {
	line, why string
}

func (u unreadableSize) Error() string {
	if u.why != "" {
		return fmt.Sprintf("swf: header line %q gives no machine size: %s", u.line, u.why)
	}
	return fmt.Sprintf("swf: header line %q gives no machine size (want \"; MaxProcs: N\" with N a whole number > 0, or MaxNodes)", u.line)
}

func (u unreadableSize) Is(target error) bool { return target == ErrNoMachineSize }

// headerField describes how a standard key is stored.
type headerField struct {
	num   func(h *Header) *int64
	text  func(h *Header) *string
	multi func(h *Header) *[]string
}

var headerFields = map[string]headerField{
	"Version":        {text: func(h *Header) *string { return &h.Version }},
	"Computer":       {text: func(h *Header) *string { return &h.Computer }},
	"Installation":   {text: func(h *Header) *string { return &h.Installation }},
	"Acknowledge":    {text: func(h *Header) *string { return &h.Acknowledge }},
	"Information":    {multi: func(h *Header) *[]string { return &h.Information }},
	"Conversion":     {text: func(h *Header) *string { return &h.Conversion }},
	"MaxJobs":        {num: func(h *Header) *int64 { return &h.MaxJobs }},
	"MaxRecords":     {num: func(h *Header) *int64 { return &h.MaxRecords }},
	"Preemption":     {text: func(h *Header) *string { return &h.Preemption }},
	"UnixStartTime":  {num: func(h *Header) *int64 { return &h.UnixStartTime }},
	"TimeZone":       {num: func(h *Header) *int64 { return &h.TimeZone }},
	"TimeZoneString": {text: func(h *Header) *string { return &h.TimeZoneString }},
	"StartTime":      {text: func(h *Header) *string { return &h.StartTime }},
	"EndTime":        {text: func(h *Header) *string { return &h.EndTime }},
	"MaxNodes":       {num: func(h *Header) *int64 { return &h.MaxNodes }},
	"MaxProcs":       {num: func(h *Header) *int64 { return &h.MaxProcs }},
	"MaxRuntime":     {num: func(h *Header) *int64 { return &h.MaxRuntime }},
	"MaxMemory":      {num: func(h *Header) *int64 { return &h.MaxMemory }},
	"AllowOveruse":   {text: func(h *Header) *string { return &h.AllowOveruse }},
	"MaxQueues":      {num: func(h *Header) *int64 { return &h.MaxQueues }},
	"Queues":         {text: func(h *Header) *string { return &h.Queues }},
	"Queue":          {multi: func(h *Header) *[]string { return &h.Queue }},
	"MaxPartitions":  {num: func(h *Header) *int64 { return &h.MaxPartitions }},
	"Partitions":     {text: func(h *Header) *string { return &h.Partitions }},
	"Partition":      {multi: func(h *Header) *[]string { return &h.Partition }},
	"Note":           {multi: func(h *Header) *[]string { return &h.Note }},
}

// headerOrder is the order in which a generated header writes the keys.
var headerOrder = []string{
	"Version", "Computer", "Installation", "Acknowledge", "Information", "Conversion",
	"MaxJobs", "MaxRecords", "Preemption", "UnixStartTime", "TimeZone", "TimeZoneString",
	"StartTime", "EndTime", "MaxNodes", "MaxProcs", "MaxRuntime", "MaxMemory", "AllowOveruse",
	"MaxQueues", "Queues", "Queue", "MaxPartitions", "Partitions", "Partition", "Note",
}

// headerParser folds comment lines into a Header, remembering which
// multi-line entry an indented continuation line belongs to.
type headerParser struct {
	h       *Header
	cont    *string         // the entry a continuation line extends, or nil
	set     map[string]bool // single-valued standard keys met so far
	ignored string          // the entry of an ignored line: its continuations go nowhere
	// more is the entry cont points to as continued so far: each line
	// appended to the string ("+=") copied the entry, and 40 000 lines
	// under a Note took 27 s to read. (A Builder's String is not copied,
	// and stays valid as it grows.)
	more strings.Builder
}

// add parses one comment line (without its line terminator). late says
// that job lines came before it. It returns a warning (Line unset) when the
// line does not set what it names; the line is kept in Lines regardless.
func (p *headerParser) add(line string, late bool) *ParseError {
	p.h.Lines = append(p.h.Lines, line)
	body := strings.TrimPrefix(line, ";")
	key, value, ok := splitKey(body)
	// Inside a multi-line block, an indented line is a continuation even if
	// it looks like "word: text" (e.g. "Note: ...\n;   filter: user=5").
	indented := len(body)-len(strings.TrimLeft(body, " \t")) > 2
	if !ok || (p.cont != nil && indented) {
		// A continuation line is indented and non-empty; a bare ";" ends
		// the block.
		text := strings.TrimSpace(body)
		switch {
		case text == "":
			p.cont = nil
			p.more.Reset()
		case p.cont == &p.ignored: // (kept nowhere)
		case p.cont != nil:
			if p.more.Len() == 0 {
				p.more.WriteString(*p.cont)
			}
			p.more.WriteString("\n")
			p.more.WriteString(text)
			*p.cont = p.more.String()
		}
		return nil
	}
	p.cont = nil
	p.more.Reset()
	if late {
		p.ignore()
		return &ParseError{Key: key, Value: clip(value), Err: ErrLateHeader}
	}
	name, f, std := standardKey(key)
	if std && f.multi == nil {
		if p.set[name] {
			p.ignore()
			return &ParseError{Key: key, Value: clip(value), Err: ErrRepeatedKey}
		}
		if p.set == nil {
			p.set = make(map[string]bool)
		}
		p.set[name] = true
	}
	switch {
	case !std:
		p.other(key, value)
	case f.num != nil:
		n, err := leadingInt(value)
		if b, ok := headerBounds[name]; ok && err == nil && (n < -b.max || n > b.max) {
			err = headerRange{b.why}
		}
		if err != nil {
			// Set nothing, so claim nothing: prose that merely begins
			// with the key ("; maxprocs: see below", read since keys
			// ignore case) made the "; MaxProcs: 128" after it a
			// repeat, and the size came from MaxNodes, or none.
			delete(p.set, name)
			p.other(key, value)
			return &ParseError{Key: key, Value: clip(value), Err: keptAsText{err}}
		}
		*f.num(p.h) = n
	case f.text != nil:
		*f.text(p.h) = value
		p.cont = f.text(p.h)
	default:
		s := f.multi(p.h)
		*s = append(*s, value)
		p.cont = &(*s)[len(*s)-1]
	}
	return nil
}

// other appends an entry to Header.Other; continuation lines extend it.
func (p *headerParser) other(key, value string) {
	p.h.Other = append(p.h.Other, KeyValue{key, value})
	p.cont = &p.h.Other[len(p.h.Other)-1].Value
}

// ignore makes the continuation lines of an ignored entry go nowhere, so
// that they are not read as keys of their own.
func (p *headerParser) ignore() {
	p.cont = &p.ignored
}

// standardKey looks key up among the standard keys ignoring case, since
// real logs vary (";  maxprocs: 128" set no size, and every command said
// the header had none): it returns the key as the standard spells it. The
// text as written stays in Lines and in warnings. The exact spelling is
// tried first; another one scans the 26 keys, on header lines only.
func standardKey(key string) (string, headerField, bool) {
	if f, ok := headerFields[key]; ok {
		return key, f, true
	}
	for _, k := range headerOrder {
		if strings.EqualFold(k, key) {
			return k, headerFields[k], true
		}
	}
	return "", headerField{}, false
}

// headerBounds bounds the numeric keys that a program adds to times,
// either way of 0; a value past its bound is kept as text with a
// headerRange warning, as a value past int64 is.
//
// TimeZone: a day, in seconds; the zones in use lie within -12 h and +14 h.
//
// UnixStartTime: 2^40 s (about 35,000 years), the bound of every time in
// batchq (sanitize.MaxTime, which swf cannot import; karnak's feed and
// swfstat's start date take a base in it too). A base past it is no log's,
// and a program that converts times adds it to a submit time, and to a
// wait and a run time, each at most 2^40 s: within the bound the sum
// stays below 2^42 s, far from wrapping past int64 (2^63 − 1 wrapped at
// once) and exact in float64 (below 2^53). The bound only on the sum with
// one submit time, 2^63 − 1 − 2^40, would still wrap with the wait and
// the run time added, and a start time there is no date.
var headerBounds = map[string]struct {
	max int64
	why string
}{
	"TimeZone":      {86400, "a time zone offset is at most 86400 s either way of UTC"},
	"UnixStartTime": {1 << 40, "a Unix start time is at most 2^40 s either way of 1970"},
}

// headerRange is ErrRange for a numeric header value past its key's bound
// (headerBounds); why says the bound.
type headerRange struct{ why string }

func (r headerRange) Error() string { return "value out of range (" + r.why + ")" }
func (headerRange) Unwrap() error   { return ErrRange }

// notWhole is ErrSyntax for a value whose digits go on in another
// notation ("1.5", "1e3", "1,024", "64k"): it was "not a number", which
// "1234.5" plainly is.
type notWhole struct{}

func (notWhole) Error() string { return "not a whole number in plain digits" }
func (notWhole) Unwrap() error { return ErrSyntax }

// keptAsText is the warning for a numeric header value that is not a
// number; it wraps ErrSyntax or ErrRange.
type keptAsText struct{ err error }

func (k keptAsText) Error() string { return k.err.Error() + "; kept as text in Header.Other" }
func (k keptAsText) Unwrap() error { return k.err }

// splitKey recognizes " Key: value" where Key is one word starting at the
// first non-blank character.
func splitKey(body string) (key, value string, ok bool) {
	s := strings.TrimLeft(body, " \t")
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	key = s[:i]
	if k := strings.TrimRight(key, " \t"); len(k) < len(key) {
		// "; MaxProcs  : 64", aligned by hand: a standard key is read
		// with blanks before its colon (it was no machine size, and the
		// error said the header had none); another word so written is
		// prose, as before.
		if _, _, std := standardKey(k); !std {
			return "", "", false
		}
		key = k
	}
	if _, _, std := standardKey(key); !std && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' {
		// "http://..." is prose, not a key; a standard key is read
		// without the blank (";MaxProcs:128" was no machine size).
		return "", "", false
	}
	for _, c := range key {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(s[i+1:]), true
}

// leadingInt reads the integer at the start of s and ignores trailing prose,
// as in "338 (batch partition; 512 total)".
func leadingInt(s string) (int64, error) {
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, ErrSyntax
	}
	num := end
	// A zero fraction ("1234.0", "128.00") is the whole number itself.
	if end+1 < len(s) && s[end] == '.' && s[end+1] == '0' {
		k := end + 1
		for k < len(s) && s[k] == '0' {
			k++
		}
		if !goesOn(s, k) {
			end = k
		}
	}
	// Prose follows a blank, a bracket or punctuation ("128, of which
	// ...", "128."); a number that goes on in another notation is not its
	// leading digits: "1e3", "1.5", "1,024" or "64k" read as 1, 1, 1 and
	// 64 (a machine of 1 processor, in silence).
	if goesOn(s, end) {
		return 0, notWhole{}
	}
	n, err := strconv.ParseInt(s[:num], 10, 64)
	if err != nil {
		return 0, ErrRange
	}
	return n, nil
}

// goesOn says whether the number that s[:end] ends goes on in another
// notation: a letter goes on, '.', ',' and '_' only into a digit, and a
// digit (after a zero fraction, "1.05").
func goesOn(s string, end int) bool {
	if end >= len(s) {
		return false
	}
	c, more := s[end], end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9'
	return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || (c == '.' || c == ',' || c == '_') && more
}

// generate renders the typed fields as comment lines, for headers built in
// code (Lines == nil).
func (h *Header) generate() []string {
	var out []string
	emit := func(key, value string) {
		// A Reader ends a line at '\n', "\r\n" and a lone '\r', so each
		// starts a continuation line here: a value with a '\r' written
		// as is would end its comment line and start a job line. A blank
		// continuation would end the entry (and lose what follows), so
		// none is written.
		pieces := strings.FieldsFunc(key+": "+value, func(r rune) bool { return r == '\n' || r == '\r' })
		out = append(out, "; "+pieces[0])
		for _, r := range pieces[1:] {
			if strings.TrimSpace(r) != "" {
				out = append(out, ";       "+r)
			}
		}
	}
	for _, key := range headerOrder {
		f := headerFields[key]
		switch {
		case f.num != nil:
			if n := *f.num(h); n != 0 {
				emit(key, strconv.FormatInt(n, 10))
			}
		case f.text != nil:
			if s := *f.text(h); s != "" {
				emit(key, s)
			}
		default:
			for _, s := range *f.multi(h) {
				emit(key, s)
			}
		}
	}
	for _, kv := range h.Other {
		emit(kv.Key, kv.Value)
	}
	return out
}
