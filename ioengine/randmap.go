package ioengine

import "math/bits"

// blockMap is fio's random map (lib/axmap.c): one bit per block of a
// job's region, set once an I/O covered the block, with a bit per full
// word of the level below on each level above it, so that the next free
// block is found in a few words however full the map is. Its words are
// allocated once, when the job starts.
type blockMap struct {
	n      uint64     // blocks
	levels [][]uint64 // levels[0]: one bit per block
}

// newBlockMap returns an empty map of n blocks (nil when n is 0).
func newBlockMap(n uint64) *blockMap {
	if n == 0 {
		return nil
	}
	m := &blockMap{n: n}
	for words := (n + 63) / 64; ; words = (words + 63) / 64 {
		m.levels = append(m.levels, make([]uint64, words))
		if words == 1 {
			return m
		}
	}
}

// reset empties the map (fio's axmap_reset).
func (m *blockMap) reset() {
	for _, l := range m.levels {
		clear(l)
	}
}

// isSet reports whether block b is done (fio's axmap_isset).
func (m *blockMap) isSet(b uint64) bool {
	return b < m.n && m.levels[0][b/64]&(1<<(b%64)) != 0
}

// setRun marks up to nr blocks from b, stopping at the first one already
// set, and returns how many it marked: fio's axmap_set_nr, which marks a
// word's blocks past the map's end too (an I/O reaching past a strided
// zone's range: its last word's unused bits, never drawn nor free) and
// stops at a word starting past the end.
func (m *blockMap) setRun(b, nr uint64) uint64 {
	var done uint64
	for done < nr && b <= m.n && b/64 < uint64(len(m.levels[0])) {
		w, bit := b/64, b%64
		k := min(nr-done, 64-bit)
		mask := ^uint64(0) >> (64 - k) << bit
		if over := m.levels[0][w] & mask; over != 0 {
			// Only the run up to the first block already done.
			k = uint64(bits.TrailingZeros64(over)) - bit
			mask = ^uint64(0) >> (64 - k) << bit
			if k == 0 {
				break
			}
			m.set(w, mask)
			return done + k
		}
		m.set(w, mask)
		done, b = done+k, b+k
	}
	return done
}

// set ors mask into level 0's word w and marks each level above whose
// word below became full.
func (m *blockMap) set(w, mask uint64) {
	m.levels[0][w] |= mask
	for l := 1; l < len(m.levels) && m.levels[l-1][w] == ^uint64(0); l++ {
		m.levels[l][w/64] |= 1 << (w % 64)
		w /= 64
	}
}

// nextFree is the first free block after b, from the start again past
// the end; ok is false when every block is done (fio's axmap_next_free).
func (m *blockMap) nextFree(b uint64) (uint64, bool) {
	from := b + 1
	if from >= m.n {
		from = 0
	}
	if f, ok := m.firstFree(from); ok {
		return f, true
	}
	if from == 0 {
		return 0, false
	}
	return m.firstFree(0)
}

// firstFree is the first free block at or after from.
func (m *blockMap) firstFree(from uint64) (uint64, bool) {
	// Climb: on each level, the free bits from the index of from (on
	// levels above 0, past from's own word below, which held none).
	idx, l := from, 0
	var found uint64
	for {
		if l == len(m.levels) {
			return 0, false
		}
		lv := m.levels[l]
		if w := idx / 64; w < uint64(len(lv)) {
			if free := ^lv[w] &^ (1<<(idx%64) - 1); free != 0 {
				found = w*64 + uint64(bits.TrailingZeros64(free))
				break
			}
		}
		idx, l = idx/64+1, l+1
	}
	// Descend: each level's first free bit under the one found above.
	for ; l > 0; l-- {
		lv := m.levels[l-1]
		if found >= uint64(len(lv)) {
			return 0, false // a bit past the last word below
		}
		found = found*64 + uint64(bits.TrailingZeros64(^lv[found]))
	}
	if found >= m.n {
		return 0, false
	}
	return found, true
}
