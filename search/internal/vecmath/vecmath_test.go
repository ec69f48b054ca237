package vecmath

import (
	"math"
	"testing"
)

func TestCosine(t *testing.T) {
	q := []float32{1, 2, 3, 4, 5}
	q64 := []float64{1, 2, 3, 4, 5}
	qn := Norm(q)
	if want := math.Sqrt(55); qn != want {
		t.Errorf("Norm = %v; want %v", qn, want)
	}
	for _, tc := range []struct {
		v    []float32
		want float64
	}{
		{[]float32{2, 4, 6, 8, 10}, 1},
		{[]float32{-1, -2, -3, -4, -5}, -1},
		{[]float32{2, -1, 0, 0, 0}, 0},
		{[]float32{0, 0, 0, 0, 0}, 0}, // no direction
	} {
		if got := Cosine(q64, qn, tc.v, Norm(tc.v)); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("Cosine(%v) = %v; want %v", tc.v, got, tc.want)
		}
	}
	// Five terms: four accumulators and the tail.
	if got := Dot(q64, []float32{1, 1, 1, 1, 1}); got != 15 {
		t.Errorf("Dot = %v; want 15", got)
	}
}
