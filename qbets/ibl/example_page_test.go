package ibl_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets/ibl"
)

// A service that shows a machine's queue a page at a time: WaitingPage
// copies only the jobs of the page, in scheduler order, and says how many
// wait in all, whatever the offset.
func ExampleSystem_WaitingPage() {
	sys := new(ibl.System)
	for id := int64(1); id <= 5; id++ {
		if err := sys.Submit(ibl.Job{ID: id, Queue: "normal", Cores: 4, ReqTime: 600, Submit: id * 10}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := sys.Start(2, 60); err != nil { // job 2 leaves the queue
		fmt.Println(err)
		return
	}
	for offset := 0; ; offset += 2 {
		page, total := sys.WaitingPage(offset, 2)
		if len(page) == 0 {
			break
		}
		fmt.Printf("jobs %d-%d of %d:", offset+1, offset+len(page), total)
		for _, j := range page {
			fmt.Print(" ", j.ID)
		}
		fmt.Println()
	}
	// Output:
	// jobs 1-2 of 4: 1 3
	// jobs 3-4 of 4: 4 5
}
