//go:build amd64 && !purego

package embedded

import "golang.org/x/sys/cpu"

// kernel is the fastest kernel of dots this machine runs.
var kernel = func() int {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI:
		return kernelVNNI
	case cpu.X86.HasAVX2:
		return kernelAVX2
	}
	return kernelGo
}()

// dotsVNNI is dotsGo with AVX-512 VNNI: 64 products a step (VPDPBUSD),
// the last step of a vector masked.
//
//go:noescape
func dotsVNNI(b []int8, codes []byte, out []int32)

// dotsAVX2 is dotsGo with AVX2, b widened to 16 bits: 16 products a step
// (VPMOVZXBW, VPMADDWD), the last dim mod 16 one by one.
//
//go:noescape
func dotsAVX2(b16 []int16, codes []byte, out []int32)

// kernels returns the kernels of dots this machine runs.
func kernels() []int {
	out := []int{kernelGo}
	if cpu.X86.HasAVX2 {
		out = append(out, kernelAVX2)
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI {
		out = append(out, kernelVNNI)
	}
	return out
}
