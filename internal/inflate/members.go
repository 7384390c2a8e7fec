package inflate

import (
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync/atomic"
)

// members reads the gzip members (RFC 1952) of its input one after
// another, checking each one's CRC-32 and length, and makes the errors
// name the file and say whether it is truncated or corrupt. It looks at
// the bytes after each member itself: another member, zero padding to the
// end, or an error.
type members struct {
	f     *flateReader
	name  string
	rp    int    // f.win[rp:f.wp] is decoded and not yet read
	crc   uint32 // of the member's output so far
	size  uint32
	err   error        // the error (or io.EOF) after f.win[rp:f.wp]
	zeros atomic.Int64 // zero bytes after the last member (read by TrailingZeros)
	hdr   [10]byte     // header's buffer (a local escaped: an allocation per header read)
}

func (m *members) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for m.rp == m.f.wp {
		if m.err != nil {
			return 0, m.err
		}
		m.decode()
	}
	n := copy(p, m.f.win[m.rp:m.f.wp])
	m.rp += n
	return n, nil
}

// decode adds output to the window, sliding it first when it is full
// (all of it has been read), and sets m.err at the end or at an error.
func (m *members) decode() {
	f := m.f
	if f.wp >= winEnd {
		f.slide()
		m.rp = f.wp
	}
	from := f.wp
	err := f.decode()
	m.crc = crc32.Update(m.crc, crc32.IEEETable, f.win[from:f.wp])
	m.size += uint32(f.wp - from)
	if err == io.EOF {
		if err = m.trailer(); err == nil {
			err = m.next()
		}
	}
	if err != nil && err != io.EOF {
		err = gzipError(m.name, err)
	}
	m.err = err
}

// trailer checks the member's CRC-32 and length (ISIZE).
func (m *members) trailer() error {
	m.f.toBytes()
	var t [8]byte
	for i := range t {
		b, err := m.f.readByte()
		if err != nil {
			return err
		}
		t[i] = b
	}
	if binary.LittleEndian.Uint32(t[:]) != m.crc || binary.LittleEndian.Uint32(t[4:]) != m.size {
		return gzip.ErrChecksum
	}
	return nil
}

// next starts the member after the one that ended, or returns io.EOF at
// the end of the input or of its zero padding.
func (m *members) next() error {
	f := m.f
	for len(f.in)-f.ip < 2 && f.fill() {
	}
	rest := f.in[f.ip:]
	switch {
	case len(rest) == 0:
		return f.eofErr(io.EOF)
	case len(rest) >= 2 && rest[0] == 0x1f && rest[1] == 0x8b:
		return m.header()
	}
	var zeros int64
	for {
		// Not readByte: its io.ErrUnexpectedEOF at the end would be
		// mistaken for a source's own (an HTTP body cut short).
		if f.ip == len(f.in) && !f.fill() {
			if err := f.eofErr(nil); err != nil {
				return err
			}
			m.zeros.Store(zeros)
			return io.EOF
		}
		b := f.in[f.ip]
		f.ip++
		if b != 0 {
			return trailingError{b, zeros}
		}
		zeros++
	}
}

// header reads a member's header as compress/gzip does (the same checks,
// the same errors: gzip.ErrHeader, io.ErrUnexpectedEOF) and starts its
// DEFLATE stream.
func (m *members) header() error {
	f := m.f
	var crc uint32
	read := func(n int) ([]byte, error) {
		b := &m.hdr
		for i := range n {
			c, err := f.readByte()
			if err != nil {
				return nil, err
			}
			b[i] = c
		}
		crc = crc32.Update(crc, crc32.IEEETable, b[:n])
		return b[:n], nil
	}
	h, err := read(10)
	if err != nil {
		return err
	}
	if h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 {
		return gzip.ErrHeader
	}
	flags := h[3]
	if flags&4 != 0 { // FEXTRA
		x, err := read(2)
		if err != nil {
			return err
		}
		for range binary.LittleEndian.Uint16(x) {
			if _, err := read(1); err != nil {
				return err
			}
		}
	}
	for _, flag := range []byte{8, 16} { // FNAME, FCOMMENT: zero-terminated
		if flags&flag == 0 {
			continue
		}
		for i := 0; ; i++ {
			if i == 512 { // compress/gzip's limit
				return gzip.ErrHeader
			}
			c, err := read(1)
			if err != nil {
				return err
			}
			if c[0] == 0 {
				break
			}
		}
	}
	if flags&2 != 0 { // FHCRC
		want := uint16(crc)
		x, err := read(2)
		if err != nil {
			return err
		}
		if binary.LittleEndian.Uint16(x) != want {
			return gzip.ErrHeader
		}
	}
	m.crc, m.size = 0, 0
	f.reset()
	return nil
}
