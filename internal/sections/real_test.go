package sections

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// want describes one Item section of a real or synthetic document, as read
// in the document by hand.
type want struct {
	item  string // as the library writes it: "1A", "II-1A"
	toc   string // the document's table-of-contents line for the item ("" if none)
	first string // the section's text starts with this (heading line, "\n", first words)
	in    string // a phrase the section holds
	notIn string // the first words of the next Item, which the section must not hold
}

// appleWant: Apple's FY2024 10-K (0000320193-24-000123). Every Item of a
// 10-K is present.
var appleWant = []want{
	{"1", "Item 1. | Business | 1", "Item 1. Business\nCompany Background\nThe Company designs, manufactures and markets smartphones", "The Company’s fiscal year is the 52- or 53-week period", "The Company’s business, reputation, results of operations, financial condition and stock price"},
	{"1A", "Item 1A. | Risk Factors | 5", "Item 1A. Risk Factors\nThe Company’s business, reputation, results of operations", "The Company’s stock has experienced substantial price volatility", "Item 1B. Unresolved Staff Comments"},
	{"1B", "Item 1B. | Unresolved Staff Comments | 17", "Item 1B. Unresolved Staff Comments\nNone.", "None.", "Head of Corporate Information Security"},
	{"1C", "Item 1C. | Cybersecurity | 17", "Item 1C. Cybersecurity\nThe Company’s management, led by its Head of Corporate Information Security", "see Item 1A of this Form 10-K under the heading “Risk Factors.”", "The Company’s headquarters is located in Cupertino"},
	{"2", "Item 2. | Properties | 18", "Item 2. Properties\nThe Company’s headquarters is located in Cupertino, California.", "suitable for the conduct of its business", "Digital Markets Act Investigations"},
	{"3", "Item 3. | Legal Proceedings | 18", "Item 3. Legal Proceedings\nDigital Markets Act Investigations", "Epic Games, Inc. (“Epic”) filed a lawsuit", "Item 4. Mine Safety Disclosures"},
	{"4", "Item 4. | Mine Safety Disclosures | 18", "Item 4. Mine Safety Disclosures\nNot applicable.", "Not applicable.", "under the symbol AAPL"},
	{"5", "Item 5. | Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities | 19", "Item 5. Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities\nThe Company’s common stock is traded on The Nasdaq Stock Market LLC under the symbol AAPL.", "Open market and privately negotiated purchases | 42,910 | $221.39 | 42,910", "Item 6. [Reserved]"},
	{"6", "Item 6. | [Reserved] | 20", "Item 6. [Reserved]", "[Reserved]", "The following discussion should be read in conjunction"},
	{"7", "Item 7. | Management’s Discussion and Analysis of Financial Condition and Results of Operations | 21", "Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations\nThe following discussion should be read in conjunction with the consolidated financial statements", "Product, Service and Software Announcements", "The Company is exposed to economic risk from interest rates and foreign exchange rates"},
	{"7A", "Item 7A. | Quantitative and Qualitative Disclosures About Market Risk | 27", "Item 7A. Quantitative and Qualitative Disclosures About Market Risk\nThe Company is exposed to economic risk", "value-at-risk (“VAR”) model", "Index to Consolidated Financial Statements"},
	{"8", "Item 8. | Financial Statements and Supplementary Data | 28", "Item 8. Financial Statements and Supplementary Data\nIndex to Consolidated Financial Statements | Page", "CONSOLIDATED BALANCE SHEETS", "Item 9. Changes in and Disagreements"},
	{"9", "Item 9. | Changes in and Disagreements with Accountants on Accounting and Financial Disclosure | 51", "Item 9. Changes in and Disagreements with Accountants on Accounting and Financial Disclosure\nNone.", "None.", "Evaluation of Disclosure Controls and Procedures"},
	{"9A", "Item 9A. | Controls and Procedures | 51", "Item 9A. Controls and Procedures\nEvaluation of Disclosure Controls and Procedures", "Management’s Annual Report on Internal Control over Financial Reporting", "Insider Trading Arrangements"},
	{"9B", "Item 9B. | Other Information | 52", "Item 9B. Other Information\nInsider Trading Arrangements", "Jeff Williams, the Company’s Chief Operating Officer", "Item 9C. Disclosure Regarding"},
	{"9C", "Item 9C. | Disclosure Regarding Foreign Jurisdictions that Prevent Inspections | 52", "Item 9C. Disclosure Regarding Foreign Jurisdictions that Prevent Inspections\nNot applicable.", "Not applicable.", "PART III"},
	{"10", "Item 10. | Directors, Executive Officers and Corporate Governance | 52", "Item 10. Directors, Executive Officers and Corporate Governance\nThe Company has an insider trading policy", "2025 Proxy Statement", "Item 11. Executive Compensation"},
	{"11", "Item 11. | Executive Compensation | 52", "Item 11. Executive Compensation\nThe information required by this Item will be included in the 2025 Proxy Statement", "incorporated herein by reference", "Item 12. Security Ownership"},
	{"12", "Item 12. | Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters | 52", "Item 12. Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters\nThe information required by this Item", "2025 Proxy Statement", "Item 13. Certain Relationships"},
	{"13", "Item 13. | Certain Relationships and Related Transactions, and Director Independence | 52", "Item 13. Certain Relationships and Related Transactions, and Director Independence\nThe information required by this Item", "2025 Proxy Statement", "Item 14. Principal Accountant"},
	{"14", "Item 14. | Principal Accountant Fees and Services | 52", "Item 14. Principal Accountant Fees and Services\nThe information required by this Item", "2025 Proxy Statement", "PART IV"},
	{"15", "Item 15. | Exhibit and Financial Statement Schedules | 53", "Item 15. Exhibit and Financial Statement Schedules\n(a)Documents filed as part of this report", "Exhibit Number | Exhibit Description", "Item 16. Form 10-K Summary"},
	{"16", "Item 16. | Form 10-K Summary | 56", "Item 16. Form 10-K Summary\nNone.", "None.", "SIGNATURES"},
}

// nvidiaWant: NVIDIA's FY2025 10-K. Item 8 holds one sentence that points
// to the statements, which sit under Item 15.
var nvidiaWant = []want{
	{"1", "Item 1. | Business | 4", "Item 1. Business\nOur Company\nNVIDIA pioneered accelerated computing", "Refer to “Item 1A. Risk Factors – Risks Related to Regulatory, Legal, Our Stock and Other Matters” for a discussion", "The following risk factors should be considered"},
	{"1A", "Item 1A. | Risk Factors | 13", "Item 1A. Risk Factors\nThe following risk factors should be considered in addition to the other information in this Annual Report on Form 10-K. The following risks could harm our business, financial condition, results of operations or reputation, which could cause our stock price to decline.", "Risks Related to Demand, Supply, and Manufacturing", "Item 1B. Unresolved Staff Comments"},
	{"1B", "Item 1B. | Unresolved Staff Comments | 32", "Item 1B. Unresolved Staff Comments\nNot applicable.", "Not applicable.", "Risk management and strategy"},
	{"1C", "Item 1C | Cybersecurity | 32", "Item 1C. Cybersecurity\nRisk management and strategy", "Chief Security Officer", "Our headquarters is in Santa Clara"},
	{"2", "Item 2. | Properties | 33", "Item 2. Properties\nOur headquarters is in Santa Clara, California.", "approximately 3 million square feet", "Please see Note 12"},
	{"3", "Item 3. | Legal Proceedings | 33", "Item 3. Legal Proceedings\nPlease see Note 12 of the Notes to the Consolidated Financial Statements", "for a discussion of our legal proceedings", "Item 4. Mine Safety Disclosures"},
	{"4", "Item 4. | Mine Safety Disclosures | 33", "Item 4. Mine Safety Disclosures\nNot applicable.", "Not applicable.", "under the symbol NVDA"},
	{"5", "Item 5. | Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities | 33", "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities\nOur common stock is traded on the Nasdaq Global Select Market under the symbol NVDA.", "Nasdaq 100 | $100.00 | $142.64", "Item 6. [Reserved]"},
	{"6", "Item 6. | [Reserved] | 35", "Item 6. [Reserved]", "[Reserved]", "The following discussion and analysis of our financial condition"},
	{"7", "Item 7. | Management’s Discussion and Analysis of Financial Condition and Results of Operations | 36", "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\nThe following discussion and analysis of our financial condition", "Compute & Networking | $82,875 | $32,016 | $50,859 | 159%", "Investment and Interest Rate Risk"},
	{"7A", "Item 7A. | Quantitative and Qualitative Disclosures About Market Risk | 45", "Item 7A. Quantitative and Qualitative Disclosures about Market Risk\nInvestment and Interest Rate Risk", "foreign exchange rate fluctuations", "The information required by this Item is set forth"},
	{"8", "Item 8. | Financial Statements and Supplementary Data | 46", "Item 8. Financial Statements and Supplementary Data\nThe information required by this Item is set forth in our Consolidated Financial Statements and Notes thereto included in this Annual Report on Form 10-K.", "Consolidated Financial Statements", "Item 9. Changes in and Disagreements"},
	{"9", "Item 9. | Changes in and Disagreements with Accountants on Accounting and Financial Disclosure | 46", "Item 9. Changes in and Disagreements with Accountants on Accounting and Financial Disclosure\nNone.", "None.", "Disclosure Controls and Procedures"},
	{"9A", "Item 9A. | Controls and Procedures | 46", "Item 9A. Controls and Procedures\nControls and Procedures\nDisclosure Controls and Procedures", "internal control over financial reporting", "The following members of our Board of Directors"},
	{"9B", "Item 9B. | Other Information | 47", "Item 9B. Other Information\nThe following members of our Board of Directors and/or officers adopted", "Aarti Shah | Director | Adoption | November 25, 2024 | 39,000 | March 31, 2026", "Item 9C. Disclosure Regarding"},
	{"9C", "Item 9C. | Disclosure Regarding Foreign Jurisdictions that Prevent Inspections | 47", "Item 9C. Disclosure Regarding Foreign Jurisdictions that Prevent Inspections\nNot Applicable.", "Not Applicable.", "Certain information required by Part III is omitted"},
	{"10", "Item 10. | Directors, Executive Officers and Corporate Governance | 47", "Item 10. Directors, Executive Officers and Corporate Governance\nIdentification of Directors", "Audit Committee", "Information regarding our executive compensation"},
	{"11", "Item 11. | Executive Compensation | 48", "Item 11. Executive Compensation\nInformation regarding our executive compensation", "2025 Proxy Statement", "Ownership of NVIDIA Securities"},
	{"12", "Item 12. | Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters | 48", "Item 12. Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters\nOwnership of NVIDIA Securities", "equity compensation plans", "Information regarding related transactions"},
	{"13", "Item 13. | Certain Relationships and Related Transactions, and Director Independence | 48", "Item 13. Certain Relationships and Related Transactions, and Director Independence\nInformation regarding related transactions", "director independence", "Information regarding accounting fees"},
	{"14", "Item 14. | Principal Accountant Fees and Services | 48", "Item 14. Principal Accountant Fees and Services\nInformation regarding accounting fees and services", "2025 Proxy Statement", "Part IV"},
	{"15", "Item 15. | Exhibits and Financial Statement Schedules | 49", "Item 15. Exhibits and Financial Statement Schedules\nPage\n(a) | 1. | Financial Statements", "Consolidated Statements of Income", "Item 16. Form 10-K Summary"},
	{"16", "Item 16. | Form 10-K Summary | 85", "Item 16. Form 10-K Summary\nNot Applicable.", "Not Applicable.", "Signatures"},
}

func parseFile(t testing.TB, form, path string, o opts) *Document {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := parse(form, b, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// check compares a document's sections with the wanted ones and returns
// what differs, one problem a line.
func check(d *Document, kind Kind, wants []want) []string {
	var problems []string
	bad := func(w want, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("item %s: ", w.item)+fmt.Sprintf(format, args...))
	}
	var items []string
	for _, it := range d.Items() {
		items = append(items, it.String())
	}
	var wantItems []string
	for _, w := range wants {
		wantItems = append(wantItems, w.item)
	}
	if got, want := strings.Join(items, " "), strings.Join(wantItems, " "); got != want {
		problems = append(problems, fmt.Sprintf("Items() = %s, want %s", got, want))
	}
	lines := strings.Split(d.Text(), "\n")
	for _, w := range wants {
		it, err := ParseItem(formOf(kind), w.item)
		if err != nil {
			bad(w, "ParseItem: %v", err)
			continue
		}
		s, err := d.Section(it, MaxMaxChars)
		if err != nil {
			bad(w, "%v", err)
			continue
		}
		if !strings.HasPrefix(s.Text, w.first) {
			bad(w, "text starts %.120q, want %.120q", s.Text, w.first)
		}
		if !strings.Contains(s.Text, w.in) {
			bad(w, "text lacks %q", w.in)
		}
		if strings.Contains(s.Text, w.notIn) {
			bad(w, "text holds %q from the next item", w.notIn)
		}
		if s.Line < 0 || s.Line >= len(lines) || !strings.HasPrefix(w.first, lines[s.Line]) {
			bad(w, "Line %d is not the heading line", s.Line)
		}
		if w.toc != "" {
			toc := -1
			for i, l := range lines {
				if l == w.toc {
					toc = i
					break
				}
			}
			switch {
			case toc < 0:
				bad(w, "no table-of-contents line %q", w.toc)
			case s.Line <= toc:
				bad(w, "section starts at line %d, not after the table of contents (line %d)", s.Line, toc)
			}
		}
	}
	return problems
}

func formOf(k Kind) string {
	if k == Quarterly {
		return "10-Q"
	}
	return "10-K"
}

func TestRealTenK(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		wants      []want
	}{
		{"Apple FY2024", appleDoc, appleWant},
		{"NVIDIA FY2025", nvidiaDoc, nvidiaWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := parseFile(t, "10-K", tc.path, opts{})
			for _, p := range check(d, Annual, tc.wants) {
				t.Error(p)
			}
		})
	}
}

// TestRealTenKFurniture: the running footers and "Table of Contents" links
// at page breaks are not in the text.
func TestRealTenKFurniture(t *testing.T) {
	apple := parseFile(t, "10-K", appleDoc, opts{}).Text()
	if n := strings.Count(apple, "Apple Inc. | 2024 Form 10-K |"); n != 0 {
		t.Errorf("Apple: %d page footers left in the text", n)
	}
	nvidia := parseFile(t, "10-K", nvidiaDoc, opts{})
	for i, l := range strings.Split(nvidia.Text(), "\n") {
		if l == "Table of Contents" && i != 39 {
			t.Errorf("NVIDIA: running header %q left at line %d", l, i)
		}
	}
	// The table of contents' own title stays.
	if !strings.Contains(nvidia.Text(), "NVIDIA Corporation\nTable of Contents\nPage\nPart I\nItem 1. | Business | 4") {
		t.Error("NVIDIA: table of contents not kept as text")
	}
}

// TestRealNVIDIAItem8: Item 8 is what the document says there, a pointer to
// the statements; the statements are returned under Item 15.
func TestRealNVIDIAItem8(t *testing.T) {
	d := parseFile(t, "10-K", nvidiaDoc, opts{})
	s8, err := d.Section(Item{Number: "8"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s8.Chars > 300 || s8.Truncated {
		t.Errorf("Item 8: %d chars, truncated %v; want the one sentence", s8.Chars, s8.Truncated)
	}
	s15, err := d.Section(Item{Number: "15"}, MaxMaxChars)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"Report of Independent Registered Public Accounting Firm", "Consolidated Balance Sheets", "Total assets"} {
		if !strings.Contains(s15.Text, p) {
			t.Errorf("Item 15 lacks %q", p)
		}
	}
	if !s15.Truncated || s15.Chars <= MaxMaxChars {
		t.Errorf("Item 15: %d chars, truncated %v; want more than %d, truncated", s15.Chars, s15.Truncated, MaxMaxChars)
	}
}

func TestGECrossReference(t *testing.T) {
	d := parseFile(t, "10-K", geFragment, opts{})
	if items := d.Items(); len(items) != 0 {
		t.Errorf("Items() = %v, want none", items)
	}
	for _, tc := range []struct{ item, pages string }{
		{"1A", "26-33"},
		{"1", "4-7, 9-11, 74-75"},
		{"7", ""}, // not in the fragment
	} {
		_, err := d.Section(Item{Number: tc.item}, 0)
		if !errors.Is(err, ErrSectionNotFound) {
			t.Fatalf("Section(%s) = %v, want ErrSectionNotFound", tc.item, err)
		}
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.Reason != ReasonCrossReference || nf.Pages != tc.pages {
			t.Errorf("Section(%s) = %#v, want ReasonCrossReference with pages %q", tc.item, err, tc.pages)
		}
		if !strings.Contains(err.Error(), "cross-reference index") {
			t.Errorf("Section(%s) error %q does not name the cross-reference layout", tc.item, err)
		}
	}
}
