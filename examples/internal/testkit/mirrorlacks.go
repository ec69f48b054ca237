package testkit

import (
	"strings"
	"sync"
)

// A LacksCompany is a question of a company's 13F filings, as of AsOf,
// put to a program reading the mirror tree, and declined unknown_cik:
// either because the tree has no file of the company (Lacks names the
// file looked for) or because the company filed nothing by then (Lacks
// ""). Either way the answer is the one EDGAR gives, with Message.
type LacksCompany struct {
	CIK, AsOf string
	Message   string // the decline's message, EDGAR's
	Lacks     string // the file the tree lacks; "" for a company it has
}

// MirrorLacksCompany are the questions the MCP server's and the HTTP API's
// tests of a company missing from the mirror tree ask: one the tree lacks,
// logged, and one it has, declined for want of a filing and not logged.
var MirrorLacksCompany = []LacksCompany{
	{CIK: "789019", AsOf: "2025-03-01", Message: "EDGAR has no filer with CIK 789019", Lacks: "data.sec.gov/submissions/CIK0000789019.json"},
	{CIK: "1067983", AsOf: "1990-03-01", Message: "CIK 1067983 filed no 13F on or before 1990-03-01"},
}

// Logged is what program says on standard error when its answer (a tool
// or an endpoint) is declined for c, reading the mirror tree at dir: that
// the tree lacks the company and which file it looked for; "" when the
// tree has the company.
func (c LacksCompany) Logged(program, answer, dir string) string {
	if c.Lacks == "" {
		return ""
	}
	return program + ": " + answer + " declined unknown_cik: the mirror tree " + dir + " lacks this company: it has no file " + c.Lacks
}

// A SyncBuffer is a strings.Builder safe for a server's goroutines, for
// its standard error.
type SyncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
