package main

import (
	"strings"

	"github.com/qdsweep/qdsweep/fio"
	"github.com/urfave/cli/v2"
)

// splitRunArgs separates qdsweep's own flags from fio's options, keeping
// each flag's value with it ("--name x" and "--name=x"). Everything that
// is not one of run's own flags goes to fio's reader, unknown names
// included (it names them).
func splitRunArgs(raw []string) (own, fioArgs []string, err error) {
	ownValue := map[string]bool{}
	for _, f := range runOwnFlags() {
		v := true
		if tv, ok := f.(cli.DocGenerationFlag); ok {
			v = tv.TakesValue()
		}
		for _, n := range f.Names() {
			ownValue[n] = v
		}
	}
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			fioArgs = append(fioArgs, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, isOwn := ownValue[name]
		if name == fio.OptIOEngine {
			v := val
			if !hasVal && i+1 < len(raw) {
				v = raw[i+1]
			}
			isOwn, takes = runQdsweepEngines[v], true
		}
		if !isOwn {
			fioArgs = append(fioArgs, a)
			if !hasVal && fio.OptionTakesValue(name) && i+1 < len(raw) && !strings.HasPrefix(raw[i+1], "--") {
				i++
				fioArgs = append(fioArgs, raw[i])
			}
			continue
		}
		own = append(own, "--"+strings.TrimLeft(a, "-"))
		if !hasVal && takes {
			if i+1 >= len(raw) {
				return nil, nil, usagef("run: --%s needs a value; see qdsweep run --help", name)
			}
			i++
			own = append(own, raw[i])
		}
	}
	return own, fioArgs, nil
}
