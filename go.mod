module github.com/edgar13f/edgar13f

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.16.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
