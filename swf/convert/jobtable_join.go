package convert

import (
	"fmt"
	"strings"
)

// A job table's value in double quotes may hold a newline (a job name, a
// comment), as CSV allows: the record then spans lines. The line whose
// quote is left open is held and the next ones joined to it until the
// quote closes (an even count of quotes: "" inside a value counts two),
// the whole one record (Report.Records counts it once), noted "record of
// several lines (a newline in a value)". It was split: its first line a
// malformed record, the rest rows of their own (a job of a wrong id, or
// malformed). A quote that does not close within maxJoinLines lines (or
// maxLine bytes, or the input), or closes where no field ends (a second
// line's open quote: `"open` ... `"again`, no record), leaves the first
// line malformed ("unterminated quoted field") and the others are read
// again as lines of their own: a row between is its own job. Each line
// is read again at most once (the lines held after the first one have
// an even count of quotes but the last, which opens the next hold).

// maxJoinLines bounds the lines of one record.
const maxJoinLines = 64

// joiner holds the lines of a record whose quote is open: the generic
// job table's reader and the Helios/Acme reader share it.
type joiner struct {
	held                 []string
	heldNums             []int
	heldSize, heldQuotes int
}

// rowFunc reads one record: joined says it spans several lines.
type rowFunc func(line string, num int, joined bool) error

// feed reads one line of table t (nil before its header): held while a
// quote is open, else given to row.
func (jn *joiner) feed(b *builder, t *table, line string, num int, row rowFunc) error {
	if len(jn.held) > 0 {
		b.rep.Records-- // (a line of the held record)
		jn.held, jn.heldNums = append(jn.held, line), append(jn.heldNums, num)
		jn.heldSize += 1 + len(line)
		if jn.heldQuotes += strings.Count(line, `"`); jn.heldQuotes%2 == 0 {
			joined, first := strings.Join(jn.held, "\n"), jn.heldNums[0]
			if _, _, err := splitSep(joined, t.sep, nil); err != nil {
				return jn.flush(b, t, false, row) // (the quote closed where no field ends: no record)
			}
			jn.held, jn.heldNums = jn.held[:0], jn.heldNums[:0]
			return row(joined, first, true)
		}
		if len(jn.held) < maxJoinLines && jn.heldSize <= maxLine {
			return nil
		}
		return jn.flush(b, t, false, row)
	}
	if q := strings.Count(line, `"`); q%2 == 1 && t != nil {
		if _, _, err := splitSep(line, t.sep, nil); err == errQuote {
			jn.held, jn.heldNums = append(jn.held, line), append(jn.heldNums, num)
			jn.heldSize, jn.heldQuotes = len(line), q
			return nil
		}
	}
	return row(line, num, false)
}

// flush files held lines whose quote never closed: the first one
// malformed, the others read again as lines of their own. The last of
// them may open a quote again: its record goes on with the next lines,
// or, at the input's end (eof), is filed so too.
func (jn *joiner) flush(b *builder, t *table, eof bool, row rowFunc) error {
	for len(jn.held) > 0 {
		held, nums := jn.held, jn.heldNums
		jn.held, jn.heldNums = nil, nil
		err := fmt.Errorf("%w (it closes no record within %d lines)", errQuote, len(held))
		if err := b.malformed(nums[0], "", held[0], err); err != nil {
			return err
		}
		for k, line := range held[1:] {
			b.rep.Records++
			if err := jn.feed(b, t, line, nums[k+1], row); err != nil {
				return err
			}
		}
		if !eof {
			return nil
		}
	}
	return nil
}

// feed reads one line of the table (joiner.feed).
func (tr *tableReader) feed(line string, num int) error {
	return tr.joiner.feed(tr.b, tr.t, line, num, tr.row)
}

// flushHeld files the held lines at the input's end (joiner.flush).
func (tr *tableReader) flushHeld(eof bool) error {
	return tr.joiner.flush(tr.b, tr.t, eof, tr.row)
}
