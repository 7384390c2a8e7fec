package cli

import (
	"strings"
)

// LogList splits a flag's comma-separated list of logs. An empty item
// ("a.swf,", ",a.swf", "a.swf,,b.swf") is a UsageError naming the flag:
// it was opened as the file "" once the logs before it had run (varq
// -trace a.swf, printed a.swf's table, then "open : no such file or
// directory", exit 1). Blanks around an item are dropped: "a.swf, b.swf"
// looked for the file " b.swf" (exit 1); a file name that begins or ends
// with a blank is not worth that surprise.
func LogList(flagName, v string) ([]string, error) {
	items := strings.Split(v, ",")
	for i, p := range items {
		if items[i] = strings.TrimSpace(p); items[i] == "" {
			return nil, Usagef("%s %q: item %d of %d is empty (logs are joined by single commas)", flagName, v, i+1, len(items))
		}
	}
	return items, nil
}
