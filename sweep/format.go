package sweep

import "strconv"

// FioSize writes a byte count the way fio's bs is usually written:
// "512", "4k", "64k", "1m", "1g" when exact, else plain bytes.
func FioSize(b int64) string {
	units := []struct {
		suffix string
		size   int64
	}{{"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}}
	for _, u := range units {
		if b >= u.size && b%u.size == 0 {
			return strconv.FormatInt(b/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(b, 10)
}
