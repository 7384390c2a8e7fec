package ibl_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets/ibl"
)

// A queue shown two jobs at a time by key, as karnak's ?after= pages it:
// job 1, the last of the first page, starts and job 6 arrives before the
// next page is asked for; the next page starts after job 1's key all the
// same, and no job that waited throughout is skipped or shown twice.
func ExampleSystem_WaitingAfter() {
	sys := new(ibl.System)
	submit := func(id int64) {
		if err := sys.Submit(ibl.Job{ID: id, Queue: "normal", Cores: 4, ReqTime: 600, Submit: id * 10}); err != nil {
			fmt.Println(err)
		}
	}
	for id := int64(0); id <= 4; id++ {
		submit(id)
	}
	page, offset, total := sys.WaitingAfter(-1, 0, 2) // the first page: after every key
	for len(page) > 0 {
		fmt.Printf("from number %d of %d:", offset+1, total)
		for _, j := range page {
			fmt.Print(" ", j.ID)
		}
		fmt.Println()
		last := page[len(page)-1]
		if last.ID == 1 {
			if err := sys.Start(1, 60); err != nil { // the page's last job leaves
				fmt.Println(err)
			}
			submit(6)
		}
		page, offset, total = sys.WaitingAfter(last.Submit, last.ID, 2)
	}
	// Output:
	// from number 1 of 5: 0 1
	// from number 2 of 5: 2 3
	// from number 4 of 5: 4 6
}
