// Package plugin tells a missing plug-in from a usable one, for the
// packages that take a user's interface value (a Clusterer, a Trimmer, a
// Forecaster, a Machine) and must refuse it up front rather than panic
// inside the user's code when they call it.
package plugin

import "reflect"

// Missing reports a plug-in that would panic when called: a nil
// interface, or an interface holding a nil pointer or a nil func (a nil
// XxxFunc adapter).
func Missing(x any) bool {
	if x == nil {
		return true
	}
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Func, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
