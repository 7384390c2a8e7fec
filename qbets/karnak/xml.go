package karnak

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"reflect"
	"strings"
)

// xmlRoot names the root element of each resource's XML. Every element
// is named as its value is in the JSON (the struct tags say both), so a
// client reads the same names in either (TestXMLNamesAreJSONNames); the
// root and a list's items, which have no name in the JSON, are named
// alike: a list's items by their type, "systemStatus", "waitingJob",
// "prediction". The names are the JSON's rather than the Go fields' in
// PascalCase (as Karnak's own XML protocol had them) so that one value
// has one name: not "MeanEndReq" in one and "meanEndedReqTime" in the
// other.
func xmlRoot(page string) string {
	switch page {
	case "systems":
		return "systems"
	case "status":
		return "systemStatus"
	case "summary":
		return "queueSummary"
	case "waiting":
		return "waitingJobs"
	case "last":
		return "record"
	case "stats":
		return "stats"
	case "prediction":
		return "prediction"
	case "predictions":
		return "predictions"
	}
	return "karnak"
}

// writeXML writes v as an XML document whose root is page's; a slice
// becomes a root holding one element per item. The document is built in
// memory first, so an encoding error is a 500, not a truncated body.
func (s *Service) writeXML(w http.ResponseWriter, r *http.Request, page string, v any) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	root := xml.StartElement{Name: xml.Name{Local: xmlRoot(page)}}
	var err error
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		err = enc.EncodeToken(root)
		for i := 0; err == nil && i < rv.Len(); i++ {
			item := rv.Index(i)
			name := item.Type().Name()
			name = strings.ToLower(name[:1]) + name[1:]
			err = enc.EncodeElement(item.Interface(), xml.StartElement{Name: xml.Name{Local: name}})
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
		s.writeError(w, r, err)
		return
	}
	b.WriteByte('\n')
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Write(b.Bytes()) //nolint:errcheck // the client went away
}
