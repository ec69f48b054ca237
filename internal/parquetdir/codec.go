package parquetdir

import (
	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/format"
)

// SnappyCodec writes standard Snappy blocks with the fast encoder of
// klauspost/compress/s2 (parquet-go's own Snappy codec uses the slower
// "better" encoder). Any Snappy reader decodes them.
type SnappyCodec struct{}

// String names the codec.
func (SnappyCodec) String() string { return "SNAPPY" }

// CompressionCodec is the codec's identifier in a Parquet file.
func (SnappyCodec) CompressionCodec() format.CompressionCodec { return format.Snappy }

// Encode compresses src into dst (reused when large enough).
func (SnappyCodec) Encode(dst, src []byte) ([]byte, error) {
	n := s2.MaxEncodedLen(len(src))
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.EncodeSnappy(dst[:n], src), nil
}

// Decode decompresses src into dst (reused when large enough).
func (SnappyCodec) Decode(dst, src []byte) ([]byte, error) {
	n, err := s2.DecodedLen(src)
	if err != nil {
		return nil, err
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.Decode(dst[:n], src)
}
