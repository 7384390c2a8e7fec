package swf

import "bytes"

// parseFast is parseJob's path for the lines archive logs are made of, up
// to 240 bytes: 18 fields of 1 to 15 digits, a '-' before 1 only (or any
// integer in the status), a float field written as digits with an optional
// '.' and more digits, 15 in all. On such a line it writes j as
// parseJobScan does and reports true; on any other line, an error included,
// it reports false, j untouched (it writes j only once the line is read),
// and parseJobScan decides. s is its scratch space, the Reader's, reused
// from line to line as it was left.
//
// It copies the line into s.b, a '\n' after it, for parseLine, which
// does the work: 973 instructions a KTH line (whole-process callgrind,
// 2026-12-03; 983 before the digit loop took the field's first byte and
// left its last in a register) where parseJobScan takes
// 1,699, parseFast 1,103 with its copy and its search for a '\n'
// (BenchmarkParseJobKTH under callgrind, 2026-11-30): no bounds or length
// checks, blanks and digits in loops of their own, a "-1" field taken
// whole (1,306 before), and the field's kind looked up only at a '.'.
// (1,091 before v*10 was written as two LEAs, the bytes after a '-' read
// in one load, and b's nil check taken out of the loop.) Eight bytes at
// a time (SWAR: blanks by the first non-blank byte of a word, digits
// converted by three multiplications) was dropped: more instructions on
// KTH-SP2 and SDSC-SP2's whole runs (32.2 M and 31.0 M in parseLine
// against 31.1 M; SDSC-SP2 389.4 M against 388.7 M), as a field of one
// to three digits costs as much in a word as a byte at a time, and Go
// (GOAMD64=v1) loads each 64-bit constant and guards each TrailingZeros. A
// Reader calls parseLine on its own buffer instead (Reader.nextFast), but
// for the lines of a buffer's last 258 bytes and those parseLine refuses.
func parseFast(line []byte, j *Job, s *fastScratch) bool {
	n := len(line)
	if n > maxFastLine || bytes.IndexByte(line, '\n') >= 0 { // (a Reader's lines hold none)
		return false
	}
	copy(s.b[:], line)
	s.b[n] = '\n'
	_, ok := parseLine(&s.b, j, s)
	return ok
}

// parseLine is parseFast on the line that ends at the first '\n' of b;
// it also returns the line's length. b is indexed by a byte (no bounds
// checks), and every loop ends at a '\n' or a 0, so that they need no
// length test: b must hold one of them in b[255] or before it (a 0 there
// makes parseLine report false, as any byte it does not take). Nothing
// past it is read but the byte after a "-\n" or "-\x00", b[256] at most,
// in the 16-bit load of the two bytes after a '-', and it decides nothing
// (the first is not '1'); b holds 258 bytes so that the load's index, a
// byte plus 2, needs no bounds check. s.ints and s.fracs are not cleared
// (clearing local arrays was 48 instructions a line): each field's value
// is written before it is read.
func parseLine(b *[258]byte, j *Job, s *fastScratch) (uint8, bool) {
	ints, fracs := &s.ints, &s.fracs
	frac := uint32(0) // the fields with a fraction, in fracs
	i := uint8(0)
	_ = b[0] // (b's nil check, once: the loop's is gone)
	for f := range NumFields {
		c := b[i]
		for c == ' ' {
			i++
			c = b[i]
		}
		if c == '\t' { // (rare: apart from the loop above)
			for c == ' ' || c == '\t' {
				i++
				c = b[i]
			}
		}
		neg := c == '-'
		if neg {
			// The two bytes after the '-' in one load (b holds 258
			// bytes: no bounds check, and i+2 does not wrap around).
			next := uint16(b[uint(i)+1]) | uint16(b[uint(i)+2])<<8
			if next == '1'|' '<<8 {
				// "-1 ", unknown: 44% of KTH-SP2's fields, 40% of
				// SDSC-BLUE's, 21% of LANL-CM5's (KTH: 13% fewer
				// instructions a line).
				ints[f] = -1
				i += 3
				continue
			}
			if next == '1'|'\n'<<8 && f == NumFields-1 {
				ints[f] = -1 // (the last field of most archive lines)
				i += 2
				break
			}
			i++
			c = b[i]
		}
		start := i
		var v uint64
		// (d a uint64 and tested in the loop's condition: nine
		// instructions a digit, where a byte and a break took ten; the
		// field's first byte is c, and the byte after its digits is d's,
		// not loaded again)
		d := uint64(c) - '0'
		for ; d <= 9; d = uint64(b[i]) - '0' {
			v = (v*5)<<1 + d // (two LEAs; v*10 compiles to three)
			i++
		}
		c = byte(d + '0')
		if nd := i - start; nd-1 >= 15 { // none, or more than parseFast reads
			return 0, false
		}
		if c == ' ' && !neg {
			// A plain integer and a space: the general path's value and
			// step, without its tests for a fraction, a '-', a tab and the
			// line's end (KTH-SP2's whole run: 27.7 M → 27.1 M
			// instructions in parseLine).
			ints[f] = int64(v)
			i++
			continue
		}
		if c == '.' {
			// A float field's fraction: a value of parseFloat's, to the
			// end of the field.
			if !floatField[f] {
				return 0, false
			}
			i++
			fs := i
			c = b[i]
			for d := c - '0'; d <= 9; d = c - '0' {
				v = (v*5)<<1 + uint64(d)
				i++
				c = b[i]
			}
			k := i - fs
			if k == 0 || i-start-1 > 15 { // ("5." is 5 to parseJobScan, which takes 15 digits at most)
				return 0, false
			}
			x := float64(v) / pow10[k] // as parseJobScan computes it
			if neg {
				if x = -x; x < -1 {
					return 0, false
				}
			}
			fracs[f] = x
			frac |= 1 << f
		} else {
			// An integer, in any field: a float field's is converted
			// at the end. A '-' goes before 1 only (or any integer in the
			// status); "-0" is left to parseJobScan, which makes it -0 in
			// a float field.
			x := int64(v)
			if neg {
				if x > 1 && f != statusField || x == 0 {
					return 0, false
				}
				x = -x
			}
			ints[f] = x
		}
		if c != ' ' && c != '\t' {
			if c == '\n' && f == NumFields-1 {
				break
			}
			return 0, false
		}
		i++
	}
	for c := b[i]; c == ' ' || c == '\t'; c = b[i] {
		i++
	}
	if b[i] != '\n' { // a 19th field, or a byte that is not a blank
		return 0, false
	}
	j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs = ints[0], ints[1], ints[2], ints[3], ints[4]
	j.AvgCPUTime, j.UsedMemory = float64(ints[5]), float64(ints[6])
	j.ReqProcs, j.ReqTime, j.ReqMemory = ints[7], ints[8], float64(ints[9])
	if frac != 0 {
		if frac&(1<<5) != 0 {
			j.AvgCPUTime = fracs[5]
		}
		if frac&(1<<6) != 0 {
			j.UsedMemory = fracs[6]
		}
		if frac&(1<<9) != 0 {
			j.ReqMemory = fracs[9]
		}
	}
	j.Status, j.User, j.Group = Status(ints[10]), ints[11], ints[12]
	j.Executable, j.Queue, j.Partition, j.PrecedingJob = ints[13], ints[14], ints[15], ints[16]
	j.ThinkTime = ints[17]
	return i, true
}

// fastScratch is parseFast's copy of the line and parseLine's fields'
// values.
type fastScratch struct {
	b     [258]byte
	ints  [NumFields]int64
	fracs [NumFields]float64
}

// maxFastLine is the longest line parseFast takes (a job line of the
// archive takes about 100 bytes): a buffer of 256 bytes holds the line
// and the '\n', and an index never wraps around (the scratch's 258 hold
// the two bytes after a '-' too).
const maxFastLine = 240
