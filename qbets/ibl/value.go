package ibl

// kind is Feature.Kind, parsed.
type kind uint8

const (
	linear kind = iota
	nominal
	boolean
)

var kindNames = map[string]kind{"": linear, "linear": linear, "nominal": nominal, "bool": boolean}

// Feature names one input feature of an experience and says how the HEOM
// distance (§4.2) compares it: Kind "linear" (or "") features (ints,
// floats, times) differ by |x−y| / range; "nominal" ones (strings) by 0
// when equal and 1 otherwise; "bool" ones are nominal too (spec K5).
type Feature struct {
	Name string
	Kind string
}

// Value is one input feature value. The zero Value is unknown, which the
// distance treats as maximally different (d = 1, spec K5). Linear values
// live in F, nominal ones in S, booleans in B.
type Value struct {
	F     float64
	S     string
	B     bool
	Known bool
}

// num is a known linear value.
func num(f float64) Value { return Value{F: f, Known: true} }

// str is a known nominal value.
func str(s string) Value { return Value{S: s, Known: true} }

// flag is a known boolean value.
func flag(b bool) Value { return Value{B: b, Known: true} }

// Experience is one observed outcome: the input features as they were when
// the prediction would have been made, and the wait that followed, in
// seconds (§4.1).
type Experience struct {
	In   []Value
	Wait float64
}
