package cli

import "fmt"

// CheckMachine refuses a machine size read from a log's header above
// MaxSize, the bound sched.Config.Validate sets (TestMaxSizeIsSched's):
// sched's own error, "sched: MachineSize N above 2^40", names no file, so
// every command checks the header's size first and prefixes this error
// with the log's name (and, where it has one, the flag that overrides it).
func CheckMachine(size int64) error {
	if size > MaxSize {
		return fmt.Errorf("machine size %d above 2^40 processors", size)
	}
	return nil
}
