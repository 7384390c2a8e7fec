package inflate

import (
	"io"
	"sync"
)

// chunkSize is the unit handed from the decompressing goroutine to the
// parser. Four of them are in flight: at 256 KiB they were a megabyte,
// a tenth of a small log's whole peak (KTH-SP2: 10,240 KiB); at 64 KiB the
// hand-overs are still few (40 on KTH-SP2's 2.6 MB of text, 445 on
// CEA-Curie's 29.1 MB), and the CPU the same
// (callgrind, whole process: KTH-SP2 235.9 M instructions before,
// 236.1 M after).
const chunkSize = 64 << 10

// asyncReader reads src in a separate goroutine, so that decompression and
// parsing overlap on two cores and reading a .gz trace costs little more
// than decompressing it. Close stops the goroutine.
type asyncReader struct {
	full  chan chunk
	free  chan []byte
	done  chan struct{} // closed by Close
	exit  chan struct{} // closed when fill returns
	once  sync.Once
	cur   []byte
	spare []byte // the buffer cur points into, returned to free when drained
	err   error
	src   io.Reader // what fill reads (for TrailingZeros)
}

type chunk struct {
	buf []byte
	err error
}

func newAsyncReader(src io.Reader) *asyncReader {
	a := &asyncReader{full: make(chan chunk, 3), free: make(chan []byte, 4), done: make(chan struct{}), exit: make(chan struct{}), src: src}
	for range 4 {
		a.free <- make([]byte, chunkSize)
	}
	go a.fill(src)
	return a
}

func (a *asyncReader) fill(src io.Reader) {
	defer close(a.exit)
	defer close(a.full)
	for {
		var buf []byte
		select {
		case buf = <-a.free:
			buf = buf[:cap(buf)]
		case <-a.done:
			return
		}
		// Not io.ReadFull: it would turn a truncated gzip stream's
		// io.ErrUnexpectedEOF into an ordinary short read.
		n, err := 0, error(nil)
		for n < len(buf) && err == nil {
			var m int
			m, err = src.Read(buf[n:])
			n += m
		}
		select {
		case a.full <- chunk{buf[:n], err}:
		case <-a.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (a *asyncReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.spare != nil {
			a.free <- a.spare[:cap(a.spare)]
			a.spare = nil
		}
		if a.err != nil {
			return 0, a.err
		}
		c, ok := <-a.full
		if !ok {
			return 0, io.ErrClosedPipe
		}
		a.cur, a.spare, a.err = c.buf, c.buf, c.err
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and waits for it, so that src can be
// closed safely afterwards. It does not close src.
func (a *asyncReader) Close() error {
	a.once.Do(func() { close(a.done) })
	<-a.exit
	return nil
}
