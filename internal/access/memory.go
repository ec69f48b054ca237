package access

import (
	"bytes"
	"context"
	"errors"
	"sync"
)

// memoryLimit bounds the bytes a memory cache holds.
const memoryLimit = 128 << 20

// errMemoryMiss is a miss of the memory cache.
var errMemoryMiss = errors.New("access: not in the memory cache")

// A memoryCache keeps entries in memory for one Layer, up to memoryLimit
// bytes; when full, the oldest entries go first. It serves a Layer over a
// Fetcher that names no source: entries on disk or in a shared cache could
// answer no other Layer, so they would only pile up.
type memoryCache struct {
	mu      sync.Mutex
	entries map[string][]byte
	order   []string // keys, oldest first
	size    int
}

// NewMemoryCache returns a Cache held in memory (at most 128 MiB; the
// oldest entries are dropped first), for a Layer whose Fetcher names no
// source. See [Named].
func NewMemoryCache() Cache { return &memoryCache{entries: map[string][]byte{}} }

func (m *memoryCache) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.entries[key]
	if !ok {
		return nil, errMemoryMiss
	}
	return bytes.Clone(b), nil
}

func (m *memoryCache) Put(_ context.Context, key string, data []byte) error {
	if len(data) > memoryLimit {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.entries[key]; ok {
		m.size -= len(old)
	} else {
		m.order = append(m.order, key)
	}
	m.entries[key] = bytes.Clone(data)
	m.size += len(data)
	for m.size > memoryLimit {
		k := m.order[0]
		m.order = m.order[1:]
		m.size -= len(m.entries[k])
		delete(m.entries, k)
	}
	return nil
}
