package main

import (
	"context"
	"io"
	"strings"
)

// command is the command with an empty standard input, as the tests run it.
func command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return commandIn(ctx, args, strings.NewReader(""), stdout, stderr)
}
