//go:build !onnx

package wire

import (
	"strings"
	"testing"
)

// Built without the onnx tag, a local model is refused with a message
// that names the tag and the setup command, never run on something else.
func TestLocalModelNeedsOnnxTag(t *testing.T) {
	c := Config{EmbedModel: "local:bge-small-en-v1.5"}
	for name, f := range map[string]func() error{
		"Embedder": func() error { _, err := c.Embedder(); return err },
		"Check":    c.Check,
	} {
		err := f()
		if err == nil {
			t.Fatalf("%s: accepted a local model in a build without the local embedder", name)
		}
		for _, want := range []string{"-tags onnx", "search/onnx/setup.sh bge-small-en-v1.5", "EDGAR13F_EMBED_MODEL=local:bge-small-en-v1.5"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v; want it to name %q", name, err, want)
			}
		}
	}
}
