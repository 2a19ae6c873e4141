package complete

import (
	"container/list"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// cacheKey identifies one lookup of one identity: the whole list (prefix
// "") when it was short enough to keep, else the values matching one
// prefix. The identity is the forge client itself: one per token on stdio
// and, over HTTP, one per caller's token (the HTTP identity cache hands
// each token its own client), so two callers never share an entry.
// Holding the pointer keeps the client alive while the entry lives, so it
// cannot be reused for another.
type cacheKey struct {
	client *forgejo.Client
	lookup string
	prefix string
}

// entry is what a lookup answered.
type entry struct {
	values []string
	total  int  // of a prefix's entry: the values that matched
	more   bool // of a prefix's entry: more matched, or the list was cut
}

func (e entry) completion() *mcp.Completion {
	return &mcp.Completion{Values: append([]string{}, e.values...), Total: e.total, HasMore: e.more}
}

// cost is about what an entry holds in memory, key included.
func (k cacheKey) cost(e entry) int64 {
	n := int64(len(k.lookup)+len(k.prefix)) + 128
	for _, v := range e.values {
		n += int64(len(v)) + 16
	}
	return n
}

type cached struct {
	key     cacheKey
	entry   entry
	cost    int64
	expires time.Time
}

// cache is an LRU of lookup answers, bounded in bytes (cost), whose
// entries live for ttl and are dropped as soon as they expire: a timer
// runs while the cache holds anything, so nothing outlives its ttl by
// more than a moment whether or not the cache is used again.
type cache struct {
	mu       sync.Mutex
	maxBytes int64
	ttl      time.Duration
	now      func() time.Time
	bytes    int64
	order    *list.List // of *cached, front: most recently used
	items    map[cacheKey]*list.Element
	timer    *time.Timer // nil when empty
}

func newCache(maxBytes int64, ttl time.Duration) *cache {
	return &cache{maxBytes: maxBytes, ttl: ttl, now: time.Now, order: list.New(), items: map[cacheKey]*list.Element{}}
}

func (c *cache) get(k cacheKey) (entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return entry{}, false
	}
	e := el.Value.(*cached)
	if !c.now().Before(e.expires) {
		c.remove(el)
		return entry{}, false
	}
	c.order.MoveToFront(el)
	return e.entry, true
}

func (c *cache) put(k cacheKey, e entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		c.remove(el)
	}
	ce := &cached{key: k, entry: e, cost: k.cost(e), expires: c.now().Add(c.ttl)}
	if ce.cost > c.maxBytes {
		return
	}
	c.items[k] = c.order.PushFront(ce)
	c.bytes += ce.cost
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(c.ttl, c.sweep)
	}
}

// sweep drops the expired entries and runs again when the next expires.
func (c *cache) sweep() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	var next time.Time
	for el := c.order.Front(); el != nil; {
		e, following := el.Value.(*cached), el.Next()
		if !now.Before(e.expires) {
			c.remove(el)
		} else if next.IsZero() || e.expires.Before(next) {
			next = e.expires
		}
		el = following
	}
	if next.IsZero() {
		c.timer = nil
		return
	}
	c.timer = time.AfterFunc(next.Sub(now), c.sweep)
}

// remove drops el; c.mu is held.
func (c *cache) remove(el *list.Element) {
	e := el.Value.(*cached)
	c.order.Remove(el)
	delete(c.items, e.key)
	c.bytes -= e.cost
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
