package slurm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// ReadNames fills c.UserNames, c.AccountNames, c.PartitionNames and
// c.QOSNames, replacing what was there, from the name tables of an SWF
// header written by swf/convert: "; User: 1 alice" (field 12),
// "; Account: 1 physics" (field 13, written instead of the Unix groups
// when the log was converted with convert.Options.Accounts), "; Queue: 1
// debug" (field 15, the partition) and "; Partition: 1 normal" (field 16,
// the QOS, with the same option). A table the header lacks (a log
// converted with HideNames, or without Accounts) leaves its map nil: its
// numbers then stand for themselves (decimal strings). Archive logs'
// tables (numbers from 0, unnamed numbers) read too. An entry that does
// not start with a number, or a number named twice differently, is an
// error.
func (c *Config) ReadNames(h swf.Header) error {
	var users, accounts []string
	for _, kv := range h.Other {
		switch kv.Key {
		case "User":
			users = append(users, kv.Value)
		case "Account":
			accounts = append(accounts, kv.Value)
		}
	}
	var err error
	if c.UserNames, err = nameTable("User", users); err != nil {
		return err
	}
	if c.AccountNames, err = nameTable("Account", accounts); err != nil {
		return err
	}
	if c.PartitionNames, err = nameTable("Queue", h.Queue); err != nil {
		return err
	}
	c.QOSNames, err = nameTable("Partition", h.Partition)
	return err
}

// nameTable reads "NUMBER NAME" entries. Archive logs number from 0
// and some leave a number unnamed ("; Queue: 1"): such an entry is
// skipped, its number stands for itself.
func nameTable(key string, entries []string) (map[int64]string, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	m := make(map[int64]string, len(entries))
	for _, e := range entries {
		num, name, _ := strings.Cut(strings.TrimSpace(e), " ")
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("swf header %s: %q is not \"NUMBER NAME\"", key, confClip(e))
		}
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if old, dup := m[n]; dup && old != name {
			return nil, fmt.Errorf("swf header %s: %d names both %q and %q", key, n, confClip(old), confClip(name))
		}
		m[n] = name
	}
	return m, nil
}
