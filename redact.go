package edgar13f

import (
	"regexp"
	"strings"
	"unicode"
)

// Redaction. By default, information-table rows of gold
// ETFs/trusts, US energy-sector ETFs, S&P 500 index funds/ETFs and UCITS
// copies of any of them are removed while a table is parsed, before anything
// else sees them: they are never returned, cached, logged or counted.
//
// The rule is deliberately broad. Known over-matches, accepted because
// removing too much is acceptable and removing too little is not:
//   - every "SPDR S&P ..." fund, whatever its index;
//   - bonds of fund- or trust-named issuers with ".500" coupons (the "500"
//     rule below), and any fund or trust whose name or class mentions 500;
//   - energy or oil royalty trusts and units, and oil funds in general;
//   - any issuer whose name or class pairs GOLD, ENERGY or OIL with a fund
//     word, such as a company named "... GOLD TRUST".
//
// The CUSIP list is never narrowed to recover an ordinary row.

// redactionRuleVersion names the default rule in cache keys. Change it
// whenever the rule changes, so rows redacted under an older rule are not
// served.
const redactionRuleVersion = "default-v1"

// redactedCUSIPs are removed whatever their names say (upper case).
var redactedCUSIPs = map[string]string{
	"78462F103": "SPDR S&P 500 ETF Trust (SPY)",
	"464287200": "iShares Core S&P 500 ETF (IVV)",
	"922908363": "Vanguard S&P 500 ETF (VOO)",
	"922908710": "Vanguard 500 Index Fund",
	"922908108": "Vanguard 500 Index Fund",
	"78464A854": "SPDR Portfolio S&P 500 ETF (SPLG)",
	"46137V357": "Invesco S&P 500 Equal Weight ETF (RSP)",
	"78355W106": "Invesco S&P 500 Equal Weight ETF (RSP, former CUSIP)",
	"78463V107": "SPDR Gold Shares (GLD)",
	"464285105": "iShares Gold Trust (IAU)",
	"464285204": "iShares Gold Trust (IAU)",
	"98149E303": "SPDR Gold MiniShares (GLDM)",
	"85207H104": "Sprott Physical Gold Trust",
	"81369Y506": "Energy Select Sector SPDR Fund (XLE)",
	"92204A306": "Vanguard Energy ETF (VDE)",
	"464287796": "iShares U.S. Energy ETF (IYE)",
	"78468R556": "SPDR S&P Oil & Gas Exploration & Production ETF (XOP)",
	"316092402": "Fidelity MSCI Energy Index ETF (FENY)",
}

// redactionPattern is one named part of the default rule, so that tests can
// prove each part is needed.
type redactionPattern struct {
	name  string
	match func(text string) bool // text: upper-case issuer name + " " + title of class
}

var (
	// "S&P 500", "S & P 500", "S&P500", "SP 500", "SP500", "S AND P 500", "S P 500".
	reSP500 = regexp.MustCompile(`\bS\s*(?:&|AND\b)?\s*P\s*500\b`)
	// SPDR S&P funds: SPDR anywhere with S&P anywhere.
	reSPDR  = regexp.MustCompile(`\bSPDR\b`)
	reSAndP = regexp.MustCompile(`\bS\s*(?:&|AND\b)\s*P\b`)
	// Titles are cut at 16 characters, so abbreviations such as "ENERG" occur.
	reGoldEO = regexp.MustCompile(`\b(?:GOLD|ENERGY|ENERG|ENRGY|ENRG|ENGY|OIL|OILGAS|OIL&GAS)\b`)
	// Fund words. Tickers of the best-known funds count as fund words too.
	// "SHS" is left out: "COM SHS CL A" is the class of many ordinary stocks.
	reFundWord = regexp.MustCompile(`\b(?:ETF|ETFS|ETN|ETC|ETP|TRUST|TR|FUND|FD|FDS|SHARES|INDEX|IDX|SPDR|ISHARES|VANGUARD|UCITS|BULLION|MLP|ALERIAN|XLE|XOP|VDE|GLD|GLDM|IAU|IYE|FENY|SGOL|BAR|AAAU)\b`)
	re500      = regexp.MustCompile(`\b500\b`)
	// Alerian MLP funds and other MLP index products are energy-sector funds.
	reAlerian  = regexp.MustCompile(`\bALERIAN\b`)
	reMLPFund  = regexp.MustCompile(`\bMLP\b.*\b(?:ETF|ETN|FUND|FD|INDEX|IDX)\b|\b(?:ETF|ETN|FUND|FD|INDEX|IDX)\b.*\bMLP\b`)
	reTickers  = regexp.MustCompile(`\b(?:SPY|IVV|VOO|SPLG|RSP|GLD|GLDM|IAU|SGOL|XLE|XOP|VDE|IYE|FENY|AMLP)\b`)
	reTickerIn = regexp.MustCompile(`\b(?:ETF|ETN|TRUST|TR|FUND|FD|FDS|SHARES|SHS|SPDR|ISHARES|VANGUARD|UCITS)\b`)
)

var defaultPatterns = []redactionPattern{
	{"s&p 500", reSP500.MatchString},
	{"spdr s&p", func(t string) bool { return reSPDR.MatchString(t) && reSAndP.MatchString(t) }},
	{"gold/energy/oil fund", func(t string) bool { return reGoldEO.MatchString(t) && reFundWord.MatchString(t) }},
	{"500 fund", func(t string) bool { return re500.MatchString(t) && reFundWord.MatchString(t) }},
	{"alerian/mlp fund", func(t string) bool { return reAlerian.MatchString(t) || reMLPFund.MatchString(t) }},
	{"fund ticker", func(t string) bool { return reTickers.MatchString(t) && reTickerIn.MatchString(t) }},
}

// defaultRedacts reports whether the default rule removes a row with these
// fields. It is the predicate applied while information tables are parsed.
func defaultRedacts(nameOfIssuer, titleOfClass, cusip string) bool {
	return redactsWith(defaultPatterns, redactedCUSIPs, nameOfIssuer, titleOfClass, cusip)
}

func redactsWith(patterns []redactionPattern, cusips map[string]string, nameOfIssuer, titleOfClass, cusip string) bool {
	if _, ok := cusips[strings.ToUpper(strings.TrimSpace(cusip))]; ok {
		return true
	}
	text := redactionText(nameOfIssuer, titleOfClass)
	for _, p := range patterns {
		if p.match(text) {
			return true
		}
	}
	return false
}

// redactionText is the text the patterns read: issuer name and title of
// class, upper case, with dots and every run of white space (non-breaking
// spaces and tabs included) folded to one space, so that "S. & P." and
// "S & P" look alike. It makes one allocation.
func redactionText(nameOfIssuer, titleOfClass string) string {
	var b strings.Builder
	b.Grow(len(nameOfIssuer) + 1 + len(titleOfClass))
	space := true // drop leading space and fold runs
	for _, part := range [2]string{nameOfIssuer, titleOfClass} {
		for _, r := range part {
			if r == '.' || unicode.IsSpace(r) {
				if !space {
					b.WriteByte(' ')
					space = true
				}
				continue
			}
			b.WriteRune(unicode.ToUpper(r))
			space = false
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}

// memoized returns a predicate that asks remove once per distinct
// (issuer, class, CUSIP) of one table: large tables repeat them many times
// (one row per manager combination, option rows beside stock rows), and
// the pattern rule costs microseconds a row. It is not safe for concurrent
// use; make one per table.
func memoized(remove func(nameOfIssuer, titleOfClass, cusip string) bool) func(nameOfIssuer, titleOfClass, cusip string) bool {
	type key struct{ issuer, title, cusip string }
	seen := map[key]bool{}
	return func(issuer, title, cusip string) bool {
		k := key{issuer, title, cusip}
		r, ok := seen[k]
		if !ok {
			r = remove(issuer, title, cusip)
			seen[k] = r
		}
		return r
	}
}

// redactionRule is the rule a Client applies while parsing tables: a name
// that keys the cache, and a predicate (nil when redaction is off).
type redactionRule struct {
	name   string
	remove func(nameOfIssuer, titleOfClass, cusip string) bool
}

var defaultRedaction = redactionRule{name: redactionRuleVersion, remove: defaultRedacts}

var noRedaction = redactionRule{name: "off"}
