package examples_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	sigsyaml "sigs.k8s.io/yaml"
)

// The manifests are decoded strictly into Kubernetes' own API types
// (k8s.io/api): a misspelt field, a field of another kind, a wrong type or
// a wrong value shape fails the decode, with no list of fields to keep.

// manifest is one document of a manifest file, decoded into its API type.
type manifest struct {
	file string
	kind string
	name string
	obj  any // *batchv1.Job, *corev1.Service, …
}

// apiTypes are the kinds the manifests may hold, by "apiVersion kind".
var apiTypes = map[string]func() any{
	"batch/v1 Job":                       func() any { return &batchv1.Job{} },
	"v1 Service":                         func() any { return &corev1.Service{} },
	"v1 PersistentVolumeClaim":           func() any { return &corev1.PersistentVolumeClaim{} },
	"networking.k8s.io/v1 NetworkPolicy": func() any { return &networkingv1.NetworkPolicy{} },
}

// decodeManifest decodes one YAML document strictly into its API type.
func decodeManifest(doc []byte) (any, string, string, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := sigsyaml.Unmarshal(doc, &head); err != nil {
		return nil, "", "", err
	}
	mk, ok := apiTypes[head.APIVersion+" "+head.Kind]
	if !ok {
		return nil, head.Kind, head.Metadata.Name, fmt.Errorf("%s %s: kind not covered here (add its k8s.io/api type)", head.APIVersion, head.Kind)
	}
	obj := mk()
	if err := sigsyaml.UnmarshalStrict(doc, obj); err != nil {
		return nil, head.Kind, head.Metadata.Name, err
	}
	return obj, head.Kind, head.Metadata.Name, nil
}

// splitDocs splits a multi-document YAML file into its non-empty documents.
func splitDocs(data []byte) ([][]byte, error) {
	var out [][]byte
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(n.Content) == 0 || n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null" {
			continue // an empty document (a trailing ---)
		}
		b, err := yaml.Marshal(&n)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
}

// readManifests decodes every document of every .yaml file in dir.
func readManifests(t *testing.T, dir string) []manifest {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s (%v)", dir, err)
	}
	var out []manifest
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := splitDocs(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i, doc := range docs {
			obj, kind, name, err := decodeManifest(doc)
			if err != nil {
				t.Errorf("%s: document %d (%s %q): %v", filepath.Base(f), i+1, kind, name, err)
				continue
			}
			out = append(out, manifest{file: filepath.Base(f), kind: kind, name: name, obj: obj})
		}
	}
	return out
}

// TestKubernetesManifestsDecodeStrictly: every document decodes into its
// API type with no unknown field; and the decode is strict, as a copy with
// a misspelt field, a field of another kind and a string where a number
// goes shows.
func TestKubernetesManifestsDecodeStrictly(t *testing.T) {
	if ms := readManifests(t, "kubernetes"); len(ms) < 6 {
		t.Fatalf("%d manifests decoded, want the Jobs, claims, Service and NetworkPolicy", len(ms))
	}
	data, err := os.ReadFile(filepath.Join("kubernetes", "sweep-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := splitDocs(data)
	if err != nil || len(docs) == 0 {
		t.Fatal(err)
	}
	for _, bad := range []struct{ from, to string }{
		{"containers:", "contaners:"},
		{"backoffLimit: 0", "backoffLimit: 0\n  clusterIP: None"},
		{"backoffLimit: 0", "backoffLimit: none"},
	} {
		doc := bytes.Replace(docs[0], []byte(bad.from), []byte(bad.to), 1)
		if bytes.Equal(doc, docs[0]) {
			t.Fatalf("sweep-job.yaml lacks %q", bad.from)
		}
		if _, _, _, err := decodeManifest(doc); err == nil {
			t.Errorf("%q → %q decoded without an error", bad.from, bad.to)
		}
	}
}

// podsOf lists the pod templates of the Jobs, by Job name.
func podsOf(ms []manifest) map[string]*corev1.PodTemplateSpec {
	out := map[string]*corev1.PodTemplateSpec{}
	for _, m := range ms {
		if j, ok := m.obj.(*batchv1.Job); ok {
			out[m.name] = &j.Spec.Template
		}
	}
	return out
}

// subset reports whether sel is not empty and every key of it has the
// same value in labels.
func subset(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// TestKubernetesManifestReferences checks what the API server cannot:
// the Service selects a pod template, claims and volume mounts name things
// that exist, and every qdsweep invocation uses real commands and flags.
func TestKubernetesManifestReferences(t *testing.T) {
	ms := readManifests(t, "kubernetes")
	claims := map[string]bool{}
	for _, m := range ms {
		if m.kind == "PersistentVolumeClaim" {
			claims[m.name] = true
		}
	}
	pods := podsOf(ms)
	for _, m := range ms {
		where := m.file + " " + m.kind + "/" + m.name
		switch o := m.obj.(type) {
		case *batchv1.Job:
			checkPod(t, where, &o.Spec.Template.Spec, claims)
		case *corev1.Service:
			found := false
			for _, p := range pods {
				found = found || subset(o.Spec.Selector, p.Labels)
			}
			if !found {
				t.Errorf("%s: spec.selector selects no pod template of these manifests", where)
			}
		}
	}
}

// checkPod checks one PodSpec's volumes, mounts and qdsweep command lines.
func checkPod(t *testing.T, where string, pod *corev1.PodSpec, claims map[string]bool) {
	t.Helper()
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
		if c := v.PersistentVolumeClaim; c != nil && !claims[c.ClaimName] {
			t.Errorf("%s: volume %q claims %q, which no manifest here defines", where, v.Name, c.ClaimName)
		}
	}
	for _, c := range slices.Concat(pod.InitContainers, pod.Containers) {
		for _, vm := range c.VolumeMounts {
			if !volumes[vm.Name] {
				t.Errorf("%s: container %q mounts volume %q, which the pod does not have", where, c.Name, vm.Name)
			}
		}
		if strings.HasPrefix(c.Image, "qdsweep") && len(c.Command) == 0 {
			checkQdsweepArgs(t, where+" container "+c.Name, c.Args)
		}
	}
}

var flagName = regexp.MustCompile(`^--?([A-Za-z0-9_-]+)`)

// checkQdsweepArgs checks that args name a qdsweep command and only flags
// that command's --help lists.
func checkQdsweepArgs(t *testing.T, where string, args []string) {
	t.Helper()
	if len(args) == 0 {
		t.Errorf("%s: runs qdsweep with no arguments", where)
		return
	}
	help, err := exec.Command(qdsweepBinary(t), args[0], "--help").CombinedOutput()
	if err != nil {
		t.Errorf("%s: qdsweep %s --help: %v (not a command?)", where, args[0], err)
		return
	}
	var unknown []string
	for _, a := range args[1:] {
		m := flagName.FindStringSubmatch(a)
		if m == nil {
			continue
		}
		if !regexp.MustCompile(`(^|[\s,])--` + regexp.QuoteMeta(m[1]) + `[\s=,]`).Match(help) {
			unknown = append(unknown, "--"+m[1])
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("%s: qdsweep %s has no flag %s", where, args[0], strings.Join(unknown, ", "))
	}
}

func TestDockerfileGoVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	df, err := os.ReadFile(filepath.Join("kubernetes", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "FROM golang:" + string(m[1]); !bytes.Contains(df, []byte(want)) {
		t.Errorf("kubernetes/Dockerfile: want a build stage %q… (go.mod says go %s)", want, m[1])
	}
}

// restrictedVolumes are the volume types the Pod Security "restricted"
// level allows.
func restrictedVolume(v corev1.Volume) bool {
	s := v.VolumeSource
	return s.ConfigMap != nil || s.CSI != nil || s.DownwardAPI != nil || s.EmptyDir != nil || s.Ephemeral != nil ||
		s.PersistentVolumeClaim != nil || s.Projected != nil || s.Secret != nil
}

// checkLockedDown checks one pod against the Pod Security "restricted"
// level and more: every container non-root (runAsNonRoot and a non-zero
// uid), no privilege escalation, not privileged, every capability dropped
// and none added, a RuntimeDefault or Localhost seccomp profile, a
// read-only root filesystem, CPU and memory limits, no host namespaces,
// only the volume types the level allows; and it writes only to the
// volumes named in writable (every other mount read-only).
func checkLockedDown(t *testing.T, where string, pod *corev1.PodSpec, writable ...string) {
	t.Helper()
	if pod.HostNetwork || pod.HostPID || pod.HostIPC {
		t.Errorf("%s: a host namespace is shared", where)
	}
	for _, v := range pod.Volumes {
		if !restrictedVolume(v) {
			t.Errorf("%s: volume %q is of a type the restricted level refuses", where, v.Name)
		}
	}
	psc := pod.SecurityContext
	if psc == nil {
		psc = &corev1.PodSecurityContext{}
	}
	for _, c := range slices.Concat(pod.InitContainers, pod.Containers) {
		cw := where + " container " + c.Name
		sc := c.SecurityContext
		if sc == nil {
			t.Errorf("%s: no securityContext", cw)
			continue
		}
		nonRoot, uid, seccomp := sc.RunAsNonRoot, sc.RunAsUser, sc.SeccompProfile
		if nonRoot == nil {
			nonRoot = psc.RunAsNonRoot
		}
		if uid == nil {
			uid = psc.RunAsUser
		}
		if seccomp == nil {
			seccomp = psc.SeccompProfile
		}
		if nonRoot == nil || !*nonRoot {
			t.Errorf("%s: runAsNonRoot is not true", cw)
		}
		if uid == nil || *uid == 0 {
			t.Errorf("%s: runAsUser %v, want a non-root uid", cw, uid)
		}
		if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault && seccomp.Type != corev1.SeccompProfileTypeLocalhost {
			t.Errorf("%s: seccompProfile %v, want RuntimeDefault (the restricted level)", cw, seccomp)
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			t.Errorf("%s: allowPrivilegeEscalation is not false", cw)
		}
		if sc.Privileged != nil && *sc.Privileged {
			t.Errorf("%s: privileged", cw)
		}
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: readOnlyRootFilesystem is not true", cw)
		}
		if sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) > 0 {
			t.Errorf("%s: capabilities %v, want drop [ALL] and nothing added", cw, sc.Capabilities)
		}
		if c.Resources.Limits.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s: limits %v, want CPU and memory limits", cw, c.Resources.Limits)
		}
		for _, vm := range c.VolumeMounts {
			if !slices.Contains(writable, vm.Name) && !vm.ReadOnly {
				t.Errorf("%s: writable mount of volume %q; it may write only to %v", cw, vm.Name, writable)
			}
		}
	}
}

// TestKubernetesFioServersLockedDown: fio's server protocol is
// unauthenticated, so the fio servers live only as long as one sweep (a
// Job with a deadline), run as the restricted level asks, write only to
// the shared volume, listen on their pod address, and a NetworkPolicy
// admits only the controller pod of the same run, from its namespace, on
// 8765 alone, and lets the servers open no connection. The controller and
// the one-volume Job run locked down too, and ask for libaio, which the
// RuntimeDefault seccomp profile allows.
func TestKubernetesFioServersLockedDown(t *testing.T) {
	ms := readManifests(t, "kubernetes")
	var servers, controller, single *batchv1.Job
	var policy *networkingv1.NetworkPolicy
	for _, m := range ms {
		switch o := m.obj.(type) {
		case *batchv1.Job:
			switch o.Spec.Template.Labels["app.kubernetes.io/name"] {
			case "fio-server":
				servers = o
			case "qdsweep-multihost":
				controller = o
			case "qdsweep":
				single = o
			}
		case *networkingv1.NetworkPolicy:
			if policy != nil {
				t.Error("more than one NetworkPolicy: check each")
			}
			policy = o
		}
	}
	if servers == nil || controller == nil || policy == nil || single == nil {
		t.Fatalf("missing: fio-server Job %v, qdsweep-multihost Job %v, NetworkPolicy %v, qdsweep Job %v",
			servers != nil, controller != nil, policy != nil, single != nil)
	}
	for _, j := range []*batchv1.Job{servers, controller, single} {
		if d := j.Spec.ActiveDeadlineSeconds; d == nil || *d <= 0 || *d > 24*3600 {
			t.Errorf("Job %s: activeDeadlineSeconds %v, want an end within a day", j.Name, d)
		}
	}
	serverPod := &servers.Spec.Template.Spec
	if len(serverPod.Volumes) != 1 || serverPod.Volumes[0].PersistentVolumeClaim == nil {
		t.Errorf("fio servers: volumes %v, want exactly the one shared claim", serverPod.Volumes)
	}
	if a := serverPod.Affinity; a == nil || a.PodAntiAffinity == nil || len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) == 0 ||
		a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].TopologyKey != "kubernetes.io/hostname" {
		t.Error("fio servers: no required anti-affinity on kubernetes.io/hostname (one server per node)")
	}
	checkLockedDown(t, "fio-server", serverPod, serverPod.Volumes[0].Name)
	checkLockedDown(t, "qdsweep-multihost", &controller.Spec.Template.Spec, "work", "results", "tmp")
	checkLockedDown(t, "qdsweep", &single.Spec.Template.Spec, "data")
	for _, c := range serverPod.Containers {
		if cmd := strings.Join(c.Command, " "); !strings.Contains(cmd, "--server=$(POD_IP),8765") {
			t.Errorf("fio server command %s: want --server=$(POD_IP),8765 (its own address, not every interface)", cmd)
		}
		if len(c.Env) == 0 || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.FieldRef == nil || c.Env[0].ValueFrom.FieldRef.FieldPath != "status.podIP" {
			t.Errorf("fio server env %v: want POD_IP from status.podIP", c.Env)
		}
	}
	if args := strings.Join(controller.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "--fio-arg=--ioengine=libaio") {
		t.Errorf("controller args %s: want --fio-arg=--ioengine=libaio (RuntimeDefault seccomp blocks io_uring)", args)
	}
	if args := strings.Join(single.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "--ioengine=libaio") {
		t.Errorf("one-volume Job args %s: want --ioengine=libaio (RuntimeDefault seccomp blocks io_uring)", args)
	}

	// The policy: selects this run's servers, governs ingress and egress,
	// admits only this run's controller pod from its namespace, only TCP
	// 8765, no egress.
	run := servers.Spec.Template.Labels["qdsweep.io/run"]
	if run == "" || controller.Spec.Template.Labels["qdsweep.io/run"] != run {
		t.Errorf("run labels: servers %q, controller %q, want one run ID on both", run, controller.Spec.Template.Labels["qdsweep.io/run"])
	}
	if !subset(policy.Spec.PodSelector.MatchLabels, servers.Spec.Template.Labels) || policy.Spec.PodSelector.MatchLabels["qdsweep.io/run"] != run {
		t.Error("NetworkPolicy podSelector does not select this run's fio servers")
	}
	if !slices.Contains(policy.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) || !slices.Contains(policy.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) {
		t.Errorf("NetworkPolicy policyTypes %v, want Ingress and Egress", policy.Spec.PolicyTypes)
	}
	if len(policy.Spec.Egress) != 0 {
		t.Errorf("NetworkPolicy allows egress %v; the servers need none", policy.Spec.Egress)
	}
	if len(policy.Spec.Ingress) != 1 {
		t.Fatalf("NetworkPolicy has %d ingress rules, want 1", len(policy.Spec.Ingress))
	}
	from := policy.Spec.Ingress[0].From
	if len(from) != 1 || from[0].IPBlock != nil || from[0].PodSelector == nil ||
		!subset(from[0].PodSelector.MatchLabels, controller.Spec.Template.Labels) || from[0].PodSelector.MatchLabels["qdsweep.io/run"] != run {
		t.Fatalf("NetworkPolicy ingress from %v: want only this run's controller pod", from)
	}
	if ns := from[0].NamespaceSelector; ns == nil || ns.MatchLabels["kubernetes.io/metadata.name"] == "" {
		t.Errorf("NetworkPolicy ingress namespaceSelector %v: want the run's namespace by kubernetes.io/metadata.name", ns)
	}
	if subset(from[0].PodSelector.MatchLabels, servers.Spec.Template.Labels) || subset(from[0].PodSelector.MatchLabels, single.Spec.Template.Labels) {
		t.Error("NetworkPolicy admits pods other than the controller's")
	}
	ports := policy.Spec.Ingress[0].Ports
	if len(ports) != 1 || ports[0].Port == nil || ports[0].Port.IntValue() != 8765 || ports[0].Protocol == nil || *ports[0].Protocol != corev1.ProtocolTCP || ports[0].EndPort != nil {
		t.Errorf("NetworkPolicy ports %v, want TCP 8765 alone", ports)
	}
}
