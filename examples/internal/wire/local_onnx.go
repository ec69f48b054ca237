//go:build onnx

package wire

import (
	"github.com/edgar13f/edgar13f/search"
	"github.com/edgar13f/edgar13f/search/onnx"
)

// With the onnx build tag, a local:MODEL setting runs the model through
// search/onnx. The embedder lives as long as the process.
func init() {
	newLocal = func(model string) (search.Embedder, error) {
		e, err := onnx.New(model)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return e, nil
	}
}
