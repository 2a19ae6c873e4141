package complete

import (
	"container/list"
	"sync"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// cacheKey identifies one lookup of one identity. The identity is the
// forge client itself: one per token on stdio and, over HTTP, one per
// caller's token (the HTTP identity cache hands each token its own client),
// so two callers never share an entry. Holding the pointer keeps the
// client alive while the entry lives, so it cannot be reused for another.
type cacheKey struct {
	client *forgejo.Client
	lookup string
}

type cacheEntry struct {
	key     cacheKey
	values  []string
	expires time.Time
}

// cache is a small LRU of lookup results with a time to live.
type cache struct {
	mu    sync.Mutex
	max   int
	ttl   time.Duration
	now   func() time.Time
	order *list.List // front: most recently used
	items map[cacheKey]*list.Element
}

func newCache(max int, ttl time.Duration) *cache {
	return &cache{max: max, ttl: ttl, now: time.Now, order: list.New(), items: map[cacheKey]*list.Element{}}
}

func (c *cache) get(k cacheKey) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if c.now().After(e.expires) {
		c.order.Remove(el)
		delete(c.items, k)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e.values, true
}

func (c *cache) put(k cacheKey, values []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.order.Remove(el)
		delete(c.items, k)
	}
	c.items[k] = c.order.PushFront(&cacheEntry{key: k, values: values, expires: c.now().Add(c.ttl)})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
