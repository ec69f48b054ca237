// Package vecmath is the cosine similarity of the filing search's
// stores, computed the same way by each (the embedded store scores every
// chunk with it, the OpenSearch store rescores what the cluster returns),
// so that both give a chunk the same score to the last bit.
package vecmath

import "math"

// Dot returns the dot product of q and v, summed in float64 by four
// accumulators in a fixed order (so a chunk's score never depends on
// anything but the two vectors). q is at least as long as v.
func Dot(q []float64, v []float32) float64 {
	var s0, s1, s2, s3 float64
	n := len(v) &^ 3
	q = q[:len(v)]
	for j := 0; j < n; j += 4 {
		s0 += q[j] * float64(v[j])
		s1 += q[j+1] * float64(v[j+1])
		s2 += q[j+2] * float64(v[j+2])
		s3 += q[j+3] * float64(v[j+3])
	}
	for j := n; j < len(v); j++ {
		s0 += q[j] * float64(v[j])
	}
	return (s0 + s1) + (s2 + s3)
}

// Norm returns the Euclidean length of v.
func Norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// Cosine returns the cosine similarity of a query vector (q, in float64,
// of length qn) and v (of length vn), or 0 when either length is 0.
func Cosine(q []float64, qn float64, v []float32, vn float64) float64 {
	if qn > 0 && vn > 0 {
		return Dot(q, v) / (qn * vn)
	}
	return 0
}
