package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// flagsAnywhere lets cmd take its flags after its positional arguments too
// ("qdsweep explain out.json --target-iops 160k"): urfave/cli, like Go's
// flag package, stops reading flags at the first positional argument. When
// flags follow a positional argument, the command is run again on its
// arguments with every flag (and its value) moved in front of the
// positionals, so the flags are parsed, checked and reported as usual.
// "--" still ends the flags: what follows it stays positional.
func flagsAnywhere(cmd *cli.Command) *cli.Command {
	action := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		parent := c.Lineage()[1]
		raw := parent.Args().Tail() // this command's arguments as typed, "--" included
		moved, err := moveFlagsFirst(cmd.Flags, raw)
		if err != nil && cmd.OnUsageError != nil {
			return cmd.OnUsageError(c, err, true)
		}
		if err != nil {
			return usageErr(err)
		}
		if slices.Equal(moved, raw) {
			return action(c)
		}
		if asksHelp(raw) {
			// As "qdsweep CMD --help": urfave/cli would take a positional
			// argument after --help for a help topic.
			moved = []string{"--help"}
		}
		// A parent context whose arguments are the moved ones: the second
		// run finds nothing left to move (moving is idempotent).
		set := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
		if err := set.Parse(append([]string{"--", cmd.Name}, moved...)); err != nil {
			return err
		}
		p := cli.NewContext(c.App, set, parent)
		p.Command = parent.Command
		nc := cli.NewContext(c.App, nil, p)
		nc.Command = cmd
		return cmd.Run(nc, append([]string{cmd.Name}, moved...)...)
	}
	return cmd
}

// asksHelp reports whether args hold -h or --help before any "--".
func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if n := strings.TrimLeft(a, "-"); n == "h" || n == "help" || n == "help=true" || n == "h=true" {
			return true
		}
	}
	return false
}

// moveFlagsFirst returns args with every flag, and the value of each flag
// that takes one, moved in front of the positional arguments, keeping
// their order. Which flags take a value comes from flags: bool flags take
// none, and so do flags it does not know (the parser then reports them);
// "--name=value" is one argument. "-" is positional (standard input), and
// "--" ends the flags: it and everything after it are kept, after the
// moved flags and before the other positionals, so that they stay
// positional. A last flag that needs a value and has none is an error
// worded as Go's flag package words it.
func moveFlagsFirst(flags []cli.Flag, args []string) ([]string, error) {
	takesValue := map[string]bool{}
	for _, f := range flags {
		v := true
		if tv, ok := f.(cli.DocGenerationFlag); ok {
			v = tv.TakesValue()
		}
		for _, n := range f.Names() {
			takesValue[n] = v
		}
	}
	var front, pos, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append([]string{"--"}, args[i+1:]...)
			i = len(args)
		case a == "-" || !strings.HasPrefix(a, "-"):
			pos = append(pos, a)
		default:
			front = append(front, a)
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if hasValue || !takesValue[name] {
				continue
			}
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag needs an argument: -%s", name)
			}
			i++
			front = append(front, args[i])
		}
	}
	if len(rest) > 0 && len(pos) > 0 {
		// Positionals typed before "--" go after it: they must stay
		// positional even though "--" now comes first.
		rest = append([]string{"--"}, append(pos, rest[1:]...)...)
		pos = nil
	}
	out := make([]string, 0, len(args))
	out = append(out, front...)
	out = append(out, pos...)
	return append(out, rest...), nil
}
