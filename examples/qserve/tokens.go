package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/batchq/batchq/qbets/karnak"
)

// The service is closed by default. Without -tokens, serve uses the
// tokens file beside its database (<db>.tokens), and makes one at its
// first start: a write token for every system ("feed") and an admin
// token ("admin", for drop and rewind), written with mode 0600 and
// printed once on standard error. A tokens file that others may read is
// refused. -tokens off runs without tokens: the library then takes
// writes from loopback only and repairs from nobody.

// readTokens reads a tokens file (parseTokens), refusing one that
// other users may read or write.
func readTokens(path string) ([]karnak.Token, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	// A directory was refused for its mode ("lets other users read it;
	// chmod 600"), and a FIFO or a device of mode 0600 was read until it
	// ended, if ever (a file is read whole): neither is a tokens file.
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("tokens file %s: not a regular file (%v)", path, fi.Mode().Type())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("tokens file %s: mode %v lets other users read it; chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	if fi.Size() > maxTokensFile {
		return nil, fmt.Errorf("tokens file %s: %d bytes, at most %d", path, fi.Size(), maxTokensFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// (Bounded again as read: the file may grow after the Stat.)
	b, err := io.ReadAll(io.LimitReader(f, maxTokensFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxTokensFile {
		return nil, fmt.Errorf("tokens file %s: more than %d bytes", path, maxTokensFile)
	}
	return parseTokens(b, path)
}

// maxTokens bounds a tokens file.
const maxTokens = 10000

// maxTokensFile bounds a tokens file's bytes, read whole: 1,677 bytes a
// token at maxTokens, where a token of a write and an admin token, as
// serve makes them, takes about 60.
const maxTokensFile = 16 << 20

// parseTokens reads a tokens file: one token a line, "name secret
// systems [admin]", systems a comma-separated list or *; # comments.
// Every token is checked as the service will (karnak.Config.Validate):
// the error names the line.
func parseTokens(b []byte, path string) ([]karnak.Token, error) {
	var out []karnak.Token
	// The tokens are checked together once, and the secrets seen are
	// kept here: a check of every token so far at each line was
	// quadratic (14.7 s at start for a file of maxTokens, in a one-off
	// probe on a loaded 2-core machine; each alone, 1.3 s).
	secrets := map[string]int{} // secret → its line
	var lines []int             // of each token
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 3 || len(f) > 4 || len(f) == 4 && f[3] != "admin" {
			return nil, fmt.Errorf("%s:%d: want \"name secret systems [admin]\"", path, i+1)
		}
		if len(out) == maxTokens {
			return nil, fmt.Errorf("%s:%d: more than %d tokens", path, i+1, maxTokens)
		}
		tk := karnak.Token{Name: f[0], Secret: f[1], Systems: strings.Split(f[2], ","), Admin: len(f) == 4}
		if l, ok := secrets[tk.Secret]; ok {
			return nil, fmt.Errorf("%s:%d: the secret of the token of line %d", path, i+1, l)
		}
		secrets[tk.Secret] = i + 1
		out = append(out, tk)
		lines = append(lines, i+1)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no tokens", path)
	}
	if err := checkTokens(karnak.Config{Tokens: out}); err != nil {
		// Which line: each token alone (only on this path).
		for k, tk := range out {
			if err := checkTokens(karnak.Config{Tokens: []karnak.Token{tk}}); err != nil {
				return nil, fmt.Errorf("%s:%d: %s", path, lines[k], strings.TrimPrefix(settingError(err), "Tokens[0]."))
			}
		}
		return nil, fmt.Errorf("%s: %s", path, settingError(err))
	}
	return out, nil
}

// checkTokens is Config.Validate; a variable for the test that counts
// the tokens checked (TestParseTokensLinear).
var checkTokens = func(c karnak.Config) error { return c.Validate() }

// defaultTokens is serve's tokens without -tokens: those of the file at
// path, made (mode 0600) with a write and an admin token and printed on
// w if it does not exist; path "" (no database) makes them in memory
// and prints them.
func defaultTokens(path string, w io.Writer) ([]karnak.Token, error) {
	if path != "" {
		tks, err := readTokens(path)
		if !errors.Is(err, fs.ErrNotExist) {
			return tks, err
		}
	}
	tks := make([]karnak.Token, 2)
	var b strings.Builder
	b.WriteString("# qserve tokens: name secret systems [admin] (see qserve serve -h)\n")
	for i, name := range []string{"feed", "admin"} {
		var r [24]byte
		if _, err := rand.Read(r[:]); err != nil {
			return nil, err
		}
		tks[i] = karnak.Token{Name: name, Secret: hex.EncodeToString(r[:]), Systems: []string{"*"}, Admin: name == "admin"}
		fmt.Fprintf(&b, "%s %s *%s\n", name, tks[i].Secret, map[bool]string{true: " admin"}[tks[i].Admin])
	}
	where := "in memory (-db \"\"): they last as long as this process"
	if path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("making the tokens file: %w", err)
		}
		_, err = f.WriteString(b.String())
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return nil, fmt.Errorf("making the tokens file: %w", err)
		}
		where = "in " + path + " (mode 0600)"
	}
	fmt.Fprintf(w, "qserve: writes need a token; made a write token (feed) and an admin token (admin, for drop and rewind) %s; shown this once:\n%s", where, b.String())
	return tks, nil
}
