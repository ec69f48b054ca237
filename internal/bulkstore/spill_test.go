package bulkstore

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys: the radix sort of bucket keys gives compareKeys order, for
// filing-order keys and for CUSIP keys of every length (those longer than
// 16 bytes taking the comparison sort), with CUSIPs that share prefixes.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := rng.IntN(3000)
		withCUSIP := round%2 == 1
		var data []byte
		keys := make([]sortKey, 0, n)
		for i := 0; i < n; i++ {
			ord, rowNo := uint64(rng.IntN(40)), uint64(i) // unique pos
			if rng.IntN(4) == 0 {
				ord = uint64(rng.Uint32())
			}
			var rec []byte
			rec = binary.AppendUvarint(rec, ord)
			rec = binary.AppendUvarint(rec, rowNo)
			rec = binary.AppendUvarint(rec, 0)
			rec = appendStr(rec, []byte("ISSUER"))
			rec = appendStr(rec, []byte("COM"))
			cusip := []byte("0378331"[:rng.IntN(8)])
			for len(cusip) < rng.IntN(4)+6 {
				cusip = append(cusip, "09AZaz"[rng.IntN(6)])
			}
			if round%10 == 9 && rng.IntN(10) == 0 {
				// Longer than 16 bytes, equal in the first 16.
				cusip = append([]byte("037833100LONGKEY"), "09AZaz"[rng.IntN(6)], "09"[rng.IntN(2)])
			}
			rec = appendStr(rec, cusip)
			off := len(data)
			data = append(data, rec...)
			if withCUSIP {
				got, err := keysOf(nil, append(binary.AppendUvarint(nil, uint64(len(rec))), rec...), true)
				if err != nil || len(got) != 1 {
					t.Fatal(err)
				}
				k := got[0]
				k.off, k.n = uint32(off), uint32(len(rec))
				keys = append(keys, k)
			} else {
				keys = append(keys, sortKey{pos: ord<<32 | rowNo, off: uint32(off), n: uint32(len(rec))})
			}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, func(x, y sortKey) int { return compareKeys(&x, &y, data) })
		rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		got, _ := sortKeys(keys, nil, data, withCUSIP)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (%d keys, CUSIP %v): radix order differs from compareKeys", round, n, withCUSIP)
		}
	}
}

// TestRouterBucket: a prefix goes to the bucket after the last bound at or
// below it, as a linear count says, bounds repeated or not.
func TestRouterBucket(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 100; round++ {
		r := &cusipRouter{bounds: make([]int64, cusipBuckets-1)}
		for i := range r.bounds {
			r.bounds[i] = int64(rng.IntN(50))
		}
		slices.Sort(r.bounds)
		for v := int64(-1); v <= 51; v++ {
			want := 0
			for _, b := range r.bounds {
				if b <= v {
					want++
				}
			}
			if got := r.bucket(v); got != want {
				t.Fatalf("bounds %v: prefix %d goes to bucket %d, want %d", r.bounds, v, got, want)
			}
		}
	}
}
