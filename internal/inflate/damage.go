package inflate

import (
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
)

// A flipped byte in a gzip stream inflates to garbage text, often long
// before the checksum at the member's end says so: a reader that stops at
// the garbage (a strict parse's malformed line, a conversion's) would say
// the garbage and never the cause. swf, swf/convert and examples/convert
// then inflate the rest (DrainForDamage) and lead with the stream's own
// error when it is one (IsDamage).

// MaxDamageDrain bounds what a failed read inflates of the rest of its
// gzip input to find the stream's error: a stream that does not end stops
// there, and the reader's own error stands.
const MaxDamageDrain = 1 << 30

// DrainForDamage reads and discards up to MaxDamageDrain more bytes of
// src and returns the error that ended them: the gzip stream's (checksum,
// deflate data, cut short), or nil at the end or the bound.
func DrainForDamage(src io.Reader) error {
	_, err := io.Copy(io.Discard, io.LimitReader(src, MaxDamageDrain))
	return err
}

// IsDamage reports whether err is a gzip stream's: a bad checksum, header
// or deflate data, or a stream cut short.
func IsDamage(err error) bool {
	return errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
		errors.As(err, new(flate.CorruptInputError)) || errors.Is(err, io.ErrUnexpectedEOF)
}
