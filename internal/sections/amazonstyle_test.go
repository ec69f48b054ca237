package sections

import "testing"

// riverbendDoc is a synthetic 10-K in the layout of Amazon's reports (see
// testdata/PROVENANCE.md).
const riverbendDoc = "testdata/riverbend-10k-2024.htm"

// riverbendWant: every Item of the form. Item 5 and Item 12 have the
// titles Amazon writes ("Market for the Registrant’s Common Stock, Related
// Shareholder Matters, ..."), which go on in lower case after a usual
// title; a page header joining the "Table of Contents" link and the Part
// ("Table of Contents PART II") comes before Item 5 and Item 10 and ends
// the section before it; the Part II pages repeat "PART II", which ends
// nothing; Items 9 to 9C are in upper case, Item 9's label alone on its
// line.
var riverbendWant = []want{
	{"1", "Item 1. | Business | 3", "Item 1. | Business\nThis Annual Report on Form 10-K contains forward-looking statements.", "intensely competitive", "Please carefully consider"},
	{"1A", "Item 1A. | Risk Factors | 5", "Item 1A. | Risk Factors\nPlease carefully consider", "Item 7 of Part II, “Management’s Discussion and Analysis of Financial Condition and Results of Operations,” describes the seasonality", "Item 1B."},
	{"1B", "Item 1B. | Unresolved Staff Comments | 8", "Item 1B. | Unresolved Staff Comments\nNone.", "None.", "Item 1C."},
	{"1C", "Item 1C. | Cybersecurity | 8", "Item 1C. | Cybersecurity\nWe have processes", "Chief Information Security Officer", "showrooms"},
	{"2", "Item 2. | Properties | 9", "Item 2. | Properties\nAs of December 31, 2024, we operated forty showrooms", "1,150 thousand square feet", "Item 3."},
	{"3", "Item 3. | Legal Proceedings | 9", "Item 3. | Legal Proceedings\nSee Item 8 of Part II", "Legal Proceedings.”", "Mine Safety"},
	{"4", "Item 4. | Mine Safety Disclosures | 9", "Item 4. | Mine Safety Disclosures\nNot applicable.", "Not applicable.", "Table of Contents"},
	{"5", "Item 5. | Market for the Registrant’s Common Stock, Related Shareholder Matters, and Issuer Purchases of Equity Securities | 10",
		"Item 5. | Market for the Registrant’s Common Stock, Related Shareholder Matters, and Issuer Purchases of Equity Securities\nMarket Information\nOur common stock is traded", "2,214 shareholders of record", "Reserved"},
	{"6", "Item 6. | Reserved | 10", "Item 6. | Reserved", "Reserved", "Management’s"},
	{"7", "Item 7. | Management’s Discussion and Analysis of Financial Condition and Results of Operations | 10",
		"Item 7. | Management’s Discussion and Analysis of Financial Condition and Results of Operations\nThe following discussion",
		"whose seller fees rose 14%.\nPART II\nItem 1A of Part I, “Risk Factors,” describes the weather risks that drive these results.\nLiquidity and Capital Resources", "We are exposed to market risk"},
	{"7A", "Item 7A. | Quantitative and Qualitative Disclosures About Market Risk | 13", "Item 7A. | Quantitative and Qualitative Disclosures About Market Risk\nWe are exposed to market risk", "Canadian showrooms.", "PART II"},
	{"8", "Item 8. | Financial Statements and Supplementary Data | 14", "Item 8. | Financial Statements and Supplementary Data\nCONSOLIDATED BALANCE SHEETS", "Total assets | $1,040 | $1,188", "PART II"},
	{"9", "Item 9. | Changes in and Disagreements with Accountants on Accounting and Financial Disclosure | 16", "ITEM 9.\nCHANGES IN AND DISAGREEMENTS WITH ACCOUNTANTS ON ACCOUNTING AND FINANCIAL DISCLOSURE\nNone.", "None.", "CONTROLS AND PROCEDURES"},
	{"9A", "Item 9A. | Controls and Procedures | 16", "ITEM 9A. CONTROLS AND PROCEDURES\nEvaluation of Disclosure Controls and Procedures", "concluded that they are effective", "OTHER INFORMATION"},
	{"9B", "Item 9B. | Other Information | 16", "ITEM 9B. | OTHER INFORMATION\nNo director or officer", "Rule 10b5-1", "FOREIGN JURISDICTIONS"},
	{"9C", "Item 9C. | Disclosure Regarding Foreign Jurisdictions that Prevent Inspections | 16", "ITEM 9C. | DISCLOSURE REGARDING FOREIGN JURISDICTIONS THAT PREVENT INSPECTIONS\nNot applicable.", "Not applicable.", "PART III"},
	{"10", "Item 10. | Directors, Executive Officers, and Corporate Governance | 17", "Item 10. | Directors, Executive Officers, and Corporate Governance\nInformation required by Item 10 of Part III", "Proxy Statement", "Item 11."},
	{"11", "Item 11. | Executive Compensation | 17", "Item 11. | Executive Compensation\nInformation required by Item 11", "Proxy Statement", "Item 12."},
	{"12", "Item 12. | Security Ownership of Certain Beneficial Owners and Management and Related Shareholder Matters | 17",
		"Item 12. | Security Ownership of Certain Beneficial Owners and Management and Related Shareholder Matters\nInformation required by Item 12", "Proxy Statement", "Item 13."},
	{"13", "Item 13. | Certain Relationships and Related Transactions, and Director Independence | 17", "Item 13. | Certain Relationships and Related Transactions, and Director Independence\nInformation required by Item 13", "Proxy Statement", "Item 14."},
	{"14", "Item 14. | Principal Accountant Fees and Services | 17", "Item 14. | Principal Accountant Fees and Services\nInformation required by Item 14", "Proxy Statement", "PART IV"},
	{"15", "Item 15. | Exhibits, Financial Statement Schedules | 18", "Item 15. | Exhibits, Financial Statement Schedules\n(a) List of Documents", "31.1 | Certification of the Chief Executive Officer", "Form 10-K Summary"},
	{"16", "Item 16. | Form 10-K Summary | 18", "Item 16. | Form 10-K Summary\nNone.", "None.", "SIGNATURES"},
}

func TestAmazonStyleTenK(t *testing.T) {
	d := parseFile(t, "10-K", riverbendDoc, opts{})
	for _, p := range check(d, Annual, riverbendWant) {
		t.Error(p)
	}
}
