package datasetzip

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// LandingPageURL is the SEC page that lists every Data Sets zip.
const LandingPageURL = "https://www.sec.gov/data-research/sec-markets-data/form-13f-data-sets"

// A Link is one window zip listed on the landing page.
type Link struct {
	Window Window
	URL    string // absolute https URL of the zip, as the page links it
}

// ParseLandingPage reads the landing page (HTML) and returns every link
// whose path ends in "_form13f.zip", resolved against pageURL and sorted by
// window. The SEC has published the files under more than one folder
// (/files/structureddata/data/form-13f-data-sets/ and
// /files/datastandardsinnovation/data/form-13f-data-sets/), so the URL is
// taken from the page, never built. A link whose file name is not a known
// window is an error; a window linked twice keeps its first link. A page
// without any such link is an error.
func ParseLandingPage(page []byte, pageURL string) ([]Link, error) {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, fmt.Errorf("datasets: landing page URL: %w", err)
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	seen := map[string]bool{}
	var links []Link
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if string(name) != "a" || !hasAttr {
			continue
		}
		for {
			key, val, more := z.TagAttr()
			if string(key) == "href" {
				if l, ok, err := landingLink(base, string(val)); err != nil {
					return nil, err
				} else if ok && !seen[l.Window.Name] {
					seen[l.Window.Name] = true
					links = append(links, l)
				}
			}
			if !more {
				break
			}
		}
	}
	if len(links) == 0 {
		return nil, fmt.Errorf("datasets: the landing page links no _form13f.zip file")
	}
	sort.Slice(links, func(i, j int) bool { return links[i].Window.From < links[j].Window.From })
	return links, nil
}

// landingLink resolves one href; ok is false for links to anything other
// than a window zip.
func landingLink(base *url.URL, href string) (Link, bool, error) {
	href = strings.TrimSpace(href)
	u, err := url.Parse(href)
	if err != nil {
		return Link{}, false, nil
	}
	u = base.ResolveReference(u)
	name := path.Base(u.Path)
	if !strings.HasSuffix(strings.ToLower(name), "_form13f.zip") {
		return Link{}, false, nil
	}
	w, err := ParseWindow(name)
	if err != nil {
		return Link{}, false, err
	}
	u.Fragment, u.RawQuery = "", ""
	return Link{Window: w, URL: u.String()}, true, nil
}
