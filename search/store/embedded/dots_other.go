//go:build !amd64 || purego

package embedded

// kernel is dotsGo on machines without an assembly kernel.
var kernel = kernelGo

func dotsVNNI(b []int8, codes []byte, out []int32) { dotsGo(b, codes, out) }

func dotsAVX2(b16 []int16, codes []byte, out []int32) {
	b := make([]int8, len(b16))
	for i, x := range b16 {
		b[i] = int8(x)
	}
	dotsGo(b, codes, out)
}

// kernels returns the kernels of dots this machine runs.
func kernels() []int { return []int{kernelGo} }
