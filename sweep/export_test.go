package sweep

import "path/filepath"

// Test seams for the package's external tests (compiled only with them).

// IsResultsDir reports whether dir holds a readable qdsweep results.json.
func IsResultsDir(dir string) bool {
	_, err := Read(filepath.Join(dir, ResultsJSON))
	return err == nil
}

// Fit returns the last window's slope (IOPS per second) and mean (IOPS).
func (d *SteadyDetector) Fit() (slope, mean float64) { return d.slope, d.mean }

// WithRoots points a device probe at fixture /proc and /sys trees.
var WithRoots = withRoots
