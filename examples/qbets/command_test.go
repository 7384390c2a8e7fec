package main

import (
	"io"
	"strings"
)

// command is the command with an empty standard input, as the tests run it.
func command(args []string, stdout, stderr io.Writer) int {
	return commandIn(args, strings.NewReader(""), stdout, stderr)
}
