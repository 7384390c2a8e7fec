package inflate

import "testing"

// TestWindowPages: the window is at most 128 KiB (its pages were 64 of
// the 840 a small log's streamed run touched at 256 KiB, each a page
// fault), a power of two (the fast loop masks its positions with
// winSize-1), and a decode call adds at least twice the history it
// slides back, so that the slides' copies stay under half the output.
func TestWindowPages(t *testing.T) {
	f := newFlateReader(nil)
	if n := cap(f.win); n > 128<<10+8 { // (the buffer: the window and its 8 bytes of slack)
		t.Errorf("window of %d bytes, want at most 128 KiB + 8", n)
	}
	if winSize&(winSize-1) != 0 {
		t.Errorf("winSize %d is not a power of two", winSize)
	}
	if winEnd-histSize < 2*histSize {
		t.Errorf("a decode call adds %d bytes after %d of history: slides would copy more than half the output", winEnd-histSize, histSize)
	}
}
