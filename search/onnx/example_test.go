package onnx_test

import (
	"context"
	"fmt"
	"log"

	"github.com/edgar13f/edgar13f/search/onnx"
)

// This example embeds a query and two passages with bge-small-en-v1.5
// (installed by search/onnx/setup.sh) and compares them: the query, with
// the model's query prefix, is nearer the passage that answers it.
func ExampleEmbedder() {
	ctx := context.Background()
	e, err := onnx.New("bge-small-en-v1.5")
	if err != nil {
		log.Fatal(err) // names search/onnx/setup.sh when a file is missing
	}
	defer e.Close()
	passages, err := e.Embed(ctx, []string{
		"We depend on a small number of customers for a large share of our revenue.",
		"Our headquarters are located in Santa Clara, California.",
	})
	if err != nil {
		log.Fatal(err)
	}
	query, err := e.EmbedQuery(ctx, []string{"how dependent is it on a few big buyers"})
	if err != nil {
		log.Fatal(err)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	fmt.Println(e.Model(), len(query[0]), "dimensions")
	fmt.Println("nearer the customer passage:", dot(query[0], passages[0]) > dot(query[0], passages[1]))
	// Output:
	// bge-small-en-v1.5 384 dimensions
	// nearer the customer passage: true
}
