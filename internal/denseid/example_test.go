package denseid_test

import (
	"fmt"

	"github.com/batchq/batchq/internal/denseid"
)

func Example() {
	var x denseid.Index[*string]
	a, b := "job 7", "job 2^40"
	x.Put(7, &a)     // in the slice
	x.Put(1<<40, &b) // in the map
	v, ok := x.Get(7)
	fmt.Println(*v, ok)
	_, ok = x.Get(8)
	fmt.Println(ok)
	x.Del(7)
	_, ok = x.Get(7)
	v, _ = x.Get(1 << 40)
	fmt.Println(ok, *v)
	// Output:
	// job 7 true
	// false
	// false job 2^40
}
