package bulkstore

import (
	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/format"
)

// snappyCodec writes standard Snappy blocks with the fast encoder of
// klauspost/compress/s2 (parquet-go's own Snappy codec uses the slower
// "better" encoder). Any Snappy reader decodes them.
type snappyCodec struct{}

func (snappyCodec) String() string { return "SNAPPY" }

func (snappyCodec) CompressionCodec() format.CompressionCodec { return format.Snappy }

func (snappyCodec) Encode(dst, src []byte) ([]byte, error) {
	n := s2.MaxEncodedLen(len(src))
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.EncodeSnappy(dst[:n], src), nil
}

func (snappyCodec) Decode(dst, src []byte) ([]byte, error) {
	n, err := s2.DecodedLen(src)
	if err != nil {
		return nil, err
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.Decode(dst[:n], src)
}
