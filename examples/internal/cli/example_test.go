package cli_test

import (
	"fmt"

	"github.com/batchq/batchq/examples/internal/cli"
)

// Text read from a trace or a Slurm command is printed as it is when it
// is printable, quoted when it holds a control sequence.
func ExamplePrintable() {
	fmt.Println(cli.Printable("SDSC Blue Horizon"))
	fmt.Println(cli.Printable("\x1b]0;pwned\a"))
	// Output:
	// SDSC Blue Horizon
	// "\x1b]0;pwned\a"
}
