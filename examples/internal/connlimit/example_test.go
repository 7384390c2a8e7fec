package connlimit_test

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/batchq/batchq/examples/internal/connlimit"
)

// One client may hold one connection here: its second is closed as soon
// as it is accepted, and once the first is closed it may connect again.
func Example() {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	byHost := func(a net.Addr) (string, bool) {
		host, _, err := net.SplitHostPort(a.String())
		return host, err == nil
	}
	ln := connlimit.Listen(raw, 1, 0, byHost)
	defer ln.Close()
	accepted := make(chan net.Conn)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()

	first, _ := net.Dial("tcp", raw.Addr().String())
	defer first.Close()
	held := <-accepted
	fmt.Println("first connection accepted")

	second, _ := net.Dial("tcp", raw.Addr().String())
	defer second.Close()
	second.SetReadDeadline(time.Now().Add(10 * time.Second)) // a broken limit fails, not hangs
	_, err = second.Read(make([]byte, 1))
	fmt.Println("second connection closed by the server:", err == io.EOF)

	held.Close()
	third, _ := net.Dial("tcp", raw.Addr().String())
	defer third.Close()
	(<-accepted).Close()
	fmt.Println("after the first closed, another accepted")
	// Output:
	// first connection accepted
	// second connection closed by the server: true
	// after the first closed, another accepted
}
