package inflate

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// canonical returns the canonical Huffman codes of lengths (RFC 1951,
// 3.2.2), for writing blocks by hand.
func canonical(lengths []uint8) []uint32 {
	var count, next [16]uint32
	for _, n := range lengths {
		count[n]++
	}
	count[0] = 0
	code := uint32(0)
	for n := 1; n < 16; n++ {
		code = (code + count[n-1]) << 1
		next[n] = code
	}
	codes := make([]uint32, len(lengths))
	for s, n := range lengths {
		if n != 0 {
			codes[s] = next[n]
			next[n]++
		}
	}
	return codes
}

// dynamic writes a dynamic block header for lit and dist code lengths,
// the code length code being 4 bits for each of 0-15 (complete, no
// repeats), and returns the codes.
func (w *bitWriter) dynamic(final bool, lit, dist []uint8) (litCodes, distCodes []uint32) {
	w.bits(map[bool]uint32{true: 1}[final], 1)
	w.bits(2, 2)
	w.bits(uint32(len(lit)-257), 5)
	w.bits(uint32(len(dist)-1), 5)
	w.bits(19-4, 4)
	for _, s := range codeOrder {
		w.bits(map[bool]uint32{true: 4}[s < 16], 3)
	}
	for _, n := range append(append([]uint8{}, lit...), dist...) {
		w.code(uint32(n), 4) // (canonical: symbol n of sixteen 4-bit codes is n)
	}
	return canonical(lit), canonical(dist)
}

// long returns code lengths, for n symbols, that make a complete code
// with codes of every length from 1 to 15: symbols at[0..15] get lengths
// 1, 2, ..., 14, 15, 15; the others none.
func long(n int, at [16]int) []uint8 {
	l := make([]uint8, n)
	for i, s := range at {
		l[s] = uint8(min(i+1, 15))
	}
	return l
}

// TestDeflateCrafted: blocks made by hand that the encoders never write
// decode as compress/flate decodes them, or fail as it fails, of the same
// kind (corrupt or truncated).
func TestDeflateCrafted(t *testing.T) {
	// Codes of 1 to 15 bits: 'a'..'n' and the end of block, a length
	// of 3 (257) and of 258 (285) at 15 bits, in subtables of both tables.
	litAt := [16]int{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 257, 285, 256}
	distAt := [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 28, 29}
	longBlock := func(body func(w *bitWriter, lc, dc []uint32, ll, dl []uint8)) []byte {
		var w bitWriter
		ll, dl := long(286, litAt), long(30, distAt)
		lc, dc := w.dynamic(true, ll, dl)
		body(&w, lc, dc, ll, dl)
		return w.buf
	}
	sym := func(w *bitWriter, codes []uint32, lens []uint8, s int) { w.code(codes[s], uint(lens[s])) }
	fixedBlock := func(body func(w *bitWriter)) []byte {
		var w bitWriter
		w.bits(1, 1)
		w.bits(1, 2)
		body(&w)
		return w.buf
	}
	cases := map[string][]byte{
		"long codes": longBlock(func(w *bitWriter, lc, dc []uint32, ll, dl []uint8) {
			for _, c := range "abcdefghijklm" {
				sym(w, lc, ll, int(c))
			}
			sym(w, lc, ll, 285) // 258 bytes
			sym(w, dc, dl, 12)  // distance 4097 + 11 bits: too far
			w.bits(0, 11)
			sym(w, lc, ll, 256)
		}),
		"long codes, near": longBlock(func(w *bitWriter, lc, dc []uint32, ll, dl []uint8) {
			for _, c := range "abcdefghijklm" {
				sym(w, lc, ll, int(c))
			}
			sym(w, lc, ll, 257) // 3 bytes
			sym(w, dc, dl, 5)   // distance 7 + 1 bit
			w.bits(1, 1)        // 8
			sym(w, lc, ll, 285)
			sym(w, dc, dl, 0)
			sym(w, lc, ll, 256)
		}),
		"long codes, farthest distance": longBlock(func(w *bitWriter, lc, dc []uint32, ll, dl []uint8) {
			sym(w, lc, ll, 'a')
			sym(w, lc, ll, 285)
			sym(w, dc, dl, 29) // 24577 + 13 bits: too far
			w.bits(8191, 13)
			sym(w, lc, ll, 256)
		}),
		"long codes, cut": longBlock(func(w *bitWriter, lc, dc []uint32, ll, dl []uint8) {
			sym(w, lc, ll, 'a')
			w.code(lc[285]>>3, 12) // the first 12 of 15 bits
		}),
		"incomplete lit": func() []byte {
			var w bitWriter
			l := long(286, litAt)
			l[285] = 0
			w.dynamic(true, l, []uint8{1})
			return w.buf
		}(),
		"over-subscribed lit": func() []byte {
			var w bitWriter
			l := long(286, litAt)
			l['z'] = 15
			w.dynamic(true, l, []uint8{1})
			return w.buf
		}(),
		"all-zero lit": func() []byte {
			var w bitWriter
			w.dynamic(true, make([]uint8, 257), []uint8{1})
			w.bits(0, 16)
			return w.buf
		}(),
		"no end of block": func() []byte {
			var w bitWriter
			l := make([]uint8, 257)
			l['a'], l['b'] = 1, 1
			c, _ := w.dynamic(true, l, []uint8{1})
			w.code(c['a'], 1)
			w.code(c['b'], 1)
			return w.buf
		}(),
		"single code": func() []byte {
			var w bitWriter
			l := make([]uint8, 257)
			l[256] = 1
			w.dynamic(false, l, []uint8{1})
			w.bits(0, 1) // the end of block
			w.dynamic(true, l, []uint8{1})
			w.bits(1, 1) // the code no symbol has
			return w.buf
		}(),
		"no distance code, a length": func() []byte {
			var w bitWriter
			l := make([]uint8, 258)
			l['a'], l[256], l[257] = 1, 2, 2
			c, _ := w.dynamic(true, l, []uint8{0})
			w.code(c['a'], 1)
			w.code(c[257], 2)
			w.code(0, 8)
			return w.buf
		}(),
		"31 distance codes": func() []byte {
			var w bitWriter
			w.dynamic(true, long(286, litAt), append(long(30, distAt), 0))
			return w.buf
		}(),
		"fixed distance 30": fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
			w.code(0xc0, 8) // 280: length 115 + 4 bits
			w.bits(0, 4)
			w.code(30, 5)
		}),
		"fixed distance 31": fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
			w.code(1, 7) // 257: length 3
			w.code(31, 5)
		}),
		"fixed length 286": fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
			w.code(0xc6, 8)
			w.code(0, 5)
		}),
		"fixed length 287": fixedBlock(func(w *bitWriter) {
			w.code(0xc7, 8)
		}),
		"fixed distance before the start": fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
			w.code(1, 7) // 257: length 3
			w.code(1, 5) // distance 2
			w.code(0, 7)
		}),
		"fixed length 258 by 284": fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
			w.code(0xc4, 8) // 284: 227 + 5 bits of 31
			w.bits(31, 5)
			w.code(0, 5) // distance 1
			w.code(0, 7)
		}),
		"stored LEN/NLEN mismatch": {1, 5, 0, 0xfa, 0xfe, 'h', 'e', 'l', 'l', 'o'},
		"stored, cut":              {1, 5, 0, 0xfa, 0xff, 'h', 'e'},
		"stored, cut in LEN":       {1, 5},
		"block type 3":             {7},
	}
	// Each as it is (decoded by the slow loop, at the input's end) and
	// followed by 16 bytes (by the fast loop).
	for name, data := range cases {
		for _, d := range [][]byte{data, append(bytes.Clone(data), bytes.Repeat([]byte{0xa5}, 16)...)} {
			got, err := inflateRaw(d)
			want, werr := reference(d, 1<<20)
			if category(err) != category(werr) || err == nil && !bytes.Equal(got, want) {
				t.Errorf("%s, %d bytes: %d bytes, %v (%s); compress/flate: %d bytes, %v (%s)", name, len(d), len(got), err, category(err), len(want), werr, category(werr))
			}
		}
	}
}

// TestDeflateWindowEdges: texts whose end, and whose matches, fall at
// and around the window's end (winEnd), where the fast loop stops and
// the window slides, at each kind of block.
func TestDeflateWindowEdges(t *testing.T) {
	text := samples()["mixed"]
	for len(text) < 3*winSize {
		text = append(text, text...)
	}
	for _, n := range []int{winEnd - 1, winEnd, winEnd + 1, winEnd + 258, 2*winEnd - histSize - 1, 2*winEnd - histSize, 2*winEnd - histSize + 1} {
		for _, level := range []int{-2, 0, 1, 9} {
			got, err := inflateRaw(deflate(t, text[:n], level))
			if err != nil || !bytes.Equal(got, text[:n]) {
				t.Errorf("%d bytes at level %d: %d bytes, %v", n, level, len(got), err)
			}
		}
	}
}

// TestMembersNoHistory: a member's matches cannot reach into the member
// before it (each starts with no history), even when that one's bytes
// are still in the window: compress/gzip says corrupt, and so must the
// inflater.
func TestMembersNoHistory(t *testing.T) {
	var w bitWriter
	w.bits(1, 1)
	w.bits(1, 2)
	w.code(0x30+'x', 8)
	w.code(1, 7) // 257: length 3
	w.code(1, 5) // distance 2: "x" and the last byte of the member before
	w.code(0, 7)
	second := member(nil, 0, 0, nil, nil, nil)
	second = append(append(second[:10:10], w.buf...), 0, 0, 0, 0, 0, 0, 0, 0)
	data := append(gz(t, []byte("abc")), second...)
	want, werr := refGzip(data)
	got, err := readAll(t, data)
	if werr == nil || category(err) != category(werr) {
		t.Fatalf("%q, %v; compress/gzip: %q, %v", got, err, want, werr)
	}
}

// TestHeaderCuts: a member with every header field, cut at each byte,
// says truncated, as compress/gzip does; a wrong header CRC says corrupt;
// an extra field longer than the file says truncated.
func TestHeaderCuts(t *testing.T) {
	full := member([]byte("1 0 1 10 1\n"), 6, 2|4|8|16, []byte("xtra"), []byte("name"), []byte("comment"))
	for n := 2; n < len(full); n++ {
		_, err := readAll(t, full[:n])
		_, werr := refGzip(full[:n])
		if category(err) != "truncated" || category(werr) != "truncated" {
			t.Errorf("cut at %d of %d: %v; compress/gzip: %v", n, len(full), err, werr)
		}
	}
	bad := bytes.Clone(full)
	bad[10+2+4+5+8] ^= 1 // the header's CRC
	if _, err := readAll(t, bad); category(err) != "corrupt" || !strings.Contains(err.Error(), gzip.ErrHeader.Error()) {
		t.Errorf("wrong header CRC: %v", err)
	}
	huge := append([]byte{0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 3, 0xff, 0xff}, make([]byte, 1000)...)
	if _, err := readAll(t, huge); category(err) != "truncated" {
		t.Errorf("XLEN 65535 of 1000 bytes: %v", err)
	}
}

func deflate(tb testing.TB, text []byte, level int) []byte {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, level)
	if err != nil {
		tb.Fatal(err)
	}
	w.Write(text)
	w.Close()
	return buf.Bytes()
}

// TestCorruptOffset: a damaged stream's error gives the offset in the
// stream where the decoding failed, as compress/flate's does (within the
// bytes its bit buffer reads ahead), not an index into the input buffer,
// which each refill of it moves.
func TestCorruptOffset(t *testing.T) {
	text := samples()["swf"]
	data := deflate(t, append(append(bytes.Clone(text), samples()["random"]...), text...), 6)
	checked := 0
	for at := len(data) / 8; at < len(data) && checked < 20; at += 997 {
		d := bytes.Clone(data)
		d[at] ^= 0x5a
		var got, want flate.CorruptInputError
		if _, err := inflateRaw(d); !errors.As(err, &got) {
			// Most damage decodes to other bytes without an error
			// (331 of the 332 bytes tried): compress/flate, which
			// then reads the whole stream, is asked only when ours
			// fails. Under -race that took the test from 49.8 s of
			// CPU to 19.0 s; the bytes checked are the same.
			continue
		}
		if _, werr := reference(d, 8<<20); !errors.As(werr, &want) {
			continue
		}
		checked++
		if got < want-8 || got > want+8 {
			t.Errorf("byte %d damaged: offset %d; compress/flate's %d", at, got, want)
		}
	}
	if checked == 0 {
		t.Fatal("no damage found")
	}
}

// TestMembersNoHistoryAfterSlide: the same after the window slid in the
// middle of the second member: a match 20,000 bytes back from 15,001
// bytes into it reaches 5,000 bytes into the first member, whose bytes
// are still in the window. Its CRC and size are those of the bytes such
// a match would copy, so that only the distance is wrong.
func TestMembersNoHistoryAfterSlide(t *testing.T) {
	first := samples()["random"][:120000]
	first = append(first, first...)[:250000] // (the second member starts 12 KiB before winEnd)
	stored := bytes.Repeat([]byte("0123456789abcde\n"), 15000/16)
	var w bitWriter
	w.bits(0, 3) // stored, not final
	w.buf = binary.LittleEndian.AppendUint16(w.buf, uint16(len(stored)))
	w.buf = binary.LittleEndian.AppendUint16(w.buf, ^uint16(len(stored)))
	w.buf = append(w.buf, stored...)
	w.n = uint(len(w.buf)) * 8
	w.bits(1, 1) // final
	w.bits(1, 2) // fixed
	w.code(0x30+'x', 8)
	w.code(0xc5, 8)         // 285: length 258
	w.code(28, 5)           // distance 16385 + 13 bits
	w.bits(20000-16385, 13) // 20000
	w.code(0, 7)
	all := append(append(bytes.Clone(first), stored...), 'x')
	for range 258 {
		all = append(all, all[len(all)-20000])
	}
	out := all[len(first):]
	second := append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, w.buf...)
	second = binary.LittleEndian.AppendUint32(second, crc32.ChecksumIEEE(out))
	second = binary.LittleEndian.AppendUint32(second, uint32(len(out)))
	data := append(gz(t, first), second...)
	_, werr := refGzip(data)
	got, err := readAll(t, data)
	if werr == nil || category(err) != "corrupt" {
		t.Fatalf("%d bytes, %v; compress/gzip: %v", len(got), err, werr)
	}
}
