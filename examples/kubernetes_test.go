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
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The field paths the manifests may use, from the Kubernetes API reference
// (kubernetes.io/docs/reference/kubernetes-api/): a subset of each kind's
// real fields, written as dotted paths where "[]" is an element of a list and
// "*" any key of a free-form map (labels, resource quantities). A key that
// is not here is a typo or a field of another kind, and fails the test; add
// a field here only after checking its name in the reference.

// objectMeta are ObjectMeta's fields (metadata of every object and of pod templates).
var objectMeta = []string{
	"name", "generateName", "namespace", "labels", "labels.*", "annotations", "annotations.*",
}

// containerFields are Container's fields (core/v1 Container).
var containerFields = []string{
	"name", "image", "imagePullPolicy", "command", "args", "workingDir",
	"env", "env[].name", "env[].value", "env[].valueFrom",
	"env[].valueFrom.fieldRef", "env[].valueFrom.fieldRef.fieldPath", "env[].valueFrom.fieldRef.apiVersion",
	"env[].valueFrom.secretKeyRef", "env[].valueFrom.secretKeyRef.name", "env[].valueFrom.secretKeyRef.key",
	"env[].valueFrom.configMapKeyRef", "env[].valueFrom.configMapKeyRef.name", "env[].valueFrom.configMapKeyRef.key",
	"ports", "ports[].name", "ports[].containerPort", "ports[].protocol", "ports[].hostPort", "ports[].hostIP",
	"resources", "resources.requests", "resources.requests.*", "resources.limits", "resources.limits.*",
	"volumeMounts", "volumeMounts[].name", "volumeMounts[].mountPath", "volumeMounts[].readOnly",
	"volumeMounts[].subPath", "volumeMounts[].mountPropagation",
	"volumeDevices", "volumeDevices[].name", "volumeDevices[].devicePath",
	"securityContext", "securityContext.privileged", "securityContext.allowPrivilegeEscalation",
	"securityContext.readOnlyRootFilesystem", "securityContext.runAsUser", "securityContext.runAsGroup",
	"securityContext.runAsNonRoot", "securityContext.capabilities", "securityContext.capabilities.add",
	"securityContext.capabilities.drop", "securityContext.seccompProfile", "securityContext.seccompProfile.type",
	"securityContext.seccompProfile.localhostProfile",
	"readinessProbe", "livenessProbe", "startupProbe",
	"terminationMessagePath", "terminationMessagePolicy", "stdin", "tty",
}

// probeFields are Probe's fields, for each probe of a container.
var probeFields = []string{
	"tcpSocket", "tcpSocket.port", "exec", "exec.command", "httpGet", "httpGet.path", "httpGet.port",
	"initialDelaySeconds", "periodSeconds", "timeoutSeconds", "failureThreshold", "successThreshold",
}

// podSpecFields are PodSpec's fields (core/v1 PodSpec), containers aside.
var podSpecFields = []string{
	"restartPolicy", "serviceAccountName", "automountServiceAccountToken", "nodeName",
	"nodeSelector", "nodeSelector.*", "hostNetwork", "hostPID", "dnsPolicy", "priorityClassName",
	"terminationGracePeriodSeconds", "activeDeadlineSeconds", "enableServiceLinks", "hostname", "subdomain",
	"imagePullSecrets", "imagePullSecrets[].name",
	"tolerations", "tolerations[].key", "tolerations[].operator", "tolerations[].value", "tolerations[].effect",
	"tolerations[].tolerationSeconds",
	"securityContext", "securityContext.runAsUser", "securityContext.runAsGroup", "securityContext.runAsNonRoot",
	"securityContext.fsGroup", "securityContext.seccompProfile", "securityContext.seccompProfile.type",
	"volumes", "volumes[].name",
	"volumes[].persistentVolumeClaim", "volumes[].persistentVolumeClaim.claimName", "volumes[].persistentVolumeClaim.readOnly",
	"volumes[].emptyDir", "volumes[].emptyDir.medium", "volumes[].emptyDir.sizeLimit",
	"volumes[].hostPath", "volumes[].hostPath.path", "volumes[].hostPath.type",
	"volumes[].configMap", "volumes[].configMap.name", "volumes[].configMap.defaultMode",
	"volumes[].secret", "volumes[].secret.secretName", "volumes[].secret.defaultMode",
}

// labelSelector are LabelSelector's fields.
var labelSelector = []string{
	"matchLabels", "matchLabels.*", "matchExpressions", "matchExpressions[].key",
	"matchExpressions[].operator", "matchExpressions[].values",
}

// peerFields are NetworkPolicyPeer's paths under prefix.
func peerFields(prefix string) []string {
	out := append(under(prefix+".podSelector", labelSelector), under(prefix+".namespaceSelector", labelSelector)...)
	return append(out, prefix+".ipBlock", prefix+".ipBlock.cidr", prefix+".ipBlock.except")
}

// under prefixes every path of fields with prefix.
func under(prefix string, fields ...[]string) []string {
	var out []string
	for _, fs := range fields {
		for _, f := range fs {
			out = append(out, prefix+"."+f)
		}
	}
	return append(out, prefix)
}

// podTemplate is a PodTemplateSpec's paths under prefix (e.g. "spec.template").
func podTemplate(prefix string) []string {
	out := under(prefix+".metadata", objectMeta)
	out = append(out, under(prefix+".spec", podSpecFields)...)
	for _, list := range []string{"containers", "initContainers"} {
		c := prefix + ".spec." + list + "[]"
		out = append(out, prefix+".spec."+list)
		out = append(out, under(c, containerFields)...)
		for _, p := range []string{"readinessProbe", "livenessProbe", "startupProbe"} {
			out = append(out, under(c+"."+p, probeFields)...)
		}
	}
	return append(out, prefix)
}

// kindFields maps "apiVersion kind" to every field path objects of that kind may use.
var kindFields = func() map[string]map[string]bool {
	common := append([]string{"apiVersion", "kind"}, under("metadata", objectMeta)...)
	kinds := map[string][]string{
		"batch/v1 Job": append(append(common,
			"spec", "spec.backoffLimit", "spec.ttlSecondsAfterFinished", "spec.activeDeadlineSeconds",
			"spec.completions", "spec.parallelism", "spec.completionMode", "spec.suspend", "spec.manualSelector",
			"spec.backoffLimitPerIndex", "spec.maxFailedIndexes"),
			append(under("spec.selector", labelSelector), podTemplate("spec.template")...)...),
		"apps/v1 DaemonSet": append(append(common,
			"spec", "spec.minReadySeconds", "spec.revisionHistoryLimit",
			"spec.updateStrategy", "spec.updateStrategy.type", "spec.updateStrategy.rollingUpdate",
			"spec.updateStrategy.rollingUpdate.maxUnavailable", "spec.updateStrategy.rollingUpdate.maxSurge"),
			append(under("spec.selector", labelSelector), podTemplate("spec.template")...)...),
		"v1 Service": append(common,
			"spec", "spec.selector", "spec.selector.*", "spec.type", "spec.clusterIP", "spec.clusterIPs",
			"spec.publishNotReadyAddresses", "spec.sessionAffinity", "spec.externalTrafficPolicy",
			"spec.internalTrafficPolicy", "spec.ipFamilies", "spec.ipFamilyPolicy",
			"spec.ports", "spec.ports[].name", "spec.ports[].port", "spec.ports[].targetPort",
			"spec.ports[].protocol", "spec.ports[].nodePort", "spec.ports[].appProtocol"),
		"networking.k8s.io/v1 NetworkPolicy": append(append(append(common,
			"spec", "spec.policyTypes",
			"spec.ingress", "spec.ingress[].from", "spec.ingress[].ports", "spec.ingress[].ports[].protocol",
			"spec.ingress[].ports[].port", "spec.ingress[].ports[].endPort",
			"spec.egress", "spec.egress[].to", "spec.egress[].ports", "spec.egress[].ports[].protocol",
			"spec.egress[].ports[].port", "spec.egress[].ports[].endPort"),
			under("spec.podSelector", labelSelector)...),
			append(peerFields("spec.ingress[].from[]"), peerFields("spec.egress[].to[]")...)...),
		"v1 PersistentVolumeClaim": append(append(common,
			"spec", "spec.accessModes", "spec.storageClassName", "spec.volumeMode", "spec.volumeName",
			"spec.volumeAttributesClassName",
			"spec.resources", "spec.resources.requests", "spec.resources.requests.*",
			"spec.resources.limits", "spec.resources.limits.*",
			"spec.dataSource", "spec.dataSource.apiGroup", "spec.dataSource.kind", "spec.dataSource.name"),
			under("spec.selector", labelSelector)...),
	}
	out := map[string]map[string]bool{}
	for k, paths := range kinds {
		out[k] = map[string]bool{}
		for _, p := range paths {
			out[k][p] = true
		}
	}
	return out
}()

// manifest is one document of a manifest file, decoded both as a node tree
// (for the field check) and as a generic value (for the cross checks).
type manifest struct {
	file string
	node *yaml.Node
	obj  map[string]any
}

func (m manifest) kind() string { s, _ := m.obj["kind"].(string); return s }

func (m manifest) name() string {
	md, _ := m.obj["metadata"].(map[string]any)
	s, _ := md["name"].(string)
	return s
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
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for i := 0; ; i++ {
			var n yaml.Node
			err := dec.Decode(&n)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: document %d: %v", f, i+1, err)
			}
			var obj map[string]any
			if err := n.Decode(&obj); err != nil {
				t.Fatalf("%s: document %d: %v", f, i+1, err)
			}
			if obj == nil {
				continue // an empty document (a trailing ---)
			}
			out = append(out, manifest{file: filepath.Base(f), node: &n, obj: obj})
		}
	}
	return out
}

// checkFields reports every mapping key under n whose path is not allowed.
func checkFields(t *testing.T, where string, n *yaml.Node, path string, allowed map[string]bool) {
	t.Helper()
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			checkFields(t, where, c, path, allowed)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			checkFields(t, where, c, path+"[]", allowed)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			p := key
			if path != "" {
				p = path + "." + key
			}
			if allowed[path+".*"] && path != "" {
				continue // free-form map: any key, scalar values
			}
			if !allowed[p] {
				t.Errorf("%s line %d: unknown field %q (not a field of this kind in the Kubernetes API)", where, n.Content[i].Line, p)
				continue
			}
			checkFields(t, where, n.Content[i+1], p, allowed)
		}
	}
}

func TestKubernetesManifestFields(t *testing.T) {
	ms := readManifests(t, "kubernetes")
	for _, m := range ms {
		av, _ := m.obj["apiVersion"].(string)
		key := av + " " + m.kind()
		allowed, ok := kindFields[key]
		if !ok {
			t.Errorf("%s: %s %q: kind not covered (known: Job, DaemonSet, Service, PersistentVolumeClaim, NetworkPolicy with their API versions)", m.file, key, m.name())
			continue
		}
		checkFields(t, m.file+" "+m.kind()+"/"+m.name(), m.node, "", allowed)
	}
}

// get walks a decoded object along keys.
func get(v any, keys ...string) any {
	for _, k := range keys {
		mp, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mp[k]
	}
	return v
}

func list(v any) []any { l, _ := v.([]any); return l }

func str(v any) string { s, _ := v.(string); return s }

// subset reports whether every key of sel has the same value in labels.
func subset(sel, labels any) bool {
	s, _ := sel.(map[string]any)
	l, _ := labels.(map[string]any)
	if len(s) == 0 {
		return false
	}
	for k, v := range s {
		if l[k] != v {
			return false
		}
	}
	return true
}

// TestKubernetesManifestReferences checks what the API server cannot:
// selectors select the pod templates, claims and volume mounts name things
// that exist, and every qdsweep invocation uses real commands and flags.
func TestKubernetesManifestReferences(t *testing.T) {
	ms := readManifests(t, "kubernetes")
	claims := map[string]bool{}
	var templateLabels []any
	for _, m := range ms {
		if m.kind() == "PersistentVolumeClaim" {
			claims[m.name()] = true
		}
		if tl := get(m.obj, "spec", "template", "metadata", "labels"); tl != nil {
			templateLabels = append(templateLabels, tl)
		}
	}
	for _, m := range ms {
		where := m.file + " " + m.kind() + "/" + m.name()
		switch m.kind() {
		case "DaemonSet", "Job":
			if sel := get(m.obj, "spec", "selector", "matchLabels"); sel != nil &&
				!subset(sel, get(m.obj, "spec", "template", "metadata", "labels")) {
				t.Errorf("%s: spec.selector.matchLabels does not select spec.template.metadata.labels", where)
			}
			checkPod(t, where, get(m.obj, "spec", "template", "spec"), claims)
		case "Service":
			found := false
			for _, tl := range templateLabels {
				found = found || subset(get(m.obj, "spec", "selector"), tl)
			}
			if !found {
				t.Errorf("%s: spec.selector selects no pod template of these manifests", where)
			}
		}
	}
}

// checkPod checks one PodSpec's volumes, mounts and qdsweep command lines.
func checkPod(t *testing.T, where string, pod any, claims map[string]bool) {
	t.Helper()
	volumes := map[string]bool{}
	for _, v := range list(get(pod, "volumes")) {
		volumes[str(get(v, "name"))] = true
		if c := str(get(v, "persistentVolumeClaim", "claimName")); c != "" && !claims[c] {
			t.Errorf("%s: volume %q claims %q, which no manifest here defines", where, str(get(v, "name")), c)
		}
	}
	for _, kind := range []string{"initContainers", "containers"} {
		for _, c := range list(get(pod, kind)) {
			for _, vm := range list(get(c, "volumeMounts")) {
				if n := str(get(vm, "name")); !volumes[n] {
					t.Errorf("%s: container %q mounts volume %q, which the pod does not have", where, str(get(c, "name")), n)
				}
			}
			if strings.HasPrefix(str(get(c, "image")), "qdsweep") && get(c, "command") == nil {
				var args []string
				for _, a := range list(get(c, "args")) {
					args = append(args, str(a))
				}
				checkQdsweepArgs(t, where+" container "+str(get(c, "name")), args)
			}
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

// TestDockerfileGoVersion checks that the image builds with the Go release go.mod asks for.
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

// boolAt is a pod's or its container's boolean security setting: the
// container's value when set, else the pod's.
func boolAt(pod, c any, key string) (bool, bool) {
	if v, ok := get(c, "securityContext", key).(bool); ok {
		return v, true
	}
	v, ok := get(pod, "securityContext", key).(bool)
	return v, ok
}

func intAt(pod, c any, key string) (int, bool) {
	if v, ok := get(c, "securityContext", key).(int); ok {
		return v, true
	}
	v, ok := get(pod, "securityContext", key).(int)
	return v, ok
}

// checkLockedDown checks one pod runs every container unprivileged: non-root
// (runAsNonRoot and a non-zero runAsUser), no privilege escalation, not
// privileged, every capability dropped and none added, a read-only root
// filesystem, no host namespaces; and that it writes only to the volumes
// named in writable (every other mount read-only).
func checkLockedDown(t *testing.T, where string, pod any, writable ...string) {
	t.Helper()
	for _, k := range []string{"hostNetwork", "hostPID", "hostIPC"} {
		if v, _ := get(pod, k).(bool); v {
			t.Errorf("%s: %s is set", where, k)
		}
	}
	ok := map[string]bool{}
	for _, w := range writable {
		ok[w] = true
	}
	for _, kind := range []string{"initContainers", "containers"} {
		for _, c := range list(get(pod, kind)) {
			cw := where + " container " + str(get(c, "name"))
			if v, set := boolAt(pod, c, "runAsNonRoot"); !set || !v {
				t.Errorf("%s: runAsNonRoot is not true", cw)
			}
			if uid, set := intAt(pod, c, "runAsUser"); !set || uid == 0 {
				t.Errorf("%s: runAsUser is %d (set %v), want a non-root uid", cw, uid, set)
			}
			if v, set := get(c, "securityContext", "allowPrivilegeEscalation").(bool); !set || v {
				t.Errorf("%s: allowPrivilegeEscalation is not false", cw)
			}
			if v, _ := get(c, "securityContext", "privileged").(bool); v {
				t.Errorf("%s: privileged", cw)
			}
			if v, set := get(c, "securityContext", "readOnlyRootFilesystem").(bool); !set || !v {
				t.Errorf("%s: readOnlyRootFilesystem is not true", cw)
			}
			drop := list(get(c, "securityContext", "capabilities", "drop"))
			if len(drop) != 1 || str(drop[0]) != "ALL" {
				t.Errorf("%s: capabilities.drop is %v, want [ALL]", cw, drop)
			}
			if add := list(get(c, "securityContext", "capabilities", "add")); len(add) > 0 {
				t.Errorf("%s: adds capabilities %v", cw, add)
			}
			for _, vm := range list(get(c, "volumeMounts")) {
				ro, _ := get(vm, "readOnly").(bool)
				if n := str(get(vm, "name")); !ok[n] && !ro {
					t.Errorf("%s: writable mount of volume %q; it may write only to %v", cw, n, writable)
				}
			}
		}
	}
}

// TestKubernetesFioServersLockedDown: fio's server protocol is
// unauthenticated, so the fio servers run unprivileged, write only to the
// shared volume, listen on their pod address, and a NetworkPolicy admits
// only the controller Job's pods, on 8765 alone, and lets the servers open
// no connection. The controller and the one-volume Job run unprivileged too.
func TestKubernetesFioServersLockedDown(t *testing.T) {
	ms := readManifests(t, "kubernetes")
	var servers, controller, policy, single map[string]any
	for _, m := range ms {
		switch {
		case m.kind() == "DaemonSet" && m.name() == "fio-server":
			servers = m.obj
		case m.kind() == "Job" && m.name() == "qdsweep-multihost":
			controller = m.obj
		case m.kind() == "Job" && m.name() == "qdsweep":
			single = m.obj
		case m.kind() == "NetworkPolicy":
			if policy != nil {
				t.Error("more than one NetworkPolicy: check each")
			}
			policy = m.obj
		}
	}
	if servers == nil || controller == nil || policy == nil || single == nil {
		t.Fatalf("missing: fio-server DaemonSet %v, qdsweep-multihost Job %v, NetworkPolicy %v, qdsweep Job %v",
			servers != nil, controller != nil, policy != nil, single != nil)
	}
	serverPod := get(servers, "spec", "template", "spec")
	var shared []string
	for _, v := range list(get(serverPod, "volumes")) {
		if get(v, "persistentVolumeClaim") != nil {
			shared = append(shared, str(get(v, "name")))
		}
	}
	if len(shared) != 1 || len(list(get(serverPod, "volumes"))) != 1 {
		t.Errorf("fio servers: volumes %v, want exactly the one shared claim", get(serverPod, "volumes"))
	}
	checkLockedDown(t, "fio-server", serverPod, shared...)
	checkLockedDown(t, "qdsweep-multihost", get(controller, "spec", "template", "spec"), "work", "results", "tmp")
	checkLockedDown(t, "qdsweep", get(single, "spec", "template", "spec"), "data")
	for _, c := range list(get(serverPod, "containers")) {
		cmd := fmt.Sprint(get(c, "command"))
		if !strings.Contains(cmd, "--server=$(POD_IP),8765") {
			t.Errorf("fio server command %s: want --server=$(POD_IP),8765 (its own address, not every interface)", cmd)
		}
		if v := list(get(c, "env")); len(v) == 0 || str(get(v[0], "valueFrom", "fieldRef", "fieldPath")) != "status.podIP" {
			t.Errorf("fio server env %v: want POD_IP from status.podIP", v)
		}
	}

	// The policy: selects the servers, governs ingress and egress, admits
	// only pods of the controller Job's template, only TCP 8765, no egress.
	if !subset(get(policy, "spec", "podSelector", "matchLabels"), get(servers, "spec", "template", "metadata", "labels")) {
		t.Error("NetworkPolicy podSelector does not select the fio servers")
	}
	types := fmt.Sprint(get(policy, "spec", "policyTypes"))
	if !strings.Contains(types, "Ingress") || !strings.Contains(types, "Egress") {
		t.Errorf("NetworkPolicy policyTypes %s, want Ingress and Egress", types)
	}
	if e := list(get(policy, "spec", "egress")); len(e) != 0 {
		t.Errorf("NetworkPolicy allows egress %v; the servers need none", e)
	}
	ingress := list(get(policy, "spec", "ingress"))
	if len(ingress) != 1 {
		t.Fatalf("NetworkPolicy has %d ingress rules, want 1", len(ingress))
	}
	from := list(get(ingress[0], "from"))
	if len(from) != 1 || get(from[0], "namespaceSelector") != nil || get(from[0], "ipBlock") != nil ||
		!subset(get(from[0], "podSelector", "matchLabels"), get(controller, "spec", "template", "metadata", "labels")) {
		t.Errorf("NetworkPolicy ingress from %v: want only the controller Job's pods", from)
	}
	if subset(get(from[0], "podSelector", "matchLabels"), get(servers, "spec", "template", "metadata", "labels")) ||
		subset(get(from[0], "podSelector", "matchLabels"), get(single, "spec", "template", "metadata", "labels")) {
		t.Error("NetworkPolicy admits pods other than the controller's")
	}
	ports := list(get(ingress[0], "ports"))
	if len(ports) != 1 || get(ports[0], "port") != 8765 || str(get(ports[0], "protocol")) != "TCP" || get(ports[0], "endPort") != nil {
		t.Errorf("NetworkPolicy ports %v, want TCP 8765 alone", ports)
	}
}
