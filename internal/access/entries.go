package access

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"time"
)

// This file holds the two encodings of cache entries the callers share:
// JSON values, and blobs stamped with the time they were fetched.

// CachedJSON decodes the entry under key into v; false when there is none
// or it does not decode.
func (l *Layer) CachedJSON(ctx context.Context, key string, v any) bool {
	b, ok := l.Cached(ctx, key)
	return ok && json.Unmarshal(b, v) == nil
}

// KeepJSON caches v as JSON under key.
func (l *Layer) KeepJSON(ctx context.Context, key string, v any) {
	if b, err := json.Marshal(v); err == nil {
		l.Keep(ctx, key, b)
	}
}

// Stamp returns a cache entry holding data and the time it was fetched.
func Stamp(fetched time.Time, data []byte) []byte {
	b := make([]byte, 8, 8+len(data))
	binary.BigEndian.PutUint64(b, uint64(fetched.UnixNano()))
	return append(b, data...)
}

// Unstamp splits an entry written by Stamp; false when it is too short.
func Unstamp(b []byte) (time.Time, []byte, bool) {
	if len(b) < 8 {
		return time.Time{}, nil, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(b))).UTC(), b[8:], true
}
