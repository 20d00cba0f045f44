package fio

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// DefaultPort is fio's server port.
const DefaultPort = 8765

// ReadClients turns --fio-clients into a list of "host" or "host:port":
// either a comma-separated list ("host1,host2:8766") or the path of a file
// with one host per line ('#' comments and blank lines skipped).
func ReadClients(spec string) ([]string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("fio clients: empty list (use host1,host2 or a file with one host per line)")
	}
	var items []string
	if st, err := os.Stat(spec); err == nil && st.Mode().IsRegular() {
		f, err := os.Open(spec)
		if err != nil {
			return nil, fmt.Errorf("fio clients: %w", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			l := strings.TrimSpace(sc.Text())
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = strings.TrimSpace(l[:i])
			}
			if l != "" {
				items = append(items, l)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("fio clients %s: %w", spec, err)
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("fio clients %s: no hosts in the file", spec)
		}
		for i, it := range items { // fio's own line: host,port
			if h, p, ok := strings.Cut(it, ","); ok && isPort(strings.TrimSpace(p)) {
				items[i] = hostPort(strings.TrimSpace(h), strings.TrimSpace(p))
			}
		}
	} else {
		var err error
		if items, err = splitClients(spec); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		it = strings.TrimSpace(it)
		host, port, err := SplitClient(it)
		if err != nil {
			return nil, fmt.Errorf("fio clients: %q: %w", it, err)
		}
		if port == 0 {
			out = append(out, host)
		} else {
			out = append(out, net.JoinHostPort(host, strconv.Itoa(port)))
		}
	}
	return out, nil
}

// splitClients splits a comma-separated list of hosts. fio spells a
// server with its port "host,port" (its --client=127.0.0.1,18765): a
// number alone after a host without a port is that host's port, so
// "127.0.0.1,18765" is one server, not two. A number anywhere else is
// refused: it names no host.
func splitClients(spec string) ([]string, error) {
	var out []string
	for _, it := range strings.Split(spec, ",") {
		it = strings.TrimSpace(it)
		if !isPort(it) {
			out = append(out, it)
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("fio clients: %q is a port with no host before it; write host:port (or fio's host,port)", it)
		}
		prev := out[len(out)-1]
		if _, p, err := SplitClient(prev); err != nil || p != 0 {
			return nil, fmt.Errorf("fio clients: %q follows %q, which has a port already; write host:port for each server", it, prev)
		}
		out[len(out)-1] = hostPort(prev, it)
	}
	return out, nil
}

// isPort reports whether s is all digits (a port, never a host name).
func isPort(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// hostPort joins a host (an IPv6 address bracketed) and a port.
func hostPort(h, p string) string {
	return net.JoinHostPort(strings.Trim(h, "[]"), p)
}

// SplitClient reads "host", "host:port", "[v6]:port" or "v6"; port 0 means default.
func SplitClient(s string) (string, int, error) {
	if s == "" {
		return "", 0, fmt.Errorf("empty host")
	}
	if strings.Count(s, ":") > 1 && !strings.HasPrefix(s, "[") {
		return s, 0, nil // bare IPv6 address
	}
	if !strings.Contains(s, ":") {
		if strings.ContainsAny(s, " \t/") {
			return "", 0, fmt.Errorf("not a host name")
		}
		return s, 0, nil
	}
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, fmt.Errorf("want host or host:port: %w", err)
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || h == "" {
		return "", 0, fmt.Errorf("want host:port with a port from 1 to 65535")
	}
	return h, n, nil
}

// ClientArg renders a client for fio's --client: "host,port" ("ip6:addr,port" for IPv6).
func ClientArg(c string) string {
	h, p, err := SplitClient(c)
	if err != nil {
		return c
	}
	if strings.Contains(h, ":") {
		h = "ip6:" + h
	}
	if p == 0 {
		return h
	}
	return h + "," + strconv.Itoa(p)
}

// ClientLogPath is the name fio's client gives the log a server sends it
// back (write_*_log through --client): the log's own path, a dot, and the
// server's host as the client names it, without its port (fio 3.33's
// client.c), so two servers on one host write one file.
func ClientLogPath(path, client string) string {
	h, _, err := SplitClient(client)
	if err != nil {
		h = client
	}
	return path + "." + h
}
