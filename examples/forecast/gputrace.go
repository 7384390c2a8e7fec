package main

import (
	"io"
	"os"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/inflate"
)

// convertFirst returns the error for a trace that is a GPU cluster job
// table convert -from gpu reads (Helios, Acme, Philly, PAI), which the SWF
// reader would only call a bad job number, nil if it is none: their
// processors are GPUs and their demands need the converter. It looks at
// the first 64 KiB (decompressed), as swf/convert's sniffing does
// (cli.GPUTable).
func convertFirst(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r, closers, err := inflate.Prefix(f, path)
	if err != nil {
		return nil
	}
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i].Close()
		}
	}()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(r, head)
	if table := cli.GPUTable(head[:n]); table != "" {
		return cli.ConvertFirst(path, table)
	}
	return nil
}
