package rpcguard

// bitstack is a stack of booleans; the first 256 need no allocation.
type bitstack struct {
	inline [4]uint64
	more   []uint64
	n      int
}

func (b *bitstack) push(v bool) {
	w, bit := b.n/64, uint(b.n%64)
	if w >= len(b.inline)+len(b.more) {
		b.more = append(b.more, 0)
	}
	word := b.word(w)
	if v {
		*word |= 1 << bit
	} else {
		*word &^= 1 << bit
	}
	b.n++
}

func (b *bitstack) pop() { b.n-- }

func (b *bitstack) top() bool {
	n := b.n - 1
	return *b.word(n / 64)&(1<<uint(n%64)) != 0
}

func (b *bitstack) word(w int) *uint64 {
	if w < len(b.inline) {
		return &b.inline[w]
	}
	return &b.more[w-len(b.inline)]
}
