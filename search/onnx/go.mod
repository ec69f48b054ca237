module github.com/edgar13f/edgar13f/search/onnx

go 1.26.0

require (
	github.com/edgar13f/edgar13f v0.0.0
	github.com/yalue/onnxruntime_go v1.27.0
	golang.org/x/text v0.43.0
)

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/tiktoken-go/tokenizer v0.10.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)

replace github.com/edgar13f/edgar13f => ../..
