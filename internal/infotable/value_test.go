package infotable

import (
	"math"
	"testing"
	"time"

	"github.com/edgar13f/edgar13f/internal/civil"
)

func TestValueUSD(t *testing.T) {
	before, on := civil.DayOf(2023, time.January, 2), civil.DayOf(2023, time.January, 3)
	for _, c := range []struct {
		value int64
		filed civil.Day
		want  int64
	}{
		{5, before, 5000}, {5, on, 5}, {0, before, 0},
		{math.MaxInt64 / 1000, before, math.MaxInt64 / 1000 * 1000},
		{math.MaxInt64/1000 + 1, before, math.MaxInt64}, // saturates
		{math.MaxInt64, on, math.MaxInt64},
	} {
		if got := ValueUSD(c.value, c.filed); got != c.want {
			t.Errorf("ValueUSD(%d, %s) = %d; want %d", c.value, c.filed, got, c.want)
		}
	}
}
