package cli

import (
	"net/url"
	"strings"
)

// BaseURL parses s as the base of a service's paths (qserve's -server,
// slurmfeed's -service): an http or https URL with a host, and no query
// or fragment, which would take the paths appended after it (every
// request "/?x/karnak/…"). ok is false for any other s.
func BaseURL(s string) (u *url.URL, ok bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.ForceQuery || strings.Contains(s, "#") {
		return nil, false
	}
	return u, true
}
