package inflate

// A decoding table entry packs all a symbol means into one uint32, so
// that the hot loop decodes a literal or a length with one load:
//
//	bits 0-7    bits to consume: code length plus extra bits
//	bits 8-11   code length (for a link: subtable bits)
//	bits 12-15  kind: literal, length, end of block, link, or 0 (no code)
//	bits 16-31  literal byte, length or distance base, or subtable offset
//
// A code longer than the primary bits is found in a subtable that the
// primary entry for its first bits links to, as in zlib and libdeflate.
const (
	kindEOB  = 1 << 12
	kindLit  = 1 << 13
	kindLen  = 1 << 14 // a length, or in a distance table a distance
	kindLink = 1 << 15

	litBits  = 10 // primary bits of a literal/length table
	distBits = 8  // of a distance table
	// litTableSize and distTableSize hold a primary table and all its
	// subtables (zlib's ENOUGH bounds: 1334 and 402), rounded up to a
	// power of two so that an index masked with the size needs no check.
	litTableSize  = 2048
	distTableSize = 512
)

var lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
var lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
var distBase = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
var distExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

// litEntry is what literal/length symbol s means, without its code length
// (its low byte: the extra bits).
func litEntry(s int) uint32 {
	switch {
	case s < 256:
		return kindLit | uint32(s)<<16
	case s == 256:
		return kindEOB
	case s < 286:
		return kindLen | uint32(lengthExtra[s-257]) | uint32(lengthBase[s-257])<<16
	}
	return 0 // 286 and 287 (fixed code only) are no symbol
}

// distEntry is what distance symbol s means.
func distEntry(s int) uint32 {
	if s < 30 {
		return kindLen | uint32(distExtra[s]) | uint32(distBase[s])<<16
	}
	return 0 // 30 and 31 (fixed code only) are no symbol
}

// build fills table with the canonical Huffman code of lengths (one per
// symbol, 0 for none), entry(s) giving symbol s's meaning, primary bits
// wide. It refuses what compress/flate refuses: an over-subscribed or
// incomplete code, except a code of one 1-bit symbol (zlib accepts it) and
// no code at all (an unused distance code); the bit patterns no symbol has
// decode to entry 0, an error if they occur.
func build(table []uint32, lengths []uint8, entry func(int) uint32, primary uint) bool {
	var count [16]int
	maxLen := 0
	for _, n := range lengths {
		count[n]++
		maxLen = max(maxLen, int(n))
	}
	count[0] = 0
	code := 0
	var next [16]int
	for n := 1; n <= maxLen; n++ {
		code <<= 1
		next[n] = code
		code += count[n]
	}
	if maxLen > 0 && code != 1<<maxLen && !(code == 1 && maxLen == 1) {
		return false
	}
	size := 1 << primary
	clear(table[:size])
	if maxLen == 0 {
		return true
	}
	// Codes in canonical order, bit-reversed (DEFLATE sends codes from
	// their top bit, the bit buffer takes bits from its bottom).
	var rev [288]uint16
	for s, n := range lengths {
		if n != 0 {
			rev[s] = reverse(uint16(next[n]), uint(n))
			next[n]++
		}
	}
	// Subtables: for each primary slot whose codes are longer than the
	// primary bits, one of 2^(longest - primary) entries.
	var subBits [1 << litBits]uint8
	if uint(maxLen) > primary {
		for s, n := range lengths {
			if uint(n) > primary {
				p := rev[s] & uint16(size-1)
				subBits[p] = max(subBits[p], n-uint8(primary))
			}
		}
		off := size
		for p := range size {
			if b := subBits[p]; b != 0 {
				table[p] = kindLink | uint32(b)<<8 | uint32(off)<<16
				clear(table[off : off+1<<b])
				off += 1 << b
			}
		}
	}
	for s, n := range lengths {
		if n == 0 {
			continue
		}
		e := entry(s) + uint32(n) | uint32(n)<<8
		r := int(rev[s])
		if uint(n) <= primary {
			for i := r; i < size; i += 1 << n {
				table[i] = e
			}
			continue
		}
		link := table[r&(size-1)]
		base, b := int(link>>16), uint(link>>8&15)
		for i := r >> primary; i < 1<<b; i += 1 << (uint(n) - primary) {
			table[base+i] = e
		}
	}
	return true
}

func reverse(code uint16, n uint) uint16 {
	var r uint16
	for range n {
		r = r<<1 | code&1
		code >>= 1
	}
	return r
}

// fixedLit and fixedDist are the tables of the fixed Huffman code
// (RFC 1951, 3.2.6).
var fixedLit, fixedDist = func() (*[litTableSize]uint32, *[distTableSize]uint32) {
	var lengths [288]uint8
	for i := range lengths {
		switch {
		case i < 144:
			lengths[i] = 8
		case i < 256:
			lengths[i] = 9
		case i < 280:
			lengths[i] = 7
		default:
			lengths[i] = 8
		}
	}
	var lit [litTableSize]uint32
	var dist [distTableSize]uint32
	build(lit[:], lengths[:], litEntry, litBits)
	var d [32]uint8
	for i := range d {
		d[i] = 5
	}
	build(dist[:], d[:], distEntry, distBits)
	return &lit, &dist
}()
