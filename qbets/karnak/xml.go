package karnak

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"reflect"
)

// xmlRoots names the root element of each resource's XML; a list's
// items are named by their type (SystemStatus, WaitingJob, Prediction).
// Element names are the Go field names, in the PascalCase of Karnak's own
// XML protocol (spec karnak-ibl-service §2.3), and the document parses
// back with encoding/xml into the same Go values as the JSON one does
// with encoding/json.
func xmlRoot(page string) string {
	switch page {
	case "systems":
		return "Systems"
	case "status":
		return "SystemStatus"
	case "summary":
		return "QueueSummary"
	case "waiting":
		return "WaitingJobs"
	case "last":
		return "Record"
	case "stats":
		return "Stats"
	case "prediction":
		return "Prediction"
	case "predictions":
		return "Predictions"
	}
	return "Karnak"
}

// writeXML writes v as an XML document whose root is page's; a slice
// becomes a root holding one element per item. The document is built in
// memory first, so an encoding error is a 500, not a truncated body.
func writeXML(w http.ResponseWriter, page string, v any) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	root := xml.StartElement{Name: xml.Name{Local: xmlRoot(page)}}
	var err error
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		err = enc.EncodeToken(root)
		for i := 0; err == nil && i < rv.Len(); i++ {
			err = enc.Encode(rv.Index(i).Interface())
		}
		if err == nil {
			err = enc.EncodeToken(root.End())
		}
	} else {
		err = enc.EncodeElement(v, root)
	}
	if err == nil {
		err = enc.Close()
	}
	if err != nil {
		writeError(w, err)
		return
	}
	b.WriteByte('\n')
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Write(b.Bytes()) //nolint:errcheck // the client went away
}
