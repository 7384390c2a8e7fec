package forecast

import (
	"context"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A hypothetical job with no size (neither AllocProcs nor ReqProcs set,
// as swf.NewJob leaves them) is an error that says so: WhatIf answered −1,
// which its doc gives to a job larger than the machine. Checked: fails
// without the fix in WhatIf.
func TestWhatIfNoSize(t *testing.T) {
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{Now: 100, MachineSize: 8}
	j := swf.NewJob()
	j.ReqTime = 3600
	at, err := f.WhatIf(context.Background(), s, j)
	if err == nil || !strings.Contains(err.Error(), "no size") || at != -1 {
		t.Errorf("WhatIf of a job with no size: %d, %v; want −1 and an error naming the cause", at, err)
	}
	j.ReqProcs = 4 // the request alone sizes it
	if at, err := f.WhatIf(context.Background(), s, j); err != nil || at != 100 {
		t.Errorf("WhatIf of 4 requested processors on an idle machine: %d, %v; want 100", at, err)
	}
	j.ReqProcs = 16 // larger than the machine: −1, no error, as documented
	if at, err := f.WhatIf(context.Background(), s, j); err != nil || at != -1 {
		t.Errorf("WhatIf of 16 processors on 8: %d, %v; want −1", at, err)
	}
}
