package schedtest_test

import "testing"

// The example's policy passes its conformance test (example_test.go).
func TestLargestFirst(t *testing.T) { checkLargestFirst(t) }
