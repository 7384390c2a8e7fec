package ibl

import "fmt"

// Kind says how a feature is compared by the HEOM distance (§4.2).
type Kind uint8

const (
	// Linear features (ints, floats, times) differ by |x−y| / range.
	Linear Kind = iota
	// Nominal features (strings) differ by 0 when equal and 1 otherwise.
	Nominal
	// Bool features are nominal too (spec K5): 0 when equal, 1 otherwise.
	Bool
)

func (k Kind) String() string {
	switch k {
	case Linear:
		return "linear"
	case Nominal:
		return "nominal"
	case Bool:
		return "bool"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Feature names one input feature of an experience and its kind.
type Feature struct {
	Name string
	Kind Kind
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
