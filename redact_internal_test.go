package edgar13f

// These tests stay inside the package: they check the unexported default
// redaction rule and its tables part by part, and need no EDGAR (the tests
// that do are package edgar13f_test, on internal/edgartest).

import (
	"strings"
	"testing"
)

// redactionCase is a synthetic information-table row. Real fixtures are not
// used for redacted instruments.
type redactionCase struct {
	category string
	issuer   string
	title    string
	cusip    string
}

// neutralCUSIP is on no list, so these rows test the name patterns alone.
const neutralCUSIP = "ZZ0000001"

var mustRedact = []redactionCase{
	// S&P 500 index funds and ETFs, in the spellings filers use.
	{"s&p 500", "SPDR S&P 500 ETF TR", "TR UNIT", neutralCUSIP},
	{"s&p 500", "ISHARES TR", "CORE S&P500 ETF", neutralCUSIP},
	{"s&p 500", "VANGUARD INDEX FDS", "S&P 500 ETF SHS", neutralCUSIP},
	{"s&p 500", "INVESCO EXCHANGE TRADED FD T", "S&P500 EQL WGT", neutralCUSIP},
	{"s&p 500", "SCHWAB STRATEGIC TR", "US LRG CAP SP 500", neutralCUSIP},
	{"s&p 500", "STATE STREET S AND P 500 INDEX FD", "CL K", neutralCUSIP},
	{"s&p 500", "spdr s & p 500 etf trust", "tr unit", neutralCUSIP},
	{"s&p 500", "FIDELITY CONCORD STR TR", "500 INDEX FD", neutralCUSIP},
	{"s&p 500", "VANGUARD 500 INDEX FUND", "ADMIRAL SHS", neutralCUSIP},
	{"s&p 500", "DIREXION SHS ETF TR", "DAILY S P 500 BULL", neutralCUSIP},
	{"s&p 500", "SPDR S&P ETF TRUST", "TR UNIT", neutralCUSIP}, // a real name whose "500" was cut off
	// UCITS copies.
	{"ucits", "ISHARES VII PLC", "CORE S&P 500 UCITS ETF", neutralCUSIP},
	{"ucits", "INVESCO MARKETS PLC", "PHYSICAL GOLD ETC UCITS", neutralCUSIP},
	{"ucits", "SPDR S&P US ENERGY SELECT SECTOR", "UCITS ETF", neutralCUSIP},
	// Gold ETFs and trusts.
	{"gold", "SPDR GOLD TR", "GOLD SHS", neutralCUSIP},
	{"gold", "ISHARES GOLD TR", "ISHARES NEW", neutralCUSIP},
	{"gold", "SPROTT PHYSICAL GOLD TR", "UNIT", neutralCUSIP},
	{"gold", "GOLDMAN SACHS PHYSICAL GOLD ETF", "SHS", neutralCUSIP},
	{"gold", "ABRDN GOLD ETF TRUST", "PHYSCL GOLD SHS", neutralCUSIP},
	{"gold", "WORLD GOLD TR", "SPDR GLD MINI", neutralCUSIP},
	{"gold", "GRANITESHARES GOLD TR", "SHS BEN INT", neutralCUSIP},
	{"gold", "VANECK ETF TRUST", "GOLD MINERS ETF", neutralCUSIP},
	// US energy-sector ETFs.
	{"energy", "SELECT SECTOR SPDR TR", "ENERGY", neutralCUSIP},
	{"energy", "STATE STR SELECT SECTOR TR", "ST STR ENERG ETF", neutralCUSIP}, // a real 16-character title
	{"energy", "VANGUARD WORLD FDS", "ENERGY ETF", neutralCUSIP},
	{"energy", "ISHARES TR", "U.S. ENERGY ETF", neutralCUSIP},
	{"energy", "FIDELITY COVINGTON TRUST", "MSCI ENERGY IDX", neutralCUSIP},
	{"energy", "SPDR SER TR", "S&P OILGAS EXP", neutralCUSIP},
	{"energy", "ALPS ETF TR", "ALERIAN MLP", neutralCUSIP},
	{"energy", "GLOBAL X FDS", "GLOBAL X MLP ETF", neutralCUSIP},
	{"energy", "UNITED STATES OIL FUND LP", "UNITS", neutralCUSIP},
	{"energy", "INVESCO EXCH TRADED FD TR II", "S&P500 ENERGY", neutralCUSIP},
	// Known fund tickers in a fund's name or class.
	{"s&p 500", "SPDR SER TR", "PORTFOLIO SPLG", neutralCUSIP},
	{"energy", "ALPS ETF TR", "AMLP", neutralCUSIP},
	// The CUSIP list alone, under names no pattern catches, in both cases.
	{"cusip", "ISSUER A", "COM", "78462F103"},
	{"cusip", "ISSUER B", "COM", "464287200"},
	{"cusip", "ISSUER C", "COM", "922908363"},
	{"cusip", "ISSUER D", "COM", "922908710"},
	{"cusip", "ISSUER E", "COM", "922908108"},
	{"cusip", "ISSUER F", "COM", "78464A854"},
	{"cusip", "ISSUER G", "COM", "46137V357"},
	{"cusip", "ISSUER H", "COM", "78355W106"},
	{"cusip", "ISSUER I", "COM", "78463V107"},
	{"cusip", "ISSUER J", "COM", "464285105"},
	{"cusip", "ISSUER K", "COM", "464285204"},
	{"cusip", "ISSUER L", "COM", "98149E303"},
	{"cusip", "ISSUER M", "COM", "85207H104"},
	{"cusip", "ISSUER N", "COM", "81369Y506"},
	{"cusip", "ISSUER O", "COM", "92204A306"},
	{"cusip", "ISSUER P", "COM", "464287796"},
	{"cusip", "ISSUER Q", "COM", "78468R556"},
	{"cusip", "ISSUER R", "COM", "316092402"},
	{"cusip", "ISSUER S", "COM", "78462f103"},
	{"cusip", "ISSUER T", "COM", " 78463v107 "},
}

// mustKeep are ordinary securities whose names share words with redacted
// funds; the rule must leave them alone.
var mustKeep = []redactionCase{
	{"stock", "APPLE INC", "COM", "037833100"},
	{"stock", "GOLDMAN SACHS GROUP INC", "COM", "38141G104"},
	{"stock", "BARRICK GOLD CORP", "COM", "067901108"},
	{"stock", "NEWMONT CORP", "COM", "651639106"},
	{"stock", "ROYAL GOLD INC", "COM", "780287108"},
	{"stock", "NEXTERA ENERGY INC", "COM", "65339F101"},
	{"stock", "CHENIERE ENERGY INC", "COM NEW", "16411R208"},
	{"stock", "ENERGY TRANSFER L P", "COM UT LTD PTN", "29273V100"},
	{"stock", "OCCIDENTAL PETE CORP", "COM", "674599105"},
	{"stock", "OIL STS INTL INC", "COM", "678026105"},
	{"stock", "IMPERIAL OIL LTD", "COM NEW", "453038408"},
	{"stock", "EXXON MOBIL CORP", "COM", "30231G102"},
	{"stock", "S&P GLOBAL INC", "COM", "78409V104"},
	{"stock", "INVESCO QQQ TR", "UNIT SER 1", "46090E103"},
	{"stock", "ISHARES TR", "RUSSELL 2000 ETF", "464287655"},
	{"stock", "ISHARES TR", "CORE S&P MCP ETF", "464287507"},
	{"stock", "VANGUARD INDEX FDS", "TOTAL STK MKT", "922908769"},
	{"stock", "B2GOLD CORP", "COM", "11777Q209"},
	{"stock", "NU HLDGS LTD", "ORD SHS CL A", "G6683N103"},
	{"stock", "SOLV ENERGY INC", "COM SHS CL A", "78475V103"}, // real (Soros 2026Q2)
	{"stock", "CONSTELLATION ENERGY CORP", "COM", "21037T109"},
	{"stock", "KRANESHARES TRUST", "BOSERA MSCI CHIN", "500767736"},
}

func TestDefaultRedactionRemovesEveryCategory(t *testing.T) {
	for _, c := range mustRedact {
		if !defaultRedacts(c.issuer, c.title, c.cusip) {
			t.Errorf("defaultRedacts(%q, %q, %q) = false; want true (%s)", c.issuer, c.title, c.cusip, c.category)
		}
	}
	categories := map[string]bool{}
	for _, c := range mustRedact {
		categories[c.category] = true
	}
	for _, want := range []string{"s&p 500", "ucits", "gold", "energy", "cusip"} {
		if !categories[want] {
			t.Errorf("no synthetic row for category %q", want)
		}
	}
	if len(redactedCUSIPs) != 18 {
		t.Errorf("redactedCUSIPs has %d entries; the rule lists 18", len(redactedCUSIPs))
	}
	for cusip := range redactedCUSIPs {
		if !defaultRedacts("ISSUER", "COM", cusip) {
			t.Errorf("listed CUSIP %s not redacted", cusip)
		}
	}
}

func TestDefaultRedactionKeepsOrdinaryRows(t *testing.T) {
	for _, c := range mustKeep {
		if defaultRedacts(c.issuer, c.title, c.cusip) {
			t.Errorf("defaultRedacts(%q, %q, %q) = true; want false", c.issuer, c.title, c.cusip)
		}
	}
}

// TestRedactionRuleEveryPartIsNeeded plants the fault the tests above guard
// against: with any one part of the rule removed (a pattern or the CUSIP
// list), some row that must be redacted survives, so
// TestDefaultRedactionRemovesEveryCategory would fail.
func TestRedactionRuleEveryPartIsNeeded(t *testing.T) {
	survivors := func(patterns []redactionPattern, cusips map[string]string) []string {
		var out []string
		for _, c := range mustRedact {
			if !redactsWith(patterns, cusips, c.issuer, c.title, c.cusip) {
				out = append(out, c.issuer+" / "+c.title+" / "+c.cusip)
			}
		}
		return out
	}
	if s := survivors(defaultPatterns, redactedCUSIPs); len(s) != 0 {
		t.Fatalf("the full rule lets through %q", s)
	}
	for i, p := range defaultPatterns {
		weakened := append(append([]redactionPattern{}, defaultPatterns[:i]...), defaultPatterns[i+1:]...)
		if s := survivors(weakened, redactedCUSIPs); len(s) == 0 {
			t.Errorf("without pattern %q every synthetic row is still redacted: the tests would not notice its loss", p.name)
		}
	}
	if s := survivors(defaultPatterns, nil); len(s) == 0 {
		t.Error("without the CUSIP list every synthetic row is still redacted: the tests would not notice its loss")
	}
	// A rule weakened by case sensitivity must fail too.
	caseSensitive := func(issuer, title, cusip string) bool {
		if strings.ToUpper(issuer+title) != issuer+title {
			return false
		}
		return defaultRedacts(issuer, title, cusip)
	}
	caught := false
	for _, c := range mustRedact {
		if !caseSensitive(c.issuer, c.title, c.cusip) {
			caught = true
		}
	}
	if !caught {
		t.Error("a case-sensitive rule passes every synthetic row: add lower-case cases")
	}
}

func TestRedactionText(t *testing.T) {
	for _, tc := range []struct{ issuer, title, want string }{
		{"SPDR S&P 500 ETF TR", "TR UNIT", "SPDR S&P 500 ETF TR TR UNIT"},
		{"  spdr  s.&p.  500\u00a0etf\t", " tr\nunit ", "SPDR S &P 500 ETF TR UNIT"},
		{"", "", ""},
		{"...", "  ", ""},
		{"Société Générale", "ADR", "SOCIÉTÉ GÉNÉRALE ADR"},
	} {
		if got := redactionText(tc.issuer, tc.title); got != tc.want {
			t.Errorf("redactionText(%q, %q) = %q; want %q", tc.issuer, tc.title, got, tc.want)
		}
	}
}
