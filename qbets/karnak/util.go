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

// check refuses (400, naming it) a parameter of keys that Get would skip
// and so leave at its default: a value with a malformed %-escape
// (?limit=%zz), or a pair with a ';' (?limit=10;after=x; url.ParseQuery
// skips those too). A page asked for with ?after=%zz was the first page,
// ?limit=5;x a page of 1,000 (TestQuerySkippedRefused). A key given
// twice is refused too: Get reads the first, so ?limit=5&limit=50 was a
// page of 5 and ?quantile=50&quantile=95 the median, each a 200
// (TestQueryRepeatedRefused).
func (raw query) check(keys ...string) error { return raw.checkLists(nil, keys...) }

// checkLists is check for a query whose keys of lists (the form's
// locations) may be given any number of times.
func (raw query) checkLists(lists []string, keys ...string) error {
	var seen map[string]string // a key's first pair
	for rest := string(raw); rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		end := strings.IndexAny(pair, "=;")
		if end < 0 {
			end = len(pair)
		}
		k, err := url.QueryUnescape(pair[:end])
		if err != nil || !slices.Contains(keys, k) {
			continue
		}
		_, v, _ := strings.Cut(pair, "=")
		if _, err := url.QueryUnescape(v); err != nil || strings.Contains(pair, ";") {
			return badRequest("%s: %q cannot be read: a malformed %%-escape, or a ';' (separate parameters with '&')", k, clip(pair))
		}
		if slices.Contains(lists, k) {
			continue
		}
		if first, ok := seen[k]; ok {
			return badRequest("%s: given twice (%q and %q), want it once", k, clip(first), clip(pair))
		}
		if seen == nil {
			seen = map[string]string{}
		}
		seen[k] = pair
	}
	return nil
}
