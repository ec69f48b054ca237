package infotable

import "encoding/binary"

// strCache shares one copy of each recent string among the rows of a
// table: issuers, classes and CUSIPs repeat, and a table of 50,000 rows
// would otherwise hold 50,000 copies of "COM". It is a direct-mapped cache
// of 1<<bits slots; a string evicts the one in its slot. The zero
// strCache shares nothing.
type strCache struct {
	slots []string
	bits  uint // log2(len(slots))
}

// maxInterned is the longest string a strCache shares between rows.
const maxInterned = 128

// maxCacheBits bounds the size of a strCache.
const maxCacheBits = 16

// newStrCache returns a cache sized for a table of about rows rows.
func newStrCache(rows int) strCache {
	bits := uint(8)
	for bits < maxCacheBits && 1<<bits < 2*rows {
		bits++
	}
	return strCache{slots: make([]string, 1<<bits), bits: bits}
}

// str returns s as a string, sharing one copy among the rows of the table
// when the cache has it.
func (c *strCache) str(s []byte) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > maxInterned || c.slots == nil {
		return string(s)
	}
	slot := &c.slots[strHash(s, c.bits)]
	if *slot != string(s) {
		*slot = string(s)
	}
	return *slot
}

// intern returns the shared copy of s when the cache has it.
func (c *strCache) intern(s string) string {
	if len(s) > maxInterned || c.slots == nil {
		return s
	}
	slot := &c.slots[strHash([]byte(s), c.bits)]
	if *slot != s {
		*slot = s
	}
	return *slot
}

// strHash is a quick hash of s for a string cache of 1<<bits entries.
func strHash(s []byte, bits uint) uint32 {
	h := uint64(len(s)) * 0x9E3779B97F4A7C15
	for len(s) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(s)) * 0x9E3779B97F4A7C15
		s = s[8:]
	}
	var t uint64
	for _, c := range s {
		t = t<<8 | uint64(c)
	}
	h = (h ^ t) * 0x9E3779B97F4A7C15
	return uint32(h >> (64 - bits))
}
