package convert

import (
	"fmt"
	"strings"

	"github.com/batchq/batchq/internal/inflate"
)

// A flipped byte in a gzip input inflates to garbage text, often long
// before the checksum at the member's end says so; a conversion that
// stops at the garbage (Strict's first malformed record, a header line
// that is not the format's, text sniffed as another format) said the
// garbage and never the cause. As swf.Open does for SWF, a failed
// conversion of a gzip input inflates the rest of it (up to
// inflate.MaxDamageDrain) for the stream's own error and leads with it.

// damaged replaces *err, a failed conversion's error, by a *damagedError
// when the input is gzip (b.damage is set) and its stream turns out
// damaged. An error that is the stream's own already stands.
func (b *builder) damaged(err *error) {
	if *err == nil || b.damage == nil || inflate.IsDamage(*err) {
		return
	}
	d := b.damage()
	b.damage = nil
	if inflate.IsDamage(d) {
		*err = &damagedError{gzip: d, conv: *err}
	}
}

// damagedError is a failed conversion of a gzip input found damaged after
// it. The message leads with the stream's error; it unwraps to that
// alone: the conversion's error is a symptom (a *FormatError's format,
// sniffed from garbage, is no advice).
type damagedError struct {
	gzip error // the inflater's ("convert: input: gzip data corrupt: ...")
	conv error // the conversion's
}

func (e *damagedError) Error() string {
	// (Not "it stopped at the garbage": the damage may lie past the
	// stop, and the checksum says not where.)
	return fmt.Sprintf("%v (the conversion had stopped before, perhaps at garbage the damage inflated to: %s)",
		e.gzip, strings.TrimPrefix(e.conv.Error(), "convert: "))
}

func (e *damagedError) Unwrap() error { return e.gzip }
