package fio

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/units"
)

// What fio substitutes in job files before it reads an option's value:
// ${VAR} from the environment (unset: empty, as fio), and its own
// $pagesize, $mb_memory and $ncpus; then arithmetic in a value
// ("8*$mb_memory", "(2+2)*4k") is evaluated as fio evaluates it.

// sysFacts are the machine figures fio's job-file variables stand for.
func sysFacts() (pageSize, memMiB, ncpus int64) {
	return int64(os.Getpagesize()), memTotalMiB(), int64(runtime.NumCPU())
}

// memTotalMiB reads MemTotal from /proc/meminfo (0 where there is none).
func memTotalMiB() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}

// stripComment drops a comment from a job-file line: fio ends a line at
// its first ';' or '#', wherever it stands ("bs=4k;x" is bs=4k), and
// trims the blanks around what is left.
func stripComment(t string) string {
	if i := strings.IndexAny(t, ";#"); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// expandVars substitutes what fio 3.33 substitutes in v: ${VAR} from the
// environment (empty when unset) and its keywords $pagesize, $mb_memory
// and $ncpus. Any other '$' stays as written, as in fio: "f.$jobnum" and
// "f.$HOME" name those very files, and ${pagesize} is the environment's.
func expandVars(v string) string {
	if !strings.Contains(v, "$") {
		return v
	}
	page, mem, cpus := sysFacts()
	keywords := []struct {
		name string
		n    int64
	}{{"pagesize", page}, {"mb_memory", mem}, {"ncpus", cpus}}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '$' {
			b.WriteByte(v[i])
			continue
		}
		rest := v[i+1:]
		if name, ok := strings.CutPrefix(rest, "{"); ok {
			if end := strings.IndexByte(name, '}'); end >= 0 {
				b.WriteString(os.Getenv(name[:end]))
				i += 2 + end
				continue
			}
		}
		kw := false
		for _, k := range keywords {
			if strings.HasPrefix(rest, k.name) {
				b.WriteString(strconv.FormatInt(k.n, 10))
				i += len(k.name)
				kw = true
				break
			}
		}
		if !kw {
			b.WriteByte('$')
		}
	}
	return b.String()
}

// evalArithmetic evaluates v when it is an arithmetic expression of
// numbers (each with an optional size unit: 4k, 1m) and + - * / and
// parentheses, returning the integer result; ok is false when v is not
// one (a plain value, a list, a range like 4k-8k).
func evalArithmetic(v string) (string, bool, error) {
	t := strings.TrimSpace(v)
	if t == "" || !strings.ContainsAny(t, "*/+(") || !(t[0] >= '0' && t[0] <= '9' || t[0] == '(') ||
		strings.IndexFunc(t, func(r rune) bool {
			return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune(" .+-*/()", r))
		}) >= 0 {
		return v, false, nil // a path, a list, a range: not arithmetic
	}
	p := &exprParser{s: strings.ReplaceAll(t, " ", "")}
	n, err := p.sum()
	if err == nil && p.i < len(p.s) {
		err = fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	if err != nil {
		return v, false, fmt.Errorf("%q is not an expression fio reads: %w", v, err)
	}
	return strconv.FormatInt(n, 10), true, nil
}

type exprParser struct {
	s string
	i int
}

func (p *exprParser) sum() (int64, error) {
	n, err := p.product()
	for err == nil && p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		op := p.s[p.i]
		p.i++
		var m int64
		if m, err = p.product(); err == nil {
			if op == '+' {
				n += m
			} else {
				n -= m
			}
		}
	}
	return n, err
}

func (p *exprParser) product() (int64, error) {
	n, err := p.operand()
	for err == nil && p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '/') {
		op := p.s[p.i]
		p.i++
		var m int64
		if m, err = p.operand(); err == nil {
			switch {
			case op == '*':
				n *= m
			case m == 0:
				err = fmt.Errorf("division by zero")
			default:
				n /= m
			}
		}
	}
	return n, err
}

func (p *exprParser) operand() (int64, error) {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		n, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return 0, fmt.Errorf("missing )")
		}
		p.i++
		return n, nil
	}
	j := p.i
	for j < len(p.s) && !strings.ContainsRune("+-*/()", rune(p.s[j])) {
		j++
	}
	if j == p.i {
		return 0, fmt.Errorf("missing number at %q", p.s[p.i:])
	}
	n, err := units.ParseSize(p.s[p.i:j])
	if err != nil {
		return 0, err
	}
	p.i = j
	return n, nil
}
