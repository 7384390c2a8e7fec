package textclip_test

import (
	"fmt"

	"github.com/batchq/batchq/internal/textclip"
)

func ExampleClip() {
	cause := "disk full\nretry: \x1b[31mno space\x1b[0m on /var/lib/karnak"
	fmt.Printf("%q\n", textclip.Clip(textclip.OneLine(cause), 24))
	fmt.Printf("%q\n", textclip.Clip("héllo", 2)) // never half a rune
	// Output:
	// "disk full retry:  [31mno…"
	// "h…"
}
