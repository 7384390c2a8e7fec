package slurmtest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLiveSideBySide starts three clusters at once, as .ci/run's go test
// of the live tests does (one per package, and the users of a machine
// may run theirs side by side): each picks its own ports, and each its
// own MariaDB temporary directory, without which mariadb-install-db
// failed in 7 of 18 runs six at a time ("Unknown table
// 'mysql.tmp_user_sys'"). Each must come up and answer on its own ports.
func TestLiveSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts three private Slurm clusters at once (about 20 s)")
	}
	prepare(t)
	for i := range 3 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			dir, env := Start(t)
			port, err := os.ReadFile(filepath.Join(dir, "port"))
			if err != nil {
				t.Fatal(err)
			}
			out, err := Cmd(context.Background(), env, "", "scontrol", "show", "config")
			if err != nil {
				t.Fatal(err)
			}
			if want := "SlurmctldPort           = " + strings.TrimSpace(string(port)); !strings.Contains(out, want) {
				t.Errorf("scontrol show config does not show %q:\n%s", want, out)
			}
		})
	}
}
