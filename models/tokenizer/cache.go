package tokenizer

import (
	"strings"
	"sync"
)

const (
	// cacheMaxWord is the longest word kept in the cache, in bytes.
	cacheMaxWord = 256
	// cacheMaxEntries bounds the cache; it is emptied when full.
	cacheMaxEntries = 1 << 17
)

// wordCache remembers the ids of words already merged. It is safe for
// concurrent use, since one Tokenizer serves many requests.
type wordCache struct {
	mu sync.RWMutex
	m  map[string][]int32
}

func (c *wordCache) init() { c.m = make(map[string][]int32) }

func (c *wordCache) get(word string) ([]int32, bool) {
	if len(word) > cacheMaxWord {
		return nil, false
	}
	c.mu.RLock()
	ids, ok := c.m[word]
	c.mu.RUnlock()
	return ids, ok
}

func (c *wordCache) put(word string, ids []int32) {
	if len(word) > cacheMaxWord {
		return
	}
	// The word is usually a slice of a much longer input: clone it so that
	// the cache does not keep that input alive.
	key := strings.Clone(word)
	val := append([]int32(nil), ids...)
	c.mu.Lock()
	if len(c.m) >= cacheMaxEntries {
		clear(c.m)
	}
	c.m[key] = val
	c.mu.Unlock()
}
