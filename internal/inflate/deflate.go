package inflate

import (
	"encoding/binary"
	"io"
)

const (
	histSize = 32 << 10 // DEFLATE's farthest distance
	// winSize is the window: history, then what one decode call adds.
	// At 256 KiB its pages were 64 of the 840 a small log's whole
	// streamed run touches (KTH-SP2, EASY), each a page fault of 20–30
	// µs of CPU on a virtual machine; at 128 KiB the slides that copy
	// the history back are 2.3 times as many (32 KiB per 96 KiB of
	// output): callgrind, whole process, SDSC-SP2 344.40 M → 344.53 M
	// instructions, KTH-SP2 145.80 M → 145.77 M.
	winSize = 128 << 10
	// maxMatch is the longest match, plus the 8 bytes a word copy may
	// write past its end: the room a symbol needs in the window.
	maxMatch = 258 + 8
	winEnd   = winSize - maxMatch // where a symbol may start
	inSize   = 64 << 10
)

// flateReader decodes a DEFLATE stream (RFC 1951) from src into a window
// that keeps the last 32 KiB of output as history, the way libdeflate's
// decompressor does: a 64-bit bit buffer refilled a word at a time, and a
// table entry that says at once what a code is and how many extra bits
// follow. It stops at the end of the final block, having read from its
// input buffer no byte past the stream (see toBytes), so that the gzip
// trailer and the next member can follow.
type flateReader struct {
	src    io.Reader
	srcOK  bool   // src has not returned an error yet
	err    error  // src's error (io.EOF at its end)
	in     []byte // inBuf[:n]
	inBuf  *[inSize + 8]byte
	ip     int   // in[ip:] is unread
	pos    int64 // src's offset of in[0]
	from   int64 // src's offset of this stream's first byte
	bits   uint64
	nb     uint   // valid bits in bits, virtual ones included
	virt   uint   // zero bits added past the end of src (reading one is "truncated")
	win    []byte // winBuf[:winSize]
	winBuf *[winSize + 8]byte
	wp     int // win[:wp] is output; the last 32 KiB of it are history
	start  int // where this stream's output begins in win (distances may not reach before it)
	state  int
	final  bool
	left   int // bytes of the stored block left to copy
	lit    *[litTableSize]uint32
	dist   *[distTableSize]uint32
	dyn    struct {
		lit  [litTableSize]uint32
		dist [distTableSize]uint32
	}
	lens [286 + 30]uint8
}

const (
	stBlock  = iota // a block header is next
	stStored        // inside a stored block
	stHuff          // inside a Huffman block
	stEnd           // the final block has ended
)

func newFlateReader(src io.Reader) *flateReader {
	f := &flateReader{src: src, srcOK: true, inBuf: new([inSize + 8]byte), winBuf: new([winSize + 8]byte)}
	f.in, f.win = f.inBuf[:0:inSize], f.winBuf[:winSize]
	return f
}

// reset starts a new DEFLATE stream at the reader's position; its output
// follows the previous stream's in the window, with no history.
func (f *flateReader) reset() {
	f.start, f.state, f.final = f.wp, stBlock, false
	f.from = f.pos + int64(f.ip)
}

// slide moves the last 32 KiB of output, the history, to the window's
// start, to make room (once the output before it has been read).
func (f *flateReader) slide() {
	shift := f.wp - histSize
	copy(f.win, f.win[shift:f.wp])
	f.wp, f.start = histSize, max(f.start-shift, 0)
}

// decode adds output to the window, up to its end (the caller slides it),
// and returns io.EOF after the final block.
func (f *flateReader) decode() error {
	for {
		switch f.state {
		case stEnd:
			return io.EOF
		case stBlock:
			if f.final {
				f.state = stEnd
				continue
			}
			h, ok := f.need(3)
			if !ok {
				return f.truncated()
			}
			f.final = h&1 == 1
			switch h >> 1 {
			case 0:
				if err := f.storedHeader(); err != nil {
					return err
				}
			case 1:
				f.lit, f.dist, f.state = fixedLit, fixedDist, stHuff
			case 2:
				if err := f.dynamicHeader(); err != nil {
					return err
				}
				f.lit, f.dist, f.state = &f.dyn.lit, &f.dyn.dist, stHuff
			default:
				return f.corrupt()
			}
		case stStored:
			if f.left == 0 {
				f.state = stBlock
				continue
			}
			if f.wp >= winEnd {
				return nil
			}
			if f.ip == len(f.in) && !f.fill() {
				return f.truncated()
			}
			n := copy(f.win[f.wp:winEnd], f.in[f.ip:min(len(f.in), f.ip+f.left)])
			f.wp += n
			f.ip += n
			f.left -= n
		case stHuff:
			if f.wp >= winEnd {
				return nil
			}
			if err := f.huffman(); err != nil {
				return err
			}
		}
	}
}

func (f *flateReader) storedHeader() error {
	f.toBytes()
	var h [4]byte
	for i := range h {
		b, err := f.readByte()
		if err != nil {
			return err
		}
		h[i] = b
	}
	n := binary.LittleEndian.Uint16(h[:])
	if n != ^binary.LittleEndian.Uint16(h[2:]) {
		return f.corrupt()
	}
	f.left, f.state = int(n), stStored
	return nil
}

var codeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// dynamicHeader reads the code lengths of a dynamic block and builds its
// tables, refusing what compress/flate refuses.
func (f *flateReader) dynamicHeader() error {
	h, ok := f.need(14)
	if !ok {
		return f.truncated()
	}
	nlit, ndist, nclen := int(h&31)+257, int(h>>5&31)+1, int(h>>10)+4
	if nlit > 286 || ndist > 30 {
		return f.corrupt()
	}
	var clens [19]uint8
	for i := range nclen {
		v, ok := f.need(3)
		if !ok {
			return f.truncated()
		}
		clens[codeOrder[i]] = uint8(v)
	}
	// The code length code's table: a small primary table (7 bits, its
	// longest code) in the distance table's space.
	ct := f.dyn.dist[:]
	if !build(ct, clens[:], func(s int) uint32 { return kindLit | uint32(s)<<16 }, 7) {
		return f.corrupt()
	}
	lens := f.lens[:nlit+ndist]
	for i := 0; i < len(lens); {
		if f.nb < 7+7 {
			f.refill()
		}
		e := ct[f.bits&127]
		if e == 0 {
			return f.corrupt()
		}
		n := uint(e & 0xff)
		f.bits >>= n
		f.nb -= n
		if f.nb < f.virt {
			return f.truncated()
		}
		sym := e >> 16
		if sym < 16 {
			lens[i] = uint8(sym)
			i++
			continue
		}
		var rep int
		var v uint8
		switch sym {
		case 16:
			if i == 0 {
				return f.corrupt()
			}
			x, _ := f.need(2)
			rep, v = 3+int(x), lens[i-1]
		case 17:
			x, _ := f.need(3)
			rep = 3 + int(x)
		default:
			x, _ := f.need(7)
			rep = 11 + int(x)
		}
		if f.nb < f.virt {
			return f.truncated()
		}
		if i+rep > len(lens) {
			return f.corrupt()
		}
		for range rep {
			lens[i] = v
			i++
		}
	}
	if !build(f.dyn.lit[:], lens[:nlit], litEntry, litBits) || !build(f.dyn.dist[:], lens[nlit:], distEntry, distBits) {
		return f.corrupt()
	}
	return nil
}

// huffman decodes symbols of a Huffman block until its end or until the
// window has less than maxMatch bytes of room: fast while 8 bytes of
// input are buffered, then symbol by symbol (slow) at the end of the
// buffered input.
func (f *flateReader) huffman() error {
	for f.wp <= winEnd {
		if len(f.in)-f.ip < 8 {
			f.fill()
		}
		if len(f.in)-f.ip >= 8 {
			res := f.fast()
			if res == resMore {
				continue
			}
			if res == resDone {
				f.state = stBlock
				return nil
			}
			return f.corrupt()
		}
		switch f.slow() {
		case resDone:
			f.state = stBlock
			return nil
		case resCorrupt:
			return f.corrupt()
		case resTruncated:
			return f.truncated()
		}
	}
	return nil
}

// What fast and slow stop at.
const (
	resMore      = iota // more input or room needed
	resDone             // the end of the block
	resCorrupt          // no such symbol, or a distance before the output
	resTruncated        // the input ended inside a symbol
)

// fast is the hot loop. Each round refills the bit buffer once, with a
// word: 56 bits hold the longest length (15+5 bits) and distance (15+13
// bits) codes. It runs while 8 bytes of input are buffered, so it never
// reads past the input; and while the window has maxMatch bytes of room,
// so a match needs no check. The buffers are arrays indexed with a mask,
// which spares the checks of the slices' bounds.
func (f *flateReader) fast() int {
	bits, nb, ip, wp := f.bits, f.nb, f.ip, f.wp
	in, win := f.inBuf, f.winBuf
	lit, dist := f.lit, f.dist
	inEnd, low := len(f.in)-8, f.start
	res := resMore
	for ip <= inEnd && wp <= winEnd {
		bits |= binary.LittleEndian.Uint64(in[ip&(inSize-1):]) << (nb & 63)
		ip += int(63-nb) >> 3
		nb |= 56
		e := lit[bits&(1<<litBits-1)]
		if e&kindLink != 0 {
			e = lit[(e>>16+uint32(bits>>litBits)&(1<<(e>>8&15)-1))&(litTableSize-1)]
		}
		if e&kindLit != 0 {
			n := e & 0xff
			bits >>= n & 63
			nb -= uint(n)
			win[wp&(winSize-1)] = byte(e >> 16)
			wp++
			// A second literal fits in the bits left (56-15 > 15); a
			// length (up to 48 bits with its distance) waits for a refill.
			e = lit[bits&(1<<litBits-1)]
			if e&kindLit != 0 {
				n := e & 0xff
				bits >>= n & 63
				nb -= uint(n)
				win[wp&(winSize-1)] = byte(e >> 16)
				wp++
			}
			continue
		}
		if e&kindLen == 0 {
			if e&kindEOB != 0 {
				n := e & 0xff
				bits >>= n & 63
				nb -= uint(n)
				res = resDone
			} else {
				res = resCorrupt
			}
			break
		}
		// A length: its code and extra bits leave the buffer at once.
		n := e & 0xff
		length := int(e>>16) + int(bits&(1<<(n&63)-1)>>(e>>8&15))
		bits >>= n & 63
		nb -= uint(n)
		e = dist[bits&(1<<distBits-1)]
		if e&kindLink != 0 {
			e = dist[(e>>16+uint32(bits>>distBits)&(1<<(e>>8&15)-1))&(distTableSize-1)]
		}
		n = e & 0xff
		d := int(e>>16) + int(bits&(1<<(n&63)-1)>>(e>>8&15))
		bits >>= n & 63
		nb -= uint(n)
		if e&kindLen == 0 || d > wp-low {
			res = resCorrupt
			break
		}
		src := wp - d
		if d >= 8 {
			// Word copies: each reads bytes written at least 8 back,
			// and may write up to 7 bytes past the match (the window's
			// room), which later output overwrites.
			// Most matches of a trace are short: one word, no loop.
			binary.LittleEndian.PutUint64(win[wp&(winSize-1):], binary.LittleEndian.Uint64(win[src&(winSize-1):]))
			for i := 8; i < length; i += 8 {
				binary.LittleEndian.PutUint64(win[(wp+i)&(winSize-1):], binary.LittleEndian.Uint64(win[(src+i)&(winSize-1):]))
			}
		} else {
			for i := range length {
				win[(wp+i)&(winSize-1)] = win[(src+i)&(winSize-1)]
			}
		}
		wp += length
	}
	f.bits, f.nb, f.ip, f.wp = bits, nb, ip, wp
	return res
}

// slow decodes one symbol with every check: at the end of the buffered
// input, where the bits may run out.
func (f *flateReader) slow() int {
	f.refill()
	e := f.lit[f.bits&(1<<litBits-1)]
	if e&kindLink != 0 {
		e = f.lit[(e>>16+uint32(f.bits>>litBits)&(1<<(e>>8&15)-1))&(litTableSize-1)]
	}
	if e&(kindLit|kindLen|kindEOB) == 0 {
		return resCorrupt
	}
	n := uint(e & 0xff)
	v := int(e>>16) + int(f.bits&(1<<n-1)>>(e>>8&15))
	f.bits >>= n
	f.nb -= n
	if f.nb < f.virt {
		return resTruncated
	}
	switch {
	case e&kindEOB != 0:
		return resDone
	case e&kindLit != 0:
		f.win[f.wp] = byte(v)
		f.wp++
		return resMore
	}
	f.refill()
	e = f.dist[f.bits&(1<<distBits-1)]
	if e&kindLink != 0 {
		e = f.dist[(e>>16+uint32(f.bits>>distBits)&(1<<(e>>8&15)-1))&(distTableSize-1)]
	}
	n = uint(e & 0xff)
	d := int(e>>16) + int(f.bits&(1<<n-1)>>(e>>8&15))
	f.bits >>= n
	f.nb -= n
	if f.nb < f.virt {
		return resTruncated
	}
	if e&kindLen == 0 || d > f.wp-f.start {
		return resCorrupt
	}
	for i := range v {
		f.win[f.wp+i] = f.win[f.wp-d+i]
	}
	f.wp += v
	return resMore
}
