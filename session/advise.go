package session

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/qdsweep/qdsweep/device"
	"github.com/qdsweep/qdsweep/fio"
	"github.com/qdsweep/qdsweep/guard"
	"github.com/qdsweep/qdsweep/littleslaw"
	"github.com/qdsweep/qdsweep/report"
	"github.com/qdsweep/qdsweep/sweep"
	"github.com/qdsweep/qdsweep/units"
)

// AdviseFromData reads and analyses measured points (a results file or
// directory, or a points CSV), picks the curve rw and, when bsSet, in.BS
// name, and advises from it.
func AdviseFromData(from, rw string, bsSet bool, in littleslaw.AdviceInput) (report.AdviceDoc, error) {
	var curves []sweep.CurveAnalysis
	var err error
	if strings.EqualFold(filepath.Ext(from), ".csv") {
		curves, err = csvCurve(from, in.Options)
	} else {
		curves, err = resultCurves(from, rw, bsSet, &in)
	}
	if err != nil {
		return report.AdviceDoc{}, err
	}
	first := curves[0]
	adv := littleslaw.AdviseCurve(first.Analysis, first.BS, in)
	if len(curves) > 1 {
		adv.Notices = append(adv.Notices, littleslaw.AdviceNotice{Kind: littleslaw.AdviceSeveralCurves, Count: len(curves), RW: first.RW, BS: first.BS})
	} else {
		curves = nil
	}
	doc := report.NewAdviceDoc(adv, from, &first.Analysis, curves)
	doc.Warnings = append(doc.Warnings, report.TimeCaveats(first)...)
	return doc, nil
}

// csvCurve is the one curve of a points CSV, analysed with opts.
func csvCurve(from string, opts littleslaw.Options) ([]sweep.CurveAnalysis, error) {
	pts, err := sweep.ReadPointsCSV(from)
	if err != nil {
		// Malformed (ErrPointsCSV), missing or unreadable: the user's to fix.
		return nil, Usagef("--from %s: %v", from, OneLine(err))
	}
	a, err := littleslaw.Analyze(pts, opts)
	if err != nil {
		if len(pts) == 1 && pts[0].LatMeanNs > 0 {
			// One point is no curve, but it holds a latency: Little's
			// Law alone answers from it.
			target := opts.TargetIOPS
			if target <= 0 {
				target = pts[0].IOPS
			}
			return nil, Usagef("--from %s: one row is no curve (a fit needs two at different queue depths); for Little's Law at its latency give it directly: qdsweep advise --target-iops %.0f --latency %s",
				from, target, strconv.FormatFloat(math.Round(pts[0].LatMeanNs/10)/100, 'f', -1, 64)+"us")
		}
		return nil, Usagef("--from %s: %v (a fit needs at least two rows at different queue depths)", from, err)
	}
	return []sweep.CurveAnalysis{{BS: opts.BS, Analysis: a}}, nil
}

// resultCurves are the curves of a saved result that rw and, when bsSet,
// in.BS name, analysed with in's options (the result's CPU count where in
// has none, kept in in for the advice).
func resultCurves(from, rw string, bsSet bool, in *littleslaw.AdviceInput) ([]sweep.CurveAnalysis, error) {
	r, err := sweep.Read(from)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, Usagef("--from %s: no such file or directory; give results.json, a results directory or a points .csv", from)
		}
		// Any file that does not read as a result is the user's to fix.
		return nil, Usagef("--from %s: %v; give results.json, a results directory or a points .csv", from, OneLine(err))
	}
	if in.Options.CPUs == 0 {
		in.Options.CPUs = r.Meta.CPUs
	}
	if err := r.Analyze(in.Options); err != nil {
		return nil, Usagef("--from %s: %v", from, err)
	}
	var curves []sweep.CurveAnalysis
	for _, ca := range r.Analysis {
		if (rw == "" || ca.RW == rw) && (!bsSet || ca.BS == in.BS) {
			curves = append(curves, ca)
		}
	}
	if len(curves) == 0 {
		return nil, Usagef("--from %s: no curve matches --%s %q --%s %d; the file has %s", from, fio.OptRW, rw, fio.OptBS, in.BS, curveList(r.Analysis))
	}
	if len(curves[0].Analysis.Points) < 2 {
		return nil, Usagef("--from %s: the %s curve has %d measured point(s); a fit needs at least two",
			from, report.CurveName(curves[0].RW, curves[0].BS), len(curves[0].Analysis.Points))
	}
	return curves, nil
}

func curveList(cs []sweep.CurveAnalysis) string {
	var names []string
	for _, c := range cs {
		names = append(names, fmt.Sprintf("--%s %s --%s %s", fio.OptRW, c.RW, fio.OptBS, units.FioSize(c.BS)))
	}
	if len(names) == 0 {
		return "no curves"
	}
	return strings.Join(names, "; ")
}

// WriteIOProperties writes Seastar's io_properties.yaml for the sweep in
// from (a results directory) into it, through the one writer (opts), and
// prints it on stdout; mountpoint names the mount (""): the one holding the
// sweep's target on this machine).
func WriteIOProperties(stdout, stderr io.Writer, from, mountpoint string, opts guard.OutOptions) error {
	r, err := sweep.Read(from)
	if err != nil {
		return Usagef("--from %s: %v; give the results directory of a sweep", from, OneLine(err))
	}
	if err := r.Analyze(littleslaw.Options{CPUs: r.Meta.CPUs}); err != nil {
		return Usagef("--from %s: %v", from, err)
	}
	mp := mountpoint
	if mp == "" && r.Meta.Target != "" {
		if fs, err := (device.Roots{}).FSTypeOf(r.Meta.Target); err == nil {
			mp = fs.MountPoint
		}
	}
	if mp == "" {
		return Usagef("--for seastar: the mount point of %q is not known here; name it with --mountpoint=/var/lib/scylla", r.Meta.Target)
	}
	p := r.IOProperties(mp)
	if p.ReadIOPS == 0 || p.WriteIOPS == 0 || p.ReadBandwidth == 0 || p.WriteBandwidth == 0 {
		// Seastar requires all four: a partial file would not load.
		return Usagef("--from %s lacks curves Seastar needs (4k randread and randwrite, sequential read and write: %s missing); sweep them with --%s=randread,randwrite,read,write --%s=4k,1m",
			from, strings.Join(p.Missing, ", "), fio.OptRW, fio.OptBS)
	}
	data, err := report.IOPropertiesYAML(p, from)
	if err != nil {
		return err
	}
	out, err := OpenOut(ResultDir(from), opts)
	if err != nil {
		return err
	}
	if err := out.WriteFile(ioPropertiesFile, data); err != nil {
		return OutErr(err)
	}
	if _, err := stdout.Write(data); err != nil {
		return err
	}
	report.WriteIOPropertiesNote(stderr, out.Path(ioPropertiesFile), p)
	return nil
}

// ioPropertiesFile is Seastar's file name for the I/O properties.
const ioPropertiesFile = "io_properties.yaml"

// ResultsFile is the results.json a result path stands for.
func ResultsFile(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, sweep.ResultsJSON)
	}
	return path
}

// ResultDir is the directory a result path stands for.
func ResultDir(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return path
	}
	return filepath.Dir(path)
}
