package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"strings"
)

// failedLocations counts the locations of a kwouldwait or kwouldstart
// answer (in ext: txt, json, xml or html) that got an error instead of a
// prediction. The service answers 200 with the other locations' predictions
// (Karnak §2.3), and the client printed them and exited 0: a script could
// not tell that a location it asked about was not predicted. The answer is
// the service's own representation, read back as it writes it; one that
// cannot be read counts as failed (-1), never as a success.
func failedLocations(ext string, body []byte) int {
	switch ext {
	case "json":
		var ps []struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &ps) != nil {
			return -1
		}
		n := 0
		for _, p := range ps {
			if p.Error != "" {
				n++
			}
		}
		return n
	case "xml":
		var ps struct {
			P []struct {
				Error string `xml:"error"`
			} `xml:"prediction"`
		}
		if xml.Unmarshal(body, &ps) != nil {
			return -1
		}
		n := 0
		for _, p := range ps.P {
			if p.Error != "" {
				n++
			}
		}
		return n
	case "html":
		// (the template escapes the error's text: it cannot hold this)
		return bytes.Count(body, []byte(`<p class="error">`))
	default: // txt: karnak's textPrediction
		n := 0
		for line := range bytes.Lines(body) {
			if bytes.HasPrefix(line, []byte("  error  ")) {
				n++
			}
		}
		return n
	}
}

// partialError is the error of an answer with failedLocations n of asked.
func partialError(n, asked int) error {
	if n < 0 {
		return fmt.Errorf("the service's answer could not be read back to see which locations failed")
	}
	return fmt.Errorf("%d of %d locations got no prediction (the reason is printed with each)", n, asked)
}

// errorMessage is the message of an error answer, which the service
// writes in the representation asked for (-format): the "error" of a
// JSON object or an XML element, the error paragraph of a page, or the
// text. An answer that cannot be read so is printed as it came.
func errorMessage(ctype string, body []byte) string {
	raw := strings.TrimSpace(string(body))
	switch {
	case strings.HasPrefix(ctype, "application/json"):
		var e struct {
			Error *string `json:"error"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error != nil {
			return *e.Error
		}
	case strings.HasPrefix(ctype, "application/xml"):
		var e struct {
			XMLName xml.Name `xml:"error"`
			Error   *string  `xml:"error"`
		}
		if xml.Unmarshal(body, &e) == nil && e.Error != nil {
			return *e.Error
		}
	case strings.HasPrefix(ctype, "text/html"):
		const open = `<p class="error" id="error" role="alert">`
		if _, rest, ok := strings.Cut(raw, open); ok {
			if msg, _, ok := strings.Cut(rest, "</p>"); ok {
				return html.UnescapeString(msg)
			}
		}
	}
	return raw
}
