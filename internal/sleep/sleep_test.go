package sleep

import (
	"context"
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"short wait", live, time.Millisecond, nil},
		{"no wait", live, 0, nil},
		{"negative", live, -time.Second, nil},
		{"ended, no wait", done, 0, context.Canceled},
		// An ended context wins over a wait that would last the test out.
		{"ended, long wait", done, time.Hour, context.Canceled},
	}
	for _, tc := range tests {
		if got := For(tc.ctx, tc.d); got != tc.want {
			t.Errorf("%s: For(%v) = %v, want %v", tc.name, tc.d, got, tc.want)
		}
	}
}

func TestForEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- For(ctx, time.Hour) }()
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Errorf("For = %v after cancel, want %v", err, context.Canceled)
	}
}
