package grammar

import "math/bits"

// maskStore keeps the masks of the states of a machine, each in its
// smallest form: the allowed ids when few tokens are allowed (between
// the members of an object), the refused ids when nearly all are (inside
// a string), else the bitmap. The matchers of a grammar come back to the
// same states token after token and request after request. When the
// store outgrows its budget it starts over.
type maskStore struct {
	m     map[int32]packedMask
	bytes int
}

// maskBudget bounds the bytes of the masks kept by one machine.
const maskBudget = 4 << 20

type packedMask struct {
	ids    []int32  // allowed ids, or refused ones when inverted
	invert bool     // ids lists the refused tokens among the allowable ones
	bits   []uint64 // the bitmap when neither list is smaller
}

func (c *maskStore) clear() {
	c.m = map[int32]packedMask{}
	c.bytes = 0
}

// get writes the mask of state id into dst and reports whether it was
// kept; all is as for put.
func (c *maskStore) get(id int32, dst, all []uint64) bool {
	p, ok := c.m[id]
	switch {
	case !ok:
		return false
	case p.bits != nil:
		copy(dst, p.bits)
	case p.invert:
		copy(dst, all)
		for _, t := range p.ids {
			dst[t>>6] &^= 1 << (t & 63)
		}
	default:
		setBits(dst, p.ids)
	}
	return true
}

// put keeps the mask of state id; all is the bitmap of the tokens that
// any state may allow (those with text, and end-of-generation tokens).
func (c *maskStore) put(id int32, mask, all []uint64) {
	n, total := 0, 0
	for i, w := range mask {
		n += bits.OnesCount64(w)
		total += bits.OnesCount64(all[i])
	}
	size := 8 * len(mask)
	var p packedMask
	switch {
	case 4*n < size:
		p.ids = listBits(make([]int32, 0, n), mask, nil)
	case 4*(total-n) < size:
		p.invert = true
		p.ids = listBits(make([]int32, 0, total-n), all, mask)
	default:
		p.bits = append([]uint64(nil), mask...)
	}
	size = 4*len(p.ids) + 8*len(p.bits) + 64
	if c.bytes+size > maskBudget {
		c.clear()
	}
	c.m[id] = p
	c.bytes += size
}

// listBits appends the ids set in a and not in b (b may be nil).
func listBits(dst []int32, a, b []uint64) []int32 {
	for i, w := range a {
		if b != nil {
			w &^= b[i]
		}
		for ; w != 0; w &= w - 1 {
			dst = append(dst, int32(i*64+bits.TrailingZeros64(w)))
		}
	}
	return dst
}
