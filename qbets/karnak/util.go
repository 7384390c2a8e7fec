package karnak

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

func sortBy[T any](xs []T, key func(T) string) {
	slices.SortFunc(xs, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return strconv.Quote(s) }

// query is a URL query string read as url.ParseQuery reads it, without
// building the map: a prediction request asks for two or three values.
type query string

// Get is url.Values.Get of the parsed query: the first value of key.
func (raw query) Get(key string) string {
	for rest := string(raw); rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue // ParseQuery skips these too
		}
		k, v, _ := strings.Cut(pair, "=")
		k, err := url.QueryUnescape(k)
		if err != nil || k != key {
			continue
		}
		if v, err = url.QueryUnescape(v); err == nil {
			return v
		}
	}
	return ""
}
