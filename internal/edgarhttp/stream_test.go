package edgarhttp

import (
	"context"
	"errors"
	"io"
	"testing"
)

// failingSink fails every write, like a full disk.
type failingSink struct{ memSink }

var errDiskFull = errors.New("no space left on device")

func (s *failingSink) Write([]byte) (int, error) { return 0, errDiskFull }

func TestGetToSinkFailureNotRetried(t *testing.T) {
	srv := newServer(t, ok(zipBytes, "application/zip"))
	c, sleeps := testClient(t, Config{})
	_, err := c.GetTo(context.Background(), srv.URL+zipPath, &failingSink{})
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("GetTo error = %v, want the sink's error", err)
	}
	if n := len(srv.Hits()); n != 1 || len(*sleeps) != 0 {
		t.Errorf("a failing sink was retried: %d requests, sleeps %v", n, *sleeps)
	}
}

func TestGetToResetsBetweenAttempts(t *testing.T) {
	srv := newServer(t, cut(zipBytes), cut(zipBytes), ok(zipBytes, "application/zip"))
	c, _ := testClient(t, Config{})
	sink := &memSink{}
	n, err := c.GetTo(context.Background(), srv.URL+zipPath, sink)
	if err != nil {
		t.Fatal(err)
	}
	// One Reset per attempt that got a body: the cut halves were thrown away.
	if sink.resets != 3 || n != int64(len(zipBytes)) || sink.Len() != len(zipBytes) {
		t.Errorf("resets %d, returned %d, holds %d bytes; want 3 resets and %d bytes", sink.resets, n, sink.Len(), len(zipBytes))
	}
}

func TestGetToNilSink(t *testing.T) {
	c, _ := testClient(t, Config{})
	if _, err := c.GetTo(context.Background(), "http://127.0.0.1:1/x.zip", nil); err == nil {
		t.Fatal("GetTo with a nil sink succeeded")
	}
}

// TestGetToMemory streams a body far larger than the buffer GetTo reads
// through into a sink that keeps nothing, and checks that no read asks for
// more than that buffer: the body is never held whole.
func TestGetToMemory(t *testing.T) {
	const size = 8 << 20
	srv := newServer(t, ok(make([]byte, size), "application/zip"))
	c, _ := testClient(t, Config{})
	sink := &discardSink{}
	n, err := c.GetTo(context.Background(), srv.URL+zipPath, sink)
	if err != nil {
		t.Fatal(err)
	}
	if n != size || sink.max > streamChunk {
		t.Errorf("wrote %d bytes (want %d), largest write %d (want <= %d)", n, size, sink.max, streamChunk)
	}
}

// discardSink keeps nothing and notes the largest write.
type discardSink struct{ max int }

func (s *discardSink) Write(p []byte) (int, error) {
	s.max = max(s.max, len(p))
	return io.Discard.Write(p)
}

func (s *discardSink) Reset() error { return nil }
