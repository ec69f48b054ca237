package wire

import (
	"fmt"
	"strings"
	"sync"

	"github.com/edgar13f/edgar13f/search"
)

// LocalPrefix marks an EDGAR13F_EMBED_MODEL run in-process by the local
// embedder (search/onnx), as in local:bge-small-en-v1.5, with
// EDGAR13F_EMBED_URL unset.
const LocalPrefix = "local:"

// OnnxTag is the build tag that links the local embedder into the
// programs (it needs cgo and ONNX Runtime), and OnnxSetup the command that
// installs the runtime and the weights.
const (
	OnnxTag   = "onnx"
	OnnxSetup = "search/onnx/setup.sh"
)

// newLocal makes the local embedder of a model; nil in programs built
// without the onnx tag (local_onnx.go sets it).
var newLocal func(model string) (search.Embedder, error)

// locals holds the local embedders made so far, one per model: a model is
// loaded once per process however often the settings are read.
var locals struct {
	sync.Mutex
	m map[string]search.Embedder
}

// localEmbedder returns the local embedder of a local:MODEL setting.
func (c Config) localEmbedder() (search.Embedder, error) {
	model := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c.EmbedModel), LocalPrefix))
	if strings.TrimSpace(c.EmbedURL) != "" {
		return nil, fmt.Errorf("the filing search's embedder: EDGAR13F_EMBED_MODEL=%s%s runs in-process; unset EDGAR13F_EMBED_URL (%s), which names an embedding server", LocalPrefix, model, c.EmbedURL)
	}
	if model == "" {
		return nil, fmt.Errorf("the filing search's embedder: EDGAR13F_EMBED_MODEL=%s names no model (for example %sbge-small-en-v1.5)", LocalPrefix, LocalPrefix)
	}
	if newLocal == nil {
		return nil, fmt.Errorf("the filing search's embedder: EDGAR13F_EMBED_MODEL=%s%s needs the local embedder, which these programs were built without: "+
			"build them with the build tag %s (go -C examples install -tags %s ./..., with cgo) and install the runtime and the model with %s %s",
			LocalPrefix, model, OnnxTag, OnnxTag, OnnxSetup, model)
	}
	locals.Lock()
	defer locals.Unlock()
	if e, ok := locals.m[model]; ok {
		return e, nil
	}
	e, err := newLocal(model)
	if err != nil {
		return nil, fmt.Errorf("the filing search's embedder (EDGAR13F_EMBED_MODEL=%s%s): %w", LocalPrefix, model, err)
	}
	if locals.m == nil {
		locals.m = map[string]search.Embedder{}
	}
	locals.m[model] = e
	return e, nil
}
