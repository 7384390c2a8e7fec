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

// feed reads one line of the table: held while a quote is open.
func (tr *tableReader) feed(line string, num int) error {
	if len(tr.held) > 0 {
		tr.b.rep.Records-- // (a line of the held record)
		tr.held, tr.heldNums = append(tr.held, line), append(tr.heldNums, num)
		tr.heldSize += 1 + len(line)
		if tr.heldQuotes += strings.Count(line, `"`); tr.heldQuotes%2 == 0 {
			joined, first := strings.Join(tr.held, "\n"), tr.heldNums[0]
			if _, _, err := splitSep(joined, tr.t.sep, nil); err != nil {
				return tr.flushHeld(false) // (the quote closed where no field ends: no record)
			}
			tr.held, tr.heldNums = tr.held[:0], tr.heldNums[:0]
			return tr.row(joined, first, true)
		}
		if len(tr.held) < maxJoinLines && tr.heldSize <= maxLine {
			return nil
		}
		return tr.flushHeld(false)
	}
	if q := strings.Count(line, `"`); q%2 == 1 && tr.t != nil {
		if _, _, err := splitSep(line, tr.t.sep, nil); err == errQuote {
			tr.held, tr.heldNums = append(tr.held, line), append(tr.heldNums, num)
			tr.heldSize, tr.heldQuotes = len(line), q
			return nil
		}
	}
	return tr.row(line, num, false)
}

// flushHeld files held lines whose quote never closed: the first one
// malformed, the others read again as lines of their own. The last of
// them may open a quote again: its record goes on with the next lines,
// or, at the input's end (eof), is filed so too.
func (tr *tableReader) flushHeld(eof bool) error {
	for len(tr.held) > 0 {
		held, nums := tr.held, tr.heldNums
		tr.held, tr.heldNums = nil, nil
		err := fmt.Errorf("%w (it closes no record within %d lines)", errQuote, len(held))
		if err := tr.b.malformed(nums[0], "", held[0], err); err != nil {
			return err
		}
		for k, line := range held[1:] {
			tr.b.rep.Records++
			if err := tr.feed(line, nums[k+1]); err != nil {
				return err
			}
		}
		if !eof {
			return nil
		}
	}
	return nil
}
