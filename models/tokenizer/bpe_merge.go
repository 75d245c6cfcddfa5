package tokenizer

// smallWord is the symbol count up to which merge scans for the best pair
// instead of keeping a heap; for short words the scan is faster.
const smallWord = 48

// rank returns the merge word (rank<<32 | merged id) of the pair a, b.
func (m *bpe) rank(a, b int32) uint64 {
	if r, ok := m.merges[pairKey(a, b)]; ok {
		return r
	}
	return noMerge
}

// merge applies the merges to syms in rank order, the leftmost pair first
// among equal ranks, and returns the final ids.
func (m *bpe) merge(syms []int32, sc *scratch) []int32 {
	if len(syms) < 2 || len(m.merges) == 0 {
		return syms
	}
	if len(syms) > smallWord {
		return m.mergeHeap(syms)
	}
	ranks := sc.ranks[:0]
	for i := 0; i+1 < len(syms); i++ {
		ranks = append(ranks, m.rank(syms[i], syms[i+1]))
	}
	for {
		best := -1
		bestRank := noMerge >> 32
		for i, r := range ranks {
			if r>>32 < bestRank {
				best, bestRank = i, r>>32
			}
		}
		if best < 0 {
			break
		}
		syms[best] = int32(uint32(ranks[best]))
		syms = append(syms[:best+1], syms[best+2:]...)
		ranks = append(ranks[:best], ranks[best+1:]...)
		if best > 0 {
			ranks[best-1] = m.rank(syms[best-1], syms[best])
		}
		if best < len(ranks) {
			ranks[best] = m.rank(syms[best], syms[best+1])
		}
	}
	sc.ranks = ranks
	return syms
}

// mergeEntry is a candidate merge of the symbol at pos with its successor.
type mergeEntry struct {
	rank uint64 // rank<<32 | merged id
	pos  int32
}

func (e mergeEntry) less(o mergeEntry) bool {
	if e.rank>>32 != o.rank>>32 {
		return e.rank < o.rank
	}
	return e.pos < o.pos
}

// mergeHeap is merge for long words: a linked list of symbols and a binary
// heap of candidate merges, stale entries being skipped when popped.
func (m *bpe) mergeHeap(syms []int32) []int32 {
	n := len(syms)
	next := make([]int32, n)
	prev := make([]int32, n)
	for i := range syms {
		next[i], prev[i] = int32(i+1), int32(i-1)
	}
	next[n-1] = -1
	h := mergeHeapQ{}
	for i := 0; i+1 < n; i++ {
		if r := m.rank(syms[i], syms[i+1]); r != noMerge {
			h.push(mergeEntry{r, int32(i)})
		}
	}
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	for len(h) > 0 {
		e := h.pop()
		p := e.pos
		q := next[p]
		if !alive[p] || q < 0 || m.rank(syms[p], syms[q]) != e.rank {
			continue
		}
		syms[p] = int32(uint32(e.rank))
		alive[q] = false
		next[p] = next[q]
		if next[q] >= 0 {
			prev[next[q]] = p
		}
		if pp := prev[p]; pp >= 0 {
			if r := m.rank(syms[pp], syms[p]); r != noMerge {
				h.push(mergeEntry{r, pp})
			}
		}
		if nn := next[p]; nn >= 0 {
			if r := m.rank(syms[p], syms[nn]); r != noMerge {
				h.push(mergeEntry{r, p})
			}
		}
	}
	out := syms[:0]
	for i := int32(0); i >= 0; i = next[i] {
		out = append(out, syms[i])
	}
	return out
}

// mergeHeapQ is a binary min-heap of merge entries.
type mergeHeapQ []mergeEntry

func (h *mergeHeapQ) push(e mergeEntry) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].less(q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *mergeHeapQ) pop() mergeEntry {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, r, min := 2*i+1, 2*i+2, i
		if l < len(q) && q[l].less(q[min]) {
			min = l
		}
		if r < len(q) && q[r].less(q[min]) {
			min = r
		}
		if min == i {
			break
		}
		q[i], q[min] = q[min], q[i]
		i = min
	}
	*h = q
	return top
}
