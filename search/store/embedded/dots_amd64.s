//go:build amd64 && !purego

#include "textflag.h"

// func dotsVNNI(b []int8, codes []byte, out []int32)
TEXT ·dotsVNNI(SB), NOSPLIT, $0-72
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R11     // dim
	MOVQ codes_base+24(FP), DI
	MOVQ out_base+48(FP), DX
	MOVQ out_len+56(FP), BX   // vectors left
	MOVQ R11, R8
	ANDQ $63, R8              // bytes in the last, partial step
	MOVQ R11, R9
	SUBQ R8, R9               // bytes in whole steps
	MOVQ R8, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVQ AX, K1              // the partial step's bytes

vnniVector:
	TESTQ BX, BX
	JZ    vnniDone
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	XORQ  R10, R10
	MOVQ  R9, R12
	ANDQ  $~127, R12          // bytes in pairs of whole steps

vnniPair:
	CMPQ R10, R12
	JAE  vnniStep
	VMOVDQU8 (DI)(R10*1), Z2
	VMOVDQU8 64(DI)(R10*1), Z3
	VPDPBUSD (SI)(R10*1), Z2, Z0
	VPDPBUSD 64(SI)(R10*1), Z3, Z1
	ADDQ $128, R10
	JMP  vnniPair

vnniStep:
	CMPQ R10, R9
	JAE  vnniTail
	VMOVDQU8 (DI)(R10*1), Z2
	VPDPBUSD (SI)(R10*1), Z2, Z0
	ADDQ $64, R10

vnniTail:
	TESTQ R8, R8
	JZ    vnniSum
	VMOVDQU8.Z (DI)(R10*1), K1, Z2
	VMOVDQU8.Z (SI)(R10*1), K1, Z3
	VPDPBUSD Z3, Z2, Z1

vnniSum:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, (DX)
	ADDQ R11, DI
	ADDQ $4, DX
	DECQ BX
	JMP  vnniVector

vnniDone:
	VZEROUPPER
	RET

// func dotsAVX2(b16 []int16, codes []byte, out []int32)
TEXT ·dotsAVX2(SB), NOSPLIT, $0-72
	MOVQ b16_base+0(FP), SI
	MOVQ b16_len+8(FP), R11   // dim
	MOVQ codes_base+24(FP), DI
	MOVQ out_base+48(FP), DX
	MOVQ out_len+56(FP), BX   // vectors left
	MOVQ R11, R9
	ANDQ $~15, R9             // bytes in whole steps

avx2Vector:
	TESTQ BX, BX
	JZ    avx2Done
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	XORQ  R10, R10
	MOVQ  R11, R12
	ANDQ  $~31, R12           // bytes in pairs of whole steps

avx2Pair:
	CMPQ R10, R12
	JAE  avx2Step
	VPMOVZXBW (DI)(R10*1), Y2
	VPMOVZXBW 16(DI)(R10*1), Y3
	VPMADDWD (SI)(R10*2), Y2, Y2
	VPMADDWD 32(SI)(R10*2), Y3, Y3
	VPADDD Y2, Y0, Y0
	VPADDD Y3, Y1, Y1
	ADDQ $32, R10
	JMP  avx2Pair

avx2Step:
	CMPQ R10, R9
	JAE  avx2Tail
	VPMOVZXBW (DI)(R10*1), Y2
	VPMADDWD (SI)(R10*2), Y2, Y2
	VPADDD Y2, Y0, Y0
	ADDQ $16, R10

avx2Tail:
	XORL R13, R13

avx2TailLoop:
	CMPQ R10, R11
	JAE  avx2Sum
	MOVBLZX (DI)(R10*1), AX
	MOVWLSX (SI)(R10*2), CX
	IMULL CX, AX
	ADDL AX, R13
	INCQ R10
	JMP  avx2TailLoop

avx2Sum:
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	ADDL R13, AX
	MOVL AX, (DX)
	ADDQ R11, DI
	ADDQ $4, DX
	DECQ BX
	JMP  avx2Vector

avx2Done:
	VZEROUPPER
	RET
