package fio

import (
	"fmt"
	"strings"
)

// EscapeFilename renders a path as fio's filename= value so fio opens that
// one file and nothing else. fio splits filename on ':' (several files), so
// every ':' becomes "\:" (fio removes the backslash again). It refuses what
// fio would read differently whatever the escaping: control characters
// (a newline would start a new job-file line), ';' and '#' (fio cuts the
// value there as a comment), '$' (fio expands ${VAR} in job files) and
// leading or trailing blanks (fio strips them).
func EscapeFilename(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("fio job: no filename")
	}
	if err := CheckValue(OptFilename, name); err != nil {
		return "", err
	}
	if i := strings.IndexAny(name, ";#$"); i >= 0 {
		return "", fmt.Errorf("fio job: filename %q has %q, which fio reads as a comment or a variable; rename the target or use another --%s", name, name[i], OptIOEngine)
	}
	if strings.TrimSpace(name) != name {
		return "", fmt.Errorf("fio job: filename %q starts or ends with a blank, which fio strips; rename the target or use another --%s", name, OptIOEngine)
	}
	return strings.ReplaceAll(name, ":", `\:`), nil
}

// CheckValue refuses an option value with control characters: in a job
// file a newline would inject lines, on a command line fio would misread it.
func CheckValue(option, v string) error {
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("fio job: %s value %q has a control character; job files hold one option per line", option, v)
		}
	}
	return nil
}
