package grammar

import (
	"slices"
	"strings"
)

// Vocab is a model's vocabulary as a byte trie, built once per model and
// shared by every matcher. It is immutable and safe for concurrent use.
type Vocab struct {
	pieces []string
	eog    []int32
	words  int // uint64 words in a mask

	// Trie nodes, numbered breadth first so that the children of a node
	// are the consecutive nodes first[n] .. first[n]+count[n]-1; node 0 is
	// the root. label is the byte on the edge into a node.
	first []int32
	count []uint16
	label []byte
	// order holds the token ids sorted by piece; the tokens of the subtree
	// of node n are order[lo[n]:hi[n]], those ending at n first (own[n]).
	order  []int32
	lo, hi []int32
	own    []int32
	sum    []subtreeSum
	runes  []uint16 // most code points begun by a piece below a node
	// pathRunes[n] counts the code points begun on the path to node n,
	// tokRunes[i] those begun by the piece of token order[i].
	pathRunes []uint16
	tokRunes  []uint16
	// dense holds the token bitmaps of the largest subtrees, which are
	// cheaper to merge word by word than to set token by token.
	dense map[int32][]uint64
	// allowable is the bitmap of the tokens a mask may hold: those with
	// text and the end-of-generation ones.
	allowable []uint64
}

// denseMin is the subtree size from which a node keeps a bitmap.
const denseMin = 4096

// NewVocab builds the trie of a vocabulary. pieces[id] holds the bytes
// that token id adds to the text (tokenizer.Piece); tokens with an empty
// piece (special and control tokens) are never allowed, except the
// end-of-generation ids in eog, which are allowed when the grammar is
// complete.
func NewVocab(pieces []string, eog []int) *Vocab {
	v := &Vocab{pieces: slices.Clone(pieces), words: (len(pieces) + 63) / 64}
	isEOG := map[int]bool{}
	for _, id := range eog {
		if id >= 0 && id < len(pieces) && !isEOG[id] {
			isEOG[id] = true
			v.eog = append(v.eog, int32(id))
		}
	}
	for id, p := range pieces {
		if p != "" && !isEOG[id] {
			v.order = append(v.order, int32(id))
		}
	}
	slices.SortStableFunc(v.order, func(a, b int32) int { return strings.Compare(pieces[a], pieces[b]) })
	v.buildTrie()
	v.countRunes()
	v.summarize()
	v.allowable = make([]uint64, v.words)
	setBits(v.allowable, v.order)
	setBits(v.allowable, v.eog)
	v.dense = map[int32][]uint64{}
	for n := range v.first {
		if v.hi[n]-v.lo[n] >= denseMin {
			bits := make([]uint64, v.words)
			setBits(bits, v.order[v.lo[n]:v.hi[n]])
			v.dense[int32(n)] = bits
		}
	}
	return v
}

// Size returns the number of token ids.
func (v *Vocab) Size() int { return len(v.pieces) }

// Words returns the length of a mask in uint64 words.
func (v *Vocab) Words() int { return v.words }

// Nodes returns the number of trie nodes.
func (v *Vocab) Nodes() int { return len(v.first) }

// buildTrie numbers nodes breadth first from the sorted tokens.
func (v *Vocab) buildTrie() {
	type item struct{ lo, hi, depth int32 }
	queue := []item{{0, int32(len(v.order)), 0}}
	v.label = append(v.label, 0)
	for n := 0; n < len(queue); n++ {
		it := queue[n]
		i := it.lo
		for i < it.hi && int32(len(v.pieces[v.order[i]])) == it.depth {
			i++
		}
		v.lo = append(v.lo, it.lo)
		v.hi = append(v.hi, it.hi)
		v.own = append(v.own, i-it.lo)
		v.first = append(v.first, int32(len(queue)))
		kids := 0
		for i < it.hi {
			c := v.pieces[v.order[i]][it.depth]
			j := i + 1
			for j < it.hi && v.pieces[v.order[j]][it.depth] == c {
				j++
			}
			queue = append(queue, item{i, j, it.depth + 1})
			v.label = append(v.label, c)
			kids++
			i = j
		}
		v.count = append(v.count, uint16(kids))
	}
}

// countRunes fills tokRunes and pathRunes.
func (v *Vocab) countRunes() {
	starts := func(s string) uint16 {
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i] < 0x80 || s[i] >= 0xC0 {
				n++
			}
		}
		return uint16(min(n, 1<<15))
	}
	v.tokRunes = make([]uint16, len(v.order))
	for i, id := range v.order {
		v.tokRunes[i] = starts(v.pieces[id])
	}
	v.pathRunes = make([]uint16, len(v.first))
	for n := range v.first {
		for c := v.first[n]; c < v.first[n]+int32(v.count[n]); c++ {
			v.pathRunes[c] = v.pathRunes[n]
			if b := v.label[c]; b < 0x80 || b >= 0xC0 {
				v.pathRunes[c]++
			}
		}
	}
}
