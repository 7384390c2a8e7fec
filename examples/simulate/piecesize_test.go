package main

import (
	"testing"
	"unsafe"

	"github.com/batchq/batchq/swf"
)

// TestStreamPieceBytes: the pieces a streamed run holds at once (two or
// three) take less memory than the window it keeps (tailBytes): at 1,024
// lines three pieces were 456 KiB, and a small log's peak was higher
// (KTH-SP2: 7,260 KiB, 7,012 at 256 lines) for no CPU gained.
func TestStreamPieceBytes(t *testing.T) {
	if held := 3 * streamPiece * int(unsafe.Sizeof(swf.Job{})); held > tailBytes {
		t.Errorf("three pieces of %d lines hold %d bytes, more than the window's %d", streamPiece, held, tailBytes)
	}
	if streamPiece&(streamPiece-1) != 0 {
		t.Errorf("streamPiece %d: the held rest's checks (n&(streamPiece-1)) want a power of two", streamPiece)
	}
}
