package companyfacts

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownConcept is returned (wrapped) by [Facts.Annual] for a concept
// that is neither an alias nor a tag the company used in a filing on or
// before asOf.
var ErrUnknownConcept = errors.New("unknown concept")

// A Kind says what a concept measures, and so which units it is read in.
type Kind int

// The kinds of concepts.
const (
	Money    Kind = iota + 1 // a duration in a currency (USD, or the filer's currency)
	Balance                  // an instant in a currency: a balance-sheet amount
	PerShare                 // a duration per share (USD/shares, or currency/shares)
	Shares                   // an instant count of shares
)

var kindNames = [...]string{"", "money", "balance", "per_share", "shares"}

// String returns the kind's snake_case name, e.g. "per_share".
func (k Kind) String() string {
	if k < Money || k > Shares {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// An Alias is a named concept and the tags that report it, in order of
// preference.
type Alias struct {
	Name     string
	Synonyms []string
	Kind     Kind
	Tags     []string // "taxonomy:Name"
}

// aliases are the concepts [Facts.Annual] knows by name. The tag lists
// cover the tags filers moved between over the years (revenue:
// SalesRevenueNet until 2018, Revenues, and
// RevenueFromContractWithCustomerExcludingAssessedTax under ASC 606) and the
// ifrs-full tags of 20-F filers. Earlier tags in a list win ties.
var aliases = []Alias{
	{Name: "revenue", Synonyms: []string{"sales"}, Kind: Money, Tags: []string{
		"us-gaap:Revenues",
		"us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
		"us-gaap:SalesRevenueNet",
		"us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax",
		"us-gaap:SalesRevenueGoodsNet",
		"us-gaap:SalesRevenueServicesNet",
		"us-gaap:RevenuesNetOfInterestExpense",
		"ifrs-full:Revenue",
		"ifrs-full:RevenueFromContractsWithCustomers",
	}},
	{Name: "cost_of_revenue", Kind: Money, Tags: []string{
		"us-gaap:CostOfRevenue",
		"us-gaap:CostOfGoodsAndServicesSold",
		"us-gaap:CostOfGoodsSold",
		"us-gaap:CostOfServices",
		"ifrs-full:CostOfSales",
	}},
	{Name: "gross_profit", Kind: Money, Tags: []string{
		"us-gaap:GrossProfit",
		"ifrs-full:GrossProfit",
	}},
	{Name: "rd_expense", Kind: Money, Tags: []string{
		"us-gaap:ResearchAndDevelopmentExpense",
		"us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost",
		"ifrs-full:ResearchAndDevelopmentExpense",
	}},
	{Name: "operating_income", Kind: Money, Tags: []string{
		"us-gaap:OperatingIncomeLoss",
		"ifrs-full:ProfitLossFromOperatingActivities",
	}},
	{Name: "net_income", Kind: Money, Tags: []string{
		"us-gaap:NetIncomeLoss",
		"us-gaap:ProfitLoss",
		"ifrs-full:ProfitLossAttributableToOwnersOfParent",
		"ifrs-full:ProfitLoss",
	}},
	{Name: "eps_basic", Kind: PerShare, Tags: []string{
		"us-gaap:EarningsPerShareBasic",
		"us-gaap:EarningsPerShareBasicAndDiluted",
		"ifrs-full:BasicEarningsLossPerShare",
	}},
	{Name: "eps_diluted", Synonyms: []string{"eps"}, Kind: PerShare, Tags: []string{
		"us-gaap:EarningsPerShareDiluted",
		"us-gaap:EarningsPerShareBasicAndDiluted",
		"ifrs-full:DilutedEarningsLossPerShare",
	}},
	{Name: "cash", Kind: Balance, Tags: []string{
		"us-gaap:CashAndCashEquivalentsAtCarryingValue",
		"us-gaap:Cash",
		"us-gaap:CashAndDueFromBanks",
		"us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents",
		"ifrs-full:CashAndCashEquivalents",
	}},
	{Name: "total_assets", Kind: Balance, Tags: []string{
		"us-gaap:Assets",
		"ifrs-full:Assets",
	}},
	{Name: "total_liabilities", Kind: Balance, Tags: []string{
		"us-gaap:Liabilities",
		"ifrs-full:Liabilities",
	}},
	{Name: "stockholders_equity", Synonyms: []string{"equity"}, Kind: Balance, Tags: []string{
		"us-gaap:StockholdersEquity",
		"us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",
		"ifrs-full:EquityAttributableToOwnersOfParent",
		"ifrs-full:Equity",
	}},
	{Name: "long_term_debt", Kind: Balance, Tags: []string{
		"us-gaap:LongTermDebtNoncurrent",
		"us-gaap:LongTermDebtAndCapitalLeaseObligations",
		"us-gaap:LongTermDebt",
		"ifrs-full:NoncurrentPortionOfNoncurrentBorrowings",
		"ifrs-full:LongtermBorrowings",
	}},
	{Name: "operating_cash_flow", Kind: Money, Tags: []string{
		"us-gaap:NetCashProvidedByUsedInOperatingActivities",
		"us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations",
		"ifrs-full:CashFlowsFromUsedInOperatingActivities",
	}},
	{Name: "capex", Kind: Money, Tags: []string{
		"us-gaap:PaymentsToAcquirePropertyPlantAndEquipment",
		"us-gaap:PaymentsToAcquireProductiveAssets",
		"us-gaap:PaymentsForCapitalImprovements",
		"ifrs-full:PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities",
	}},
	{Name: "shares_outstanding", Kind: Shares, Tags: []string{
		"us-gaap:CommonStockSharesOutstanding",
		"dei:EntityCommonStockSharesOutstanding",
		"ifrs-full:NumberOfSharesOutstanding",
	}},
}

// Aliases returns the concepts known by name, with their synonyms, kinds and
// ordered tag lists. The caller may modify the result.
func Aliases() []Alias {
	out := make([]Alias, len(aliases))
	for i, a := range aliases {
		a.Synonyms = append([]string(nil), a.Synonyms...)
		a.Tags = append([]string(nil), a.Tags...)
		out[i] = a
	}
	return out
}

// bareTaxonomies are searched, in this order, for a tag given without its
// taxonomy.
var bareTaxonomies = []string{"us-gaap", "ifrs-full", "dei"}

// concept is a resolved query concept.
type concept struct {
	name  string   // the alias name, or "taxonomy:Name"
	alias bool     // an alias: Kind decides the units
	kind  Kind     // for an alias
	tags  []string // candidate tags, "taxonomy:Name", in order
}

// resolve reads a concept: an alias or synonym (any case), a tag
// "taxonomy:Name", or a bare Name looked up in us-gaap, ifrs-full and dei.
// Whether a tag exists is decided later, on asOf.
func resolve(s string) (concept, error) {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	for _, a := range aliases {
		if low == a.Name || contains(a.Synonyms, low) {
			return concept{name: a.Name, alias: true, kind: a.Kind, tags: a.Tags}, nil
		}
	}
	tax, name, ok := strings.Cut(s, ":")
	if !ok {
		tax, name = "", s
	}
	if !ValidName(name) || ok && !ValidTaxonomy(tax) {
		return concept{}, fmt.Errorf("companyfacts: %w %q: not an alias, taxonomy:Name or Name", ErrUnknownConcept, s)
	}
	if ok {
		return concept{name: tax + ":" + name, tags: []string{tax + ":" + name}}, nil
	}
	c := concept{name: name}
	for _, t := range bareTaxonomies {
		c.tags = append(c.tags, t+":"+name)
	}
	return c, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ValidName reports whether s can be an XBRL element name as companyfacts
// prints it: a letter or '_' followed by letters, digits, '_', '-' or '.'.
func ValidName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case i > 0 && ('0' <= c && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// ValidTaxonomy reports whether s looks like a taxonomy prefix: lower-case
// letters, digits and '-'.
func ValidTaxonomy(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
