package sections

import (
	"strings"
	"testing"
)

// Synthetic 10-Qs (testdata/*.htm, see testdata/PROVENANCE.md).
const (
	acmeDoc = "testdata/acme-10q-2024q2.htm"  // inline XBRL, linked table of contents, running Part headers and footers
	betaDoc = "testdata/beta-10qa-2009q1.htm" // old HTML, dot-leader index, Windows-1252, no "PART II" line
)

var acmeWant = []want{
	{"I-1", "Item 1. | Financial Statements | 1", "Item 1. Financial Statements\nCONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)", "Net sales | $1,234 | $1,100\nOther income (expense), net | (12) | 8\nGross margin percentage | 41.2% | 39.8%", "ITEM 2. MANAGEMENT’S DISCUSSION"},
	// The running header "PART I — FINANCIAL INFORMATION" at the top of
	// the MD&A's second page does not end it; the cross-references at the
	// start of lines ("Item 1A of Part II ...", "Part II, Item 1A of this
	// Form 10-Q ...") are not headings.
	{"I-2", "Item 2. | Management’s Discussion and Analysis of Financial Condition and Results of Operations | 4", "ITEM 2. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS\nThis section should be read together", "Part II, Item 1A of this Form 10-Q also discusses supplier concentration.\nResults of Operations\nNet sales increased 12% to $1,234 million, driven by the Roadrunner product line.\nPART I — FINANCIAL INFORMATION\nLiquidity and Capital Resources\nCash and equivalents were $2,345 million", "Item 3 — Quantitative"},
	{"I-3", "Item 3. | Quantitative and Qualitative Disclosures About Market Risk | 6", "Item 3 — Quantitative and Qualitative Disclosures About Market Risk\nThere have been no material changes to the Company’s market risk", "first six months of 2024", "Controls and Procedures"},
	{"I-4", "Item 4. | Controls and Procedures | 6", "Item 4. | Controls and Procedures\nManagement concluded", "were effective as of June 29, 2024.", "PART II"},
	{"II-1", "Item 1. | Legal Proceedings | 7", "ITEM 1.\nLEGAL PROCEEDINGS\nThe Company is defending a patent suit", "Coyote Holdings LLC", "Item 1A. Risk Factors"},
	{"II-1A", "Item 1A. | Risk Factors | 7", "Item 1A. Risk Factors\nThere have been no material changes to the risk factors", "PART II — OTHER INFORMATION\nAnvil prices may rise further", "Item 2. Unregistered Sales"},
	{"II-2", "Item 2. | Unregistered Sales of Equity Securities and Use of Proceeds | 8", "Item 2. Unregistered Sales of Equity Securities and Use of Proceeds\nPeriod | Total Number of Shares Purchased | Average Price Paid Per Share", "April 2024 | 100,000 | $52.10", "Defaults Upon Senior Securities"},
	{"II-3", "Item 3. | Defaults Upon Senior Securities | 8", "Item 3. Defaults Upon Senior Securities\nNone.", "None.", "Mine Safety"},
	{"II-4", "Item 4. | Mine Safety Disclosures | 8", "Item 4. Mine Safety Disclosures\nNot applicable.", "Not applicable.", "Item 5. Other Information"},
	{"II-5", "Item 5. | Other Information | 8", "Item 5. Other Information\nDuring the quarter no director or officer", "Rule 10b5-1 trading arrangement", "Item 6. Exhibits"},
	{"II-6", "Item 6. | Exhibits | 9", "Item 6. Exhibits\nExhibit Number | Description\n31.1 | Certification of Chief Executive Officer\n101.INS | Inline XBRL Instance Document", "101.INS", "SIGNATURES"},
}

var betaWant = []want{
	{"I-1", "", "ITEM 1. FINANCIAL STATEMENTS\nRevenue | $48,200 | $51,700\nNet loss | $(3,150) | $1,020", "The foundry’s smelting line was idle for six weeks – see Note 4.", "ITEM 2."},
	{"I-2", "", "ITEM 2. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS\nRevenue fell 7%", "Café Bank revolving facility.\nItem 2 of Part I should be read with the risk factors", "ITEM 3."},
	{"I-3", "", "ITEM 3. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK\nNot required", "smaller reporting companies", "ITEM 4."},
	{"I-4", "", "ITEM 4. CONTROLS AND PROCEDURES\nOur chief executive officer concluded", "material weakness in inventory counts", "LEGAL PROCEEDINGS"},
	{"II-1", "", "ITEM 1. LEGAL PROCEEDINGS\nWe are not a party", "material pending legal proceeding", "RISK FACTORS"},
	{"II-1A", "", "ITEM 1A. RISK FACTORS\nCopper prices fell sharply", "may not recover", "EXHIBITS"},
	{"II-6", "", "ITEM 6. EXHIBITS\n31.1 Certification of the Chief Executive Officer.", "31.1", "SIGNATURES"},
}

func TestSyntheticTenQ(t *testing.T) {
	for _, tc := range []struct {
		name, form, path string
		wants            []want
	}{
		{"Acme 10-Q", "10-Q", acmeDoc, acmeWant},
		{"Beta 10-Q/A", "10-Q/A", betaDoc, betaWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := parseFile(t, tc.form, tc.path, opts{})
			for _, p := range check(d, Quarterly, tc.wants) {
				t.Error(p)
			}
		})
	}
}

// TestSyntheticTenQText: the footers (arabic and roman page numbers) and
// the hidden inline-XBRL header are not in the text; the dot-leader index
// is one line per row.
func TestSyntheticTenQText(t *testing.T) {
	acme := parseFile(t, "10-Q", acmeDoc, opts{}).Text()
	for _, gone := range []string{"Form 10-Q |", "HIDDEN CONTEXT TEXT", "DocumentFiscalPeriodFocus", "Q2\n"} {
		if strings.Contains(acme, gone) {
			t.Errorf("Acme text holds %q", gone)
		}
	}
	beta := parseFile(t, "10-Q", betaDoc, opts{}).Text()
	if !strings.Contains(beta, "\nItem 1A. Risk Factors .............................................. 15\n") {
		t.Errorf("Beta index rows not kept as lines:\n%s", beta)
	}
	for _, l := range strings.Split(beta, "\n") {
		if l == "3" || l == "9" || l == "14" {
			t.Errorf("Beta page number %q left in the text", l)
		}
	}
}

// TestPlantedFaults turns off one rule at a time and shows that the checks
// above then fail: each rule is needed.
func TestPlantedFaults(t *testing.T) {
	docs := []struct {
		name, form, path string
		kind             Kind
		wants            []want
	}{
		{"Apple", "10-K", appleDoc, Annual, appleWant},
		{"NVIDIA", "10-K", nvidiaDoc, Annual, nvidiaWant},
		{"Acme", "10-Q", acmeDoc, Quarterly, acmeWant},
		{"Beta", "10-Q/A", betaDoc, Quarterly, betaWant},
	}
	for _, fault := range []struct {
		name  string
		o     opts
		fails []string // the documents whose checks must fail
	}{
		// In Beta the longest span and the order of Items still pick the body
		// headings over its unlinked index.
		{"table-of-contents lines taken for headings", opts{keepTOC: true}, []string{"Apple", "NVIDIA", "Acme"}},
		{"cross-references taken for headings", opts{keepCrossRefs: true}, []string{"Acme", "Beta"}},
		{"a running Part header ends a section", opts{anyPartEnds: true}, []string{"Acme"}},
	} {
		t.Run(fault.name, func(t *testing.T) {
			for _, doc := range docs {
				mustFail := strings.Contains(strings.Join(fault.fails, " "), doc.name)
				problems := check(parseFile(t, doc.form, doc.path, fault.o), doc.kind, doc.wants)
				switch {
				case mustFail && len(problems) == 0:
					t.Errorf("%s: the checks pass with the fault planted", doc.name)
				case mustFail:
					t.Logf("%s: %d problems, first: %s", doc.name, len(problems), problems[0])
				}
			}
		})
	}
}
