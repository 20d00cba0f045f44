package main

import (
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// helpWidth is the column every help line keeps within (URLs may run past).
const helpWidth = 80

// defaultFlagStringer is urfave/cli's own: "--name value\tusage (default: x)".
var defaultFlagStringer = cli.FlagStringer

// wrappedFlagString puts a flag's names on one line and its usage, wrapped
// by the help printer, on the lines under it: a long usage beside a column
// of names cannot keep within 80 columns.
func wrappedFlagString(f cli.Flag) string {
	s := defaultFlagStringer(f)
	name, usage, ok := strings.Cut(s, "\t")
	if !ok || strings.TrimSpace(usage) == "" {
		return s
	}
	return name + "\n" + strings.TrimSpace(usage)
}

// wrappedHelp prints help as urfave/cli does, with every template's wrap
// at helpWidth.
func wrappedHelp(w io.Writer, templ string, data any) {
	cli.HelpPrinterCustom(w, templ, data, map[string]any{"wrapAt": func() int { return helpWidth }})
}

func init() {
	cli.FlagStringer = wrappedFlagString
	cli.HelpPrinter = wrappedHelp
}
