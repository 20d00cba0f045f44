package diagnosis

// RuleNetworkFS is the finding that the target lives on a network or FUSE
// filesystem (or on no block device at latencies no cache has): its
// latency is a round trip to a server, so the curve sizes that filesystem
// and its server, not a volume's device.
const RuleNetworkFS Rule = "network-filesystem"

// Reasons of RuleNetworkFS.
const (
	ReasonNetworkFS Reason = "network-fs" // a kernel network filesystem (nfs, cifs, 9p, virtiofs …)
	ReasonFUSEFS    Reason = "fuse-fs"    // a FUSE filesystem (fuse.gcsfuse, fuse.s3fs …)
	ReasonRemoteFS  Reason = "remote-fs"  // no block device, unknown type, round-trip latency
)

// FactFSType is the filesystem a target lives on: Detail its type as the
// mount table names it (e.g. "nfs4", "fuse.gcsfuse").
const FactFSType FactKind = "fs-type"

// Filesystem classes of DiagnoseCurve.FSClass (the values of the mount
// table's classification).
const (
	FSClassNetwork = "network"
	FSClassFUSE    = "fuse"
	FSClassMemory  = "memory"
)

// diagCacheLatNs is the mean latency at the shallowest step below which a
// target without a block device reads as memory (a cache): a page-cache hit
// takes single-digit microseconds, a network round trip hundreds of them.
const diagCacheLatNs = 50e3

// networkFS says what a network or FUSE filesystem's figures mean: the
// shallowest step's latency is a round trip, not a device's service time
// or a cache hit. A target with no block device on an unknown filesystem
// counts when its shallowest latency is no cache's.
func (d *diagCurve) networkFS() *Finding {
	p0, px := d.pts[0], d.pts[d.imax]
	var reason Reason
	switch {
	case d.FSClass == FSClassNetwork:
		reason = ReasonNetworkFS
	case d.FSClass == FSClassFUSE:
		reason = ReasonFUSEFS
	case d.NoDevice != "" && d.FSClass != FSClassMemory && p0.LatMeanNs >= diagCacheLatNs:
		reason = ReasonRemoteFS
	default:
		return nil
	}
	facts := []Fact{}
	if d.FSType != "" {
		facts = append(facts, Fact{Kind: FactFSType, Detail: d.FSType})
	}
	if d.NoDevice != "" {
		facts = append(facts, Fact{Kind: FactNoDevice, Detail: d.NoDevice})
	}
	facts = append(facts, Fact{Kind: FactPoint, QD: p0.QD, OfferedIOPS: p0.OfferedIOPS, IOPS: p0.IOPS, LatNs: p0.LatMeanNs})
	if d.imax != 0 {
		facts = append(facts, Fact{Kind: FactPoint, QD: px.QD, OfferedIOPS: px.OfferedIOPS, IOPS: px.IOPS, LatNs: px.LatMeanNs})
	}
	f := d.finding(RuleNetworkFS, reason, Fact{Kind: FactPoint, QD: p0.QD, OfferedIOPS: p0.OfferedIOPS, IOPS: p0.IOPS, LatNs: p0.LatMeanNs, Detail: d.FSType}, facts...)
	return &f
}
