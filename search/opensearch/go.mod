module github.com/edgar13f/edgar13f/search/opensearch

go 1.26.0

require (
	github.com/blevesearch/go-porterstemmer v1.0.3
	github.com/edgar13f/edgar13f v0.0.0
	github.com/google/go-cmp v0.7.0
	github.com/opensearch-project/opensearch-go/v4 v4.8.1
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.16.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)

replace github.com/edgar13f/edgar13f => ../..
