package karnak_test

import (
	"fmt"
	"net"

	"github.com/batchq/batchq/qbets/karnak"
)

// A server that bounds each client's connections keys them as the
// service's rate limit keys requests: an IPv6 client by its /64, and no
// key for a trusted proxy, whose clients only the requests' headers tell
// apart.
func ExampleService_ConnClient() {
	svc, err := karnak.New(nil, karnak.Config{TrustedProxies: []string{"10.0.0.0/8"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range []string{"192.0.2.7:5000", "[2001:db8:1:2:3:4:5:6]:443", "10.1.2.3:8080"} {
		addr, err := net.ResolveTCPAddr("tcp", a)
		if err != nil {
			fmt.Println(err)
			return
		}
		key, limited := svc.ConnClient(addr)
		fmt.Printf("%s: %q %v\n", a, key, limited)
	}
	// Output:
	// 192.0.2.7:5000: "192.0.2.7" true
	// [2001:db8:1:2:3:4:5:6]:443: "2001:db8:1:2::/64" true
	// 10.1.2.3:8080: "" false
}
