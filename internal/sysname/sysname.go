// Package sysname is the rule for the name of a system (and of a queue) in
// the Karnak service, shared by the service and its Slurm feed: a feed
// that names a system the service refuses has every batch rejected, so it
// checks the name at start with the same rule.
package sysname

import "strings"

// Rule says what Valid accepts, for error messages.
const Rule = "1–64 letters, digits, '.', '_', '-'; not . or .."

// Valid reports whether s is a name: 1–64 letters, digits, '.', '_', '-',
// but not "." or "..", which a URL path cannot name
// (/karnak/system/../status is /karnak/status).
func Valid(s string) bool {
	if len(s) == 0 || len(s) > 64 || s == "." || s == ".." {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}) < 0
}
