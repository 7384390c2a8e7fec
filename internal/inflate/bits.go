package inflate

import (
	"compress/flate"
	"encoding/binary"
	"io"
)

// The input side of flateReader: the buffer it reads src into, the
// 64-bit bit buffer over it, byte-aligned reads for stored blocks and the
// gzip framing, and the errors that name an offset in the input.

// fill reads more of src into in, keeping the 8 bytes before ip (toBytes
// may give back up to 7 of them). It returns false at the end of src.
func (f *flateReader) fill() bool {
	if !f.srcOK {
		return false
	}
	keep := max(f.ip-8, 0)
	n := copy(f.in[:cap(f.in)], f.in[keep:])
	f.in, f.ip, f.pos = f.in[:n], f.ip-keep, f.pos+int64(keep)
	for range 100 {
		m, err := f.src.Read(f.in[n:cap(f.in)])
		f.in = f.in[:n+m]
		if err != nil {
			f.srcOK, f.err = false, err
			return m > 0
		}
		if m > 0 {
			return true
		}
	}
	f.srcOK, f.err = false, io.ErrNoProgress
	return false
}

// refill makes nb at least 56: a word at a time while 8 bytes of input
// are buffered, else byte by byte, then (at the end of src) with zero
// bits counted in virt.
func (f *flateReader) refill() {
	if len(f.in)-f.ip < 8 {
		f.fill()
	}
	if len(f.in)-f.ip >= 8 {
		f.bits |= binary.LittleEndian.Uint64(f.in[f.ip:]) << f.nb
		f.ip += int(63-f.nb) >> 3
		f.nb |= 56
		return
	}
	for f.nb < 56 {
		if f.ip < len(f.in) || f.fill() {
			f.bits |= uint64(f.in[f.ip]) << f.nb
			f.ip++
		} else {
			f.virt += 8
		}
		f.nb += 8
	}
}

// need returns bits' n low bits, refilling first; ok is false if they go
// past the end of the input.
func (f *flateReader) need(n uint) (v uint32, ok bool) {
	if f.nb < n {
		f.refill()
	}
	v = uint32(f.bits & (1<<n - 1))
	f.bits >>= n
	f.nb -= n
	return v, f.nb >= f.virt
}

// toBytes drops the bits left of the current byte and gives the whole
// bytes still in the bit buffer back to in, for byte-aligned reading.
func (f *flateReader) toBytes() {
	real := f.nb - f.virt
	f.ip -= int(real >> 3)
	f.bits, f.nb, f.virt = 0, 0, 0
}

// readByte reads a byte at byte alignment (after toBytes).
func (f *flateReader) readByte() (byte, error) {
	if f.ip == len(f.in) && !f.fill() {
		return 0, f.eofErr(io.ErrUnexpectedEOF)
	}
	b := f.in[f.ip]
	f.ip++
	return b, nil
}

// eofErr is src's error at the end of the input, or eof if it just ended.
func (f *flateReader) eofErr(eof error) error {
	if f.err != nil && f.err != io.EOF {
		return f.err
	}
	return eof
}

// corrupt is the error of a bad stream. Its offset is, as compress/flate's,
// the stream's bytes read so far (not counting the whole bytes of the bit
// buffer, read ahead), not in's index, which each fill moves.
func (f *flateReader) corrupt() error {
	ahead := int64(f.nb-min(f.virt, f.nb)) >> 3
	return flate.CorruptInputError(f.pos + int64(f.ip) - ahead - f.from)
}

// truncated is the error of a read past the end of the input.
func (f *flateReader) truncated() error { return f.eofErr(io.ErrUnexpectedEOF) }
