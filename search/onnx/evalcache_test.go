package onnx_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/edgar13f/edgar13f/search/onnx"
)

// textEmbedder is what the evaluation needs of an embedder: passages and
// queries (with the model's query prefix) apart.
type textEmbedder interface {
	Model() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	EmbedQuery(ctx context.Context, texts []string) ([][]float32, error)
}

// cachedEmbedder remembers the vectors its embedder made, in a file, so
// that the evaluation embeds the corpus once per model and not on every
// run (a chunk takes about a second with bge-small-en-v1.5 on two
// cores). An entry is the sha256 of the model's name, the kind (passage
// or query) and the text, then the vector; the file is only appended to,
// so an interrupted run keeps what it embedded. A vector read back is
// exactly the one the embedder made.
type cachedEmbedder struct {
	e    textEmbedder
	dim  int
	mu   sync.Mutex
	f    *os.File
	seen map[[32]byte][]float32
	hits int // texts answered from the file
	made int // texts embedded
}

// newCachedEmbedder opens (or creates) the cache file of e's model in dir.
func newCachedEmbedder(e textEmbedder, dim int, dir string) (*cachedEmbedder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%d.vectors", e.Model(), dim))
	if b, ok := e.(interface{ Backend() onnx.Backend }); ok && b.Backend() != onnx.CPU {
		// Another backend's vectors are its own.
		name = filepath.Join(dir, fmt.Sprintf("%s-%s-%d.vectors", e.Model(), b.Backend(), dim))
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	c := &cachedEmbedder{e: e, dim: dim, f: f, seen: map[[32]byte][]float32{}}
	r := bufio.NewReader(f)
	rec := make([]byte, 32+4*dim)
	var good int64
	for {
		if _, err := io.ReadFull(r, rec); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break // a torn last entry is dropped
			}
			f.Close()
			return nil, err
		}
		var k [32]byte
		copy(k[:], rec)
		v := make([]float32, dim)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(rec[32+4*i:]))
		}
		c.seen[k] = v
		good += int64(len(rec))
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

func (c *cachedEmbedder) Model() string { return c.e.Model() }

func (c *cachedEmbedder) Close() error { return c.f.Close() }

func (c *cachedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return c.embed(ctx, texts, "passage", c.e.Embed)
}

func (c *cachedEmbedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	return c.embed(ctx, texts, "query", c.e.EmbedQuery)
}

func (c *cachedEmbedder) key(kind, text string) [32]byte {
	return sha256.Sum256([]byte(c.e.Model() + "\x00" + kind + "\x00" + text))
}

func (c *cachedEmbedder) embed(ctx context.Context, texts []string, kind string, f func(context.Context, []string) ([][]float32, error)) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]float32, len(texts))
	var miss []string
	var at []int
	for i, t := range texts {
		if v, ok := c.seen[c.key(kind, t)]; ok {
			out[i] = v
			c.hits++
			continue
		}
		miss, at = append(miss, t), append(at, i)
	}
	if len(miss) == 0 {
		return out, nil
	}
	vs, err := f(ctx, miss)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(miss) {
		return nil, fmt.Errorf("embedder %s: %d vectors for %d texts", c.e.Model(), len(vs), len(miss))
	}
	rec := make([]byte, 0, len(miss)*(32+4*c.dim))
	for j, v := range vs {
		if len(v) != c.dim {
			return nil, fmt.Errorf("embedder %s: dimension %d, want %d", c.e.Model(), len(v), c.dim)
		}
		k := c.key(kind, miss[j])
		rec = append(rec, k[:]...)
		for _, x := range v {
			rec = binary.LittleEndian.AppendUint32(rec, math.Float32bits(x))
		}
		c.seen[k] = v
		out[at[j]] = v
		c.made++
	}
	if _, err := c.f.Write(rec); err != nil {
		return nil, err
	}
	return out, nil
}
