package companies

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/internal/docerr"
	"github.com/edgar13f/edgar13f/internal/edgarid"
	"github.com/edgar13f/edgar13f/internal/filinglist"
	"github.com/edgar13f/edgar13f/internal/sections"
)

// This file answers Companies.Section: the filing found in the filing list
// (internal/filinglist), its primary document read through the access layer and
// cut into Items by internal/sections.

// A Section is the answer of [Companies.Section]: the text of one Item of a
// 10-K or 10-Q.
type Section struct {
	CIK    string            // without leading zeros
	Filing edgar13f.Citation // the filing the text comes from
	Item   string            // as the library writes it: "1A" in a 10-K, "II-1A" in a 10-Q
	Title  string            // the heading's title as in the document ("Risk Factors"); "" when it has none
	// Text runs from the Item's heading to the next Item heading, lines
	// separated by "\n", cut to the character limit.
	Text      string
	Truncated bool   // Text was cut to the limit
	Chars     int    // length of the whole section in characters
	SourceURL string // the primary document the text was read from
}

// Section returns the text of one Item of the 10-K or 10-Q filing
// accession of cik, if EDGAR had accepted it by asOf.
//
// item is written as people write it: "1A", "Item 7", "item 7a" for a
// 10-K; Part-qualified for a 10-Q ("I-2", "II-1A", "Part II, Item 1A"; the
// Part may be left out when only one Part has the number, as for "1A").
// accession is dashed ("0000320193-24-000123") or its 18 digits.
//
// The filing is looked up in the CIK's filing list: its recent filings,
// then, only when they do not list it, the older pages that can hold a
// filing made by asOf. A filing filed after asOf (which its row alone
// tells, no other page being read), or one the list does not hold, is
// declined with [edgar13f.NotYetFiled], and the decline says nothing of it: not its
// date, form or text. The primary document the list names is read once and cached forever
// (a filing's documents never change). For a filing whose row names none,
// the filing folder's index.json is read (once, cached alike) and the
// primary document chosen from it only on evidence: the document named
// after the filing's inline XBRL schema or, failing that, the one document
// whose name holds the form, exhibits and EDGAR's own files left out. When
// index.json cannot tell, or cannot be read, the error names the
// filing-list page that lists the filing and index.json. HTML becomes text: the inline-XBRL
// header is dropped, table rows become "a | b | c" lines, running page
// headers and footers are removed. A section runs from its Item heading to
// the next one; table-of-contents lines and cross-references ("see Item
// 1A") are never taken for headings, and when an Item has several candidate
// headings the longest span wins.
//
// Options: [MaxChars] (1 to [MaxSectionChars], default
// [DefaultSectionChars]). The item is checked before anything is read: an
// item that is an Item of neither a 10-K nor a 10-Q declines with
// [edgar13f.InvalidArgument]; once the filing is known to be visible, an item that
// is not one of its form's Items does too. It declines with [edgar13f.UnknownCIK]
// (no filing list for the CIK), [edgar13f.NotYetFiled] (above) or [edgar13f.SectionNotFound]
// (a filing of a form without Items, or a document with no heading for the
// Item; the message says when the document maps Items to pages in a
// cross-reference index instead of headings).
func (cs *Companies) Section(ctx context.Context, cik, accession, item string, asOf edgar13f.Date, opts ...SectionOption) (*Section, error) {
	o, id, err := companyQuery(opts, SectionOption.applySection, cik, asOf)
	if err != nil {
		return nil, err
	}
	acc, ok := parseAccession(accession)
	if !ok {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "accession %q must be 0000000000-00-000000 or its 18 digits", accession)
	}
	maxChars, err := checkRange("MaxChars", o.maxChars, o.maxCharsSet, 1, MaxSectionChars, DefaultSectionChars)
	if err != nil {
		return nil, err
	}
	// The item must name an Item of some periodic report before anything is
	// read; whether it fits the filing's form is told only once the filing
	// is known to be visible (else the decline would hint at its form).
	if _, _, _, _, err := sections.ItemsNamed(item); err != nil {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "%s", sections.NoItemMessage(item))
	}

	e, listedOn, err := cs.findReport(ctx, id, acc, asOf)
	if err != nil {
		return nil, err
	}
	cite := edgar13f.Citation{Accession: e.Accession, Form: e.Form, FilingDate: e.FilingDate, URL: edgarid.IndexURL(id, e.Accession)}
	form := string(e.Form)
	it, err := sections.ParseItem(form, item)
	if err != nil {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "item %q for the %s %s: %s", item, form, e.Accession, sectionsDetail(err))
	}
	url, parsed, err := cs.reportDocument(ctx, id, e, listedOn)
	if err != nil {
		return nil, err
	}
	s, err := parsed.Section(it, maxChars)
	var nf *sections.NotFoundError
	switch {
	case errors.As(err, &nf):
		return nil, edgar13f.Decline(edgar13f.SectionNotFound, "%s", notFoundMessage(e, nf))
	case err != nil:
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "%s", sectionsDetail(err))
	}
	return &Section{
		CIK: id, Filing: cite, Item: s.Item.String(), Title: s.Title,
		Text: s.Text, Truncated: s.Truncated, Chars: s.Chars, SourceURL: url,
	}, nil
}

// Sections is the answer of [Companies.Sections]: every Item of one 10-K
// or 10-Q, each with its whole text.
type Sections struct {
	CIK string // without leading zeros
	// Filing is the filing the text comes from: accession, form, filing
	// and report dates, primary document and its URL (the document the
	// text was read from), index page. Filing.Citation() cites it.
	Filing Filing
	// Items are the Items found in the primary document, in document
	// order (which is the form's order), never empty.
	Items []ItemSection
}

// An ItemSection is one Item of a filing in a [Sections] answer.
type ItemSection struct {
	Item  string // as the library writes it: "1A" in a 10-K, "II-1A" in a 10-Q
	Title string // the heading's title as in the document ("Risk Factors"); "" when it has none
	// Text runs from the Item's heading to the next Item heading, lines
	// separated by "\n", whole: never cut to a limit. The Items of one
	// combined heading ("Items 1 and 2. Business and Properties") each have
	// its whole text.
	Text  string
	Chars int // length of Text in characters
}

// Sections returns every Item of the 10-K or 10-Q filing accession of cik,
// each with its whole text, in document order, if EDGAR had accepted the
// filing by asOf: what [Companies.Section] gives one Item at a time, for a
// caller that reads or indexes the whole report.
//
// accession is dashed ("0000320193-24-000123") or its 18 digits. The
// filing is looked up and its primary document read, cut and cached as for
// [Companies.Section], and the point-in-time rule is the same: a filing
// filed after asOf, or one the list does not hold, is declined with
// [edgar13f.NotYetFiled], and the decline says nothing of it (not its filing date,
// form or text). It declines with [edgar13f.InvalidArgument] (malformed CIK,
// accession or date), [edgar13f.UnknownCIK] (no filing list for the CIK),
// [edgar13f.NotYetFiled] (above) or [edgar13f.SectionNotFound] (a filing of a form without
// Items, or a document with no Item heading at all; the message says when
// the document maps Items to pages in a cross-reference index instead).
func (cs *Companies) Sections(ctx context.Context, cik, accession string, asOf edgar13f.Date) (*Sections, error) {
	_, id, err := companyQuery[SectionOption](nil, nil, cik, asOf)
	if err != nil {
		return nil, err
	}
	acc, ok := parseAccession(accession)
	if !ok {
		return nil, edgar13f.Decline(edgar13f.InvalidArgument, "accession %q must be 0000000000-00-000000 or its 18 digits", accession)
	}
	e, listedOn, err := cs.findReport(ctx, id, acc, asOf)
	if err != nil {
		return nil, err
	}
	url, parsed, err := cs.reportDocument(ctx, id, e, listedOn)
	if err != nil {
		return nil, err
	}
	found := parsed.Sections()
	if len(found) == 0 {
		// No Item at all: the decline of any one Item says why.
		_, err := parsed.Section(sections.Item{Part: "I", Number: "1"}, 0)
		var nf *sections.NotFoundError
		xref := errors.As(err, &nf) && nf.Reason == sections.ReasonCrossReference
		return nil, edgar13f.Decline(edgar13f.SectionNotFound, "%s", noItemsMessage(e, xref))
	}
	out := &Sections{CIK: id, Filing: filingOf(id, e), Items: make([]ItemSection, len(found))}
	// The document read, also when the list named none and index.json did.
	out.Filing.DocumentURL = url
	out.Filing.PrimaryDocument = url[strings.LastIndexByte(url, '/')+1:]
	for i, s := range found {
		out.Items[i] = ItemSection{Item: s.Item.String(), Title: s.Title, Text: s.Text, Chars: s.Chars}
	}
	return out, nil
}

// findReport returns the entry of accession in cik's filing list if it
// was filed on or before asOf (else the decline of findFiling) and is a
// 10-K or 10-Q.
func (cs *Companies) findReport(ctx context.Context, cik, accession string, asOf edgar13f.Date) (e entry, listedOn string, err error) {
	e, listedOn, err = cs.findFiling(ctx, cik, accession, asOf)
	if err != nil {
		return entry{}, "", err
	}
	if sections.FormKind(string(e.Form)) == sections.Unsupported {
		return entry{}, "", edgar13f.Decline(edgar13f.SectionNotFound, "filing %s is a %s; sections exist only for 10-K and 10-Q reports", e.Accession, e.Form)
	}
	return e, listedOn, nil
}

// reportDocument reads the primary document of the report e of cik (once:
// it is cached forever) and cuts it into Items. It returns the document's
// URL with it. A report whose row in the filing list (the page listedOn)
// names no primary document is read through its folder's index.json.
func (cs *Companies) reportDocument(ctx context.Context, cik string, e entry, listedOn string) (string, *sections.Document, error) {
	primary := e.PrimaryDocument
	switch {
	case primary == "":
		var err error
		if primary, err = cs.primaryFromIndex(ctx, cik, e.Accession, string(e.Form), listedOn); err != nil {
			return "", nil, err
		}
	case !documentName(primary):
		return "", nil, &edgar13f.ParseError{Accession: e.Accession, Document: listedOn, Err: fmt.Errorf("the filing list names no usable primary document (%q)", primary)}
	}
	url := edgarid.FolderURL(cik, e.Accession) + primary
	doc, err := cs.filingDocument(ctx, e.Accession, primary, url)
	if err != nil {
		return "", nil, err
	}
	parsed, err := sections.Parse(string(e.Form), doc)
	if err != nil {
		return "", nil, edgar13f.Decline(edgar13f.SectionNotFound, "filing %s: %s", e.Accession, sectionsDetail(err))
	}
	return url, parsed, nil
}

// noItemsMessage explains a report without any Item heading; xref says
// that it maps Items to pages in a cross-reference index.
func noItemsMessage(e entry, xref bool) string {
	msg := fmt.Sprintf("the %s %s has no Item headings", e.Form, e.Accession)
	if xref {
		msg += " in its body; it maps Items to pages in a cross-reference index instead"
	}
	return msg
}

// sectionsDetail is the message of an internal/sections error without its
// package prefix.
func sectionsDetail(err error) string {
	return strings.TrimPrefix(err.Error(), "sections: ")
}

// notFoundMessage explains a missing section.
func notFoundMessage(e entry, nf *sections.NotFoundError) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the %s %s has no section for Item %s", e.Form, e.Accession, nf.Item)
	switch nf.Reason {
	case sections.ReasonCrossReference:
		b.WriteString(": its body has no Item headings; it maps Items to pages in a cross-reference index instead")
		if nf.Pages != "" {
			fmt.Fprintf(&b, " (Item %s: pages %s)", nf.Item, nf.Pages)
		}
	case sections.ReasonNoHeadings:
		b.WriteString(": the document has no Item headings")
	default:
		if len(nf.Found) > 0 {
			items := make([]string, len(nf.Found))
			for i, it := range nf.Found {
				items[i] = it.String()
			}
			fmt.Fprintf(&b, "; it has Items %s", strings.Join(items, ", "))
		}
	}
	return b.String()
}

// parseAccession reads a dashed accession number or its 18 digits and
// returns it dashed.
func parseAccession(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 18 && !strings.Contains(s, "-") {
		s = s[:10] + "-" + s[10:12] + "-" + s[12:]
	}
	return s, edgarid.IsAccession(s)
}

// findFiling returns the entry of accession in cik's filing list if it was
// filed on or before asOf, and the URL of the filing-list document that
// lists it (the list itself or one of its older pages). An accession
// number names one filing, listed once: where the filing is found, its
// filing date alone decides, and no other page is read. The older pages
// that can hold a filing visible on asOf are searched only when the
// recent list does not hold the accession. A filing not visible and one
// not listed are declined alike, naming only what the caller gave.
func (cs *Companies) findFiling(ctx context.Context, cik, accession string, asOf edgar13f.Date) (entry, string, error) {
	notYet := edgar13f.Decline(edgar13f.NotYetFiled, "CIK %s had filed no filing %s on or before %s", cik, accession, asOf)
	list, err := cs.filingList(ctx, cik, asOf)
	if err != nil {
		return entry{}, "", err
	}
	// find reports whether es lists accession, and its entry when it was
	// filed on or before asOf.
	find := func(es []entry) (e entry, listed, visible bool) {
		for _, e := range es {
			if e.Accession == accession {
				return e, true, visibleOn(e.FilingDate, asOf)
			}
		}
		return entry{}, false, false
	}
	if e, listed, visible := find(list.Entries); visible {
		return e, filinglist.URL(cik), nil
	} else if listed {
		return entry{}, "", notYet
	}
	for _, p := range list.Pages {
		if from, ok := parseDay(p.FilingFrom); ok && !visibleOn(from, asOf) {
			continue
		}
		entries, err := cs.page(ctx, p)
		if err != nil {
			return entry{}, "", err
		}
		if e, listed, visible := find(entries); visible {
			return e, filinglist.PageURL(p), nil
		} else if listed {
			return entry{}, "", notYet
		}
	}
	return entry{}, "", notYet
}

// documentName reports whether name can be a document of a filing's
// folder: a plain file name, nothing that would lead elsewhere.
func documentName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/\\?#") && !strings.Contains(name, "..")
}

// primaryFromIndex finds the primary document of a filing whose row in the
// filing list (listedOn) names none, in the filing folder's index.json (one
// request, cached forever like the filing's documents). index.json lists
// the folder's files but not which is primary, so one is chosen only on
// evidence: among the folder's documents (.htm, .html, .txt) other than
// EDGAR's generated ones, the XBRL viewer pages and exhibits, the one named
// after the filing's inline XBRL schema (aapl-20240928.htm beside
// aapl-20240928.xsd) or, failing that, the one whose name holds the form
// (10-K, 10k). Anything else fails naming both pages rather than guess.
func (cs *Companies) primaryFromIndex(ctx context.Context, cik, accession, form, listedOn string) (string, error) {
	url := edgarid.FolderURL(cik, accession) + "index.json"
	b, err := cs.filingDocument(ctx, accession, "index.json", url)
	if err != nil {
		return "", docerr.Wrap(fmt.Sprintf("filing %s: %s names no primary document for it, and its folder index %s could not be read", accession, listedOn, url), err)
	}
	var idx struct {
		Directory struct {
			Item []struct {
				Name string `json:"name"`
			} `json:"item"`
		} `json:"directory"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return "", &edgar13f.ParseError{Accession: accession, Document: url, Err: err}
	}
	names := make([]string, 0, len(idx.Directory.Item))
	for _, it := range idx.Directory.Item {
		names = append(names, it.Name)
	}
	name, candidates := choosePrimary(accession, form, names)
	if name != "" {
		return name, nil
	}
	why := "lists no document that can be the primary one"
	if len(candidates) > 0 {
		why = fmt.Sprintf("does not show which of %s is the primary document", strings.Join(candidates, ", "))
	}
	return "", &edgar13f.ParseError{Accession: accession, Document: url, Err: fmt.Errorf("%s names no primary document for the filing, and its folder index %s", listedOn, why)}
}

// exhibitName matches the file names of exhibits: ex21.htm, ex-99_1.htm,
// ea191807ex5-1_datchat.htm, a10-kexhibit2112024.htm, dex211.htm.
var exhibitName = regexp.MustCompile(`(?i)ex(hibit)?[-_]?\d`)

// viewerPage matches the XBRL viewer's pages (R1.htm, R12.htm).
var viewerPage = regexp.MustCompile(`(?i)^r\d+\.html?$`)

// choosePrimary picks the primary document of a filing of form among the
// file names of its folder, or returns "" and the candidates it could not
// tell apart (see primaryFromIndex).
func choosePrimary(accession, form string, names []string) (string, []string) {
	schemas := map[string]bool{}
	var candidates []string
	for _, n := range names {
		lower := strings.ToLower(n)
		if stem, ok := strings.CutSuffix(lower, ".xsd"); ok {
			schemas[stem] = true
			continue
		}
		ext := path.Ext(lower)
		if ext != ".htm" && ext != ".html" && ext != ".txt" || !documentName(n) ||
			strings.HasPrefix(lower, accession) || viewerPage.MatchString(lower) || exhibitName.MatchString(lower) {
			continue // not a document, EDGAR's own (-index.html, the .txt), a viewer page, an exhibit
		}
		candidates = append(candidates, n)
	}
	pick := func(ok func(lower string) bool) string {
		var found []string
		for _, n := range candidates {
			if ok(strings.ToLower(n)) {
				found = append(found, n)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		return ""
	}
	if n := pick(func(l string) bool { return schemas[strings.TrimSuffix(l, path.Ext(l))] }); n != "" {
		return n, nil
	}
	f := strings.ToLower(strings.TrimSuffix(form, "/A"))
	if n := pick(func(l string) bool {
		return strings.Contains(l, f) || strings.Contains(l, strings.ReplaceAll(f, "-", ""))
	}); n != "" {
		return n, nil
	}
	return "", candidates
}

// filingDocument returns a document of a filing, from the cache (documents
// never change once accepted) or from EDGAR.
func (cs *Companies) filingDocument(ctx context.Context, accession, name, url string) ([]byte, error) {
	key := keyDocument + accession + "/" + name
	if b, ok := cs.p.Access.Cached(ctx, key); ok {
		return b, nil
	}
	v, err := cs.p.Access.Shared(ctx, key, func() (any, error) {
		if b, ok := cs.p.Access.Cached(ctx, key); ok {
			return b, nil
		}
		b, err := cs.p.Access.Fetch(ctx, url)
		if err != nil {
			return nil, err
		}
		cs.p.Access.Keep(ctx, key, b)
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}
