package frames

import (
	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/access"
	"github.com/edgar13f/edgar13f/internal/clientparts"
)

// accessOf returns the access layer of c: the one fetcher, User-Agent,
// request spacing, retries and cache directory of the Client. It is the
// one place this package takes anything from package edgar13f beyond its
// API.
func accessOf(c *edgar13f.Client) *access.Layer {
	var p clientparts.Parts
	c.Parts(&p)
	return p.Access
}
