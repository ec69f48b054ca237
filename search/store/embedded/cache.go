package embedded

import (
	"container/list"
	"sync"
)

// A cache keeps recently used shards open, at most max of them when no
// query holds more: each open shard costs a file descriptor and mappings.
// The least recently used one that no query holds is closed first. The
// data files a query scans are checked against their sums the first time
// this process opens the shard (the texts when they are read: see
// handle.details).
type cache struct {
	mu       sync.Mutex
	max      int
	lru      *list.List // of *cacheEntry, most recently used first
	byDir    map[string]*cacheEntry
	verified map[string]bool // shard directories whose sums were checked
	dropped  map[string]int  // how many times each directory was dropped
	opens    int             // shards opened so far (for tests and benchmarks)
	most     int             // the most shards open at once (for tests)
}

type cacheEntry struct {
	h    *handle
	refs int
	elem *list.Element
}

func newCache(max int) *cache {
	return &cache{max: max, lru: list.New(), byDir: map[string]*cacheEntry{}, verified: map[string]bool{}, dropped: map[string]int{}}
}

// prepare tells one who is about to open sh outside the lock whether its
// data must be checked first, and the count of drops of its directory,
// for adopt.
func (c *cache) prepare(sh *shard) (verify bool, drops int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.verified[sh.dir], c.dropped[sh.dir]
}

// adopt takes a shard opened (and checked, if prepare said so) outside
// the lock and returns it acquired, or the handle another query opened
// meanwhile (closing h). If the directory was dropped since prepare (the
// shard was replaced or set aside), it closes h and returns errVanished:
// the query runs again on a newer view.
func (c *cache) adopt(sh *shard, h *handle, drops int) (*handle, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped[sh.dir] != drops {
		h.close()
		return nil, errVanished
	}
	c.verified[sh.dir] = true
	if e, ok := c.byDir[sh.dir]; ok && e.h.sh == sh {
		h.close()
		e.refs++
		c.lru.MoveToFront(e.elem)
		return e.h, nil
	} else if ok {
		// Another load of the same directory: keep one.
		c.removeLocked(e)
	}
	c.opens++
	e := &cacheEntry{h: h, refs: 1}
	e.elem = c.lru.PushFront(e)
	c.byDir[sh.dir] = e
	c.trimLocked()
	c.most = max(c.most, c.lru.Len())
	return h, nil
}

// acquireOpen acquires, under one lock, those of shards that are open:
// hs[i] is shards[i]'s handle, or nil when it is not open. The caller
// releases what it got.
func (c *cache) acquireOpen(shards []*shard, hs []*handle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, sh := range shards {
		if e, ok := c.byDir[sh.dir]; ok && e.h.sh == sh {
			e.refs++
			c.lru.MoveToFront(e.elem)
			hs[i] = e.h
		}
	}
}

// releaseAll gives back shards acquired before, under one lock.
func (c *cache) releaseAll(hs []*handle) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range hs {
		c.releaseLocked(h)
	}
	c.trimLocked()
}

// markVerified records that the shard in dir needs no check (this process
// wrote it).
func (c *cache) markVerified(dir string) {
	c.mu.Lock()
	c.verified[dir] = true
	c.mu.Unlock()
}

// releaseLocked gives back a shard acquired before; the caller trims.
func (c *cache) releaseLocked(h *handle) {
	e, ok := c.byDir[h.sh.dir]
	if !ok || e.h != h {
		// Dropped while held: find it among the dropped by its handle.
		h.refsDropped--
		if h.refsDropped == 0 {
			h.close()
		}
		return
	}
	e.refs--
}

// drop closes the shard in dir (when no one holds it) and forgets it.
func (c *cache) drop(dir string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byDir[dir]; ok {
		c.removeLocked(e)
	}
	delete(c.verified, dir)
	c.dropped[dir]++
}

// removeLocked takes e out of the cache, closing it now or when its last
// holder releases it.
func (c *cache) removeLocked(e *cacheEntry) {
	c.lru.Remove(e.elem)
	delete(c.byDir, e.h.sh.dir)
	if e.refs == 0 {
		e.h.close()
		return
	}
	e.h.refsDropped = e.refs
}

// trimLocked closes the least recently used shards no one holds until at
// most max are open.
func (c *cache) trimLocked() {
	for el := c.lru.Back(); el != nil && c.lru.Len() > c.max; {
		prev := el.Prev()
		if e := el.Value.(*cacheEntry); e.refs == 0 {
			c.removeLocked(e)
		}
		el = prev
	}
}

// open returns the number of shards open now.
func (c *cache) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// close closes every shard; the store is closed, so no one holds any.
func (c *cache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.byDir {
		c.removeLocked(e)
	}
}
