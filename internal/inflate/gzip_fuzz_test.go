package inflate

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
	"testing"
)

// refGzip reads data as the package documents it, with compress/gzip as
// the inflater (the way the code before the library's own decoder did):
// members one after another, zero bytes after the last one end the
// stream, any other byte there is an error.
func refGzip(data []byte) ([]byte, error) {
	br := bufio.NewReader(bytes.NewReader(data)) // (compress/gzip reads it byte-exact)
	zr, err := gzip.NewReader(br)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	var out []byte
	for {
		zr.Multistream(false)
		b, err := io.ReadAll(io.LimitReader(zr, 64<<20))
		out = append(out, b...)
		if err != nil {
			return out, err
		}
		magic, _ := br.Peek(2)
		switch {
		case len(magic) == 0:
			return out, nil
		case len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b:
			if err := zr.Reset(br); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return out, err
			}
			continue
		}
		for {
			c, err := br.ReadByte()
			if err == io.EOF {
				return out, nil
			}
			if c != 0 {
				return out, errTrailing
			}
		}
	}
}

var errTrailing = errors.New("trailing garbage")

// member is a gzip member of text made by hand, so that every header
// field can be set: flags says which of FHCRC (2), FEXTRA (4), FNAME (8)
// and FCOMMENT (16) it has; extra, name and comment are their bytes.
func member(text []byte, level int, flags byte, extra, name, comment []byte) []byte {
	h := []byte{0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3}
	if flags&4 != 0 {
		h = binary.LittleEndian.AppendUint16(h, uint16(len(extra)))
		h = append(h, extra...)
	}
	if flags&8 != 0 {
		h = append(append(h, name...), 0)
	}
	if flags&16 != 0 {
		h = append(append(h, comment...), 0)
	}
	if flags&2 != 0 {
		h = binary.LittleEndian.AppendUint16(h, uint16(crc32.ChecksumIEEE(h)))
	}
	buf := bytes.NewBuffer(h)
	w, _ := flate.NewWriter(buf, level)
	w.Write(text)
	w.Close()
	out := binary.LittleEndian.AppendUint32(buf.Bytes(), crc32.ChecksumIEEE(text))
	return binary.LittleEndian.AppendUint32(out, uint32(len(text)))
}

// category is what an error says: truncated, corrupt, or trailing
// garbage (not gzip).
func category(err error) string {
	switch {
	case err == nil:
		return "none"
	case errors.Is(err, errTrailing), errors.As(err, new(trailingError)):
		return "trailing"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated"
	}
	return "corrupt"
}

// FuzzGzip: Reader and Prefix read any input as refGzip does
// (compress/gzip and the package's rules for members and padding): the
// same bytes, an error where it has one, of the same kind. The inputs are
// the fuzzer's bytes as they are (mode 0), or gzip members of its text
// at its levels with its header fields, one or two of them, followed by
// its tail (zeros, garbage, another member's start), cut or with a byte
// changed.
func FuzzGzip(f *testing.F) {
	swf := []byte("1 0 5 60 4 -1 -1 4 3600 -1 1 1 -1 -1 -1 -1 -1 -1\n2 5 1 10 1 -1 -1 1 10 -1 1 1 -1 -1 -1 -1 -1 -1\n")
	f.Add(swf, uint8(0), uint8(6), uint16(0), []byte{})
	f.Add(swf, uint8(1), uint8(6), uint16(40), []byte{0, 0, 0})
	f.Add(swf, uint8(0xff), uint8(0), uint16(7), []byte{0x1f, 0x8b, 0})
	f.Add(bytes.Repeat(swf, 50), uint8(5), uint8(11), uint16(300), []byte("xyz"))
	f.Add(gz(f, swf), uint8(0), uint8(0), uint16(0), []byte{})
	f.Fuzz(func(t *testing.T, text []byte, mode, level uint8, at uint16, tail []byte) {
		if len(text) > 16<<10 || len(tail) > 1<<10 {
			return
		}
		data := text // mode 0: the bytes as they are
		if mode != 0 {
			lv := int(level%12) - 2 // -2 (Huffman only) to 9
			split := min(int(at), len(text))
			flags := mode & (2 | 4 | 8 | 16)
			name := bytes.ReplaceAll(tail[:min(len(tail), 40)], []byte{0}, []byte{'n'})
			data = member(text[:split], lv, flags, tail, name, name)
			if mode&1 != 0 {
				data = append(data, member(text[split:], (lv+5)%12-2, flags^mode>>5, tail, name, nil)...)
			}
			data = append(data, tail...)
			if mode&0x40 != 0 && len(data) > 0 { // cut
				data = data[:int(at)%len(data)]
			}
			if mode&0x80 != 0 && len(data) > 0 && len(tail) > 0 { // a byte changed
				data = bytes.Clone(data)
				data[(int(at)*7)%len(data)] ^= tail[0] | 1
			}
		}
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			return // plain text, FuzzReader's case
		}
		want, werr := refGzip(data)
		if len(want) >= 64<<20 {
			return
		}
		got, err := readAll(t, data)
		if category(err) != category(werr) {
			t.Fatalf("error %v (%s); compress/gzip's %v (%s)", err, category(err), werr, category(werr))
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "test.gz: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes; compress/gzip gives %d", len(got), len(want))
		}
	})
}
