// Package examples holds qdsweep's runnable examples and their tests: the
// sample results under data/ (real sweeps with the machine and date noted),
// the task walkthroughs (hyperdisk/, database/), the fio sweep script (fio/)
// and the Kubernetes manifests (kubernetes/). Its tests run every command
// the README marks as runnable and check the manifests against the
// Kubernetes API's field names. It has no API of its own.
package examples
