package bulkstore

import (
	"path/filepath"

	"github.com/edgar13f/edgar13f/internal/civil"
	"github.com/edgar13f/edgar13f/internal/parquetdir"
)

// The tables of a store: each is a directory of Hive-style partitions,
// <dir>/<table>/window=<name>/part-0.parquet.
const (
	FilingsTable  = "filings"           // one row per submission, sorted by filing order
	HoldingsTable = "holdings"          // information-table rows, sorted by filing order then row
	ByCUSIPTable  = "holdings_by_cusip" // the same rows, sorted by upper-case CUSIP first
)

// tables lists the three tables.
var tables = []string{FilingsTable, HoldingsTable, ByCUSIPTable}

const (
	partFile  = "part-0.parquet"     // the one file of a table partition
	metaDir   = "_partitions"        // <dir>/_partitions/<window>.json: committed partitions
	metaBuild = parquetdir.MetaBuild // the metadata inside a build
)

// PartitionPath returns the path of table's file for window under dir.
func PartitionPath(dir, table, window string) string {
	return filepath.Join(dir, table, "window="+window, partFile)
}

// FormatVersion is the layout version recorded in each partition. A
// partition of another version is ignored (and replaced by a re-import).
const FormatVersion = 2

// A Filing is one submission of the store: a row of filings.parquet.
//
// filings.parquet of a window is sorted by "filing order": (period, CIK,
// filing date, amendment number, accession).
type Filing struct {
	Period                civil.Day `parquet:"period,date"`      // cover's period of report
	CIK                   int64     `parquet:"cik"`              // filer CIK
	FilingDate            civil.Day `parquet:"filing_date,date"` // EDGAR filing date: it alone decides visibility
	AmendmentNo           int32     `parquet:"amendment_no"`     // 0 when none
	Accession             string    `parquet:"accession"`
	Form                  string    `parquet:"form,dict"` // 13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A
	IsAmendment           bool      `parquet:"is_amendment"`
	AmendmentType         string    `parquet:"amendment_type,dict"` // "", RESTATEMENT or NEW HOLDINGS
	ReportType            string    `parquet:"report_type,dict"`    // e.g. 13F HOLDINGS REPORT
	ManagerName           string    `parquet:"manager_name"`        // filing manager's name on the cover
	HasTotals             bool      `parquet:"has_totals"`          // the summary page gave both totals
	TableEntryTotal       int64     `parquet:"table_entry_total"`   // cover total of rows (as filed, before redaction)
	TableValueTotal       int64     `parquet:"table_value_total"`   // cover total of values, as filed
	OtherIncludedManagers int32     `parquet:"other_included_managers"`
	ConfidentialOmitted   bool      `parquet:"confidential_omitted"`
	TableRows             int64     `parquet:"table_rows"`  // INFOTABLE rows of the filing, redacted rows counted
	TableValue            int64     `parquet:"table_value"` // sum of their values as filed, redacted rows counted (saturating)
	Window                string    `parquet:"-"`           // the window (partition) the filing sits in; not stored in the file
}

// A Row is one information-table row of the store: a row of
// holdings.parquet and holdings_by_cusip.parquet. Its filing's period, CIK
// and filing date are repeated on the row so that engines can filter rows
// without a join.
//
// Encodings are chosen for decode speed as much as size: strings that
// repeat within a row group (issuer, CUSIP, ...) are dictionary-encoded, so
// a reader decompresses and copies each distinct value once per row group;
// integer columns are DELTA_BINARY_PACKED and not compressed again (Snappy
// gains little on bit-packed deltas and costs most of a scan's time).
type Row struct {
	CUSIPKey             string    `parquet:"cusip_key,dict"` // CUSIP in upper case: the lookup key
	Period               civil.Day `parquet:"period,date,dict"`
	CIK                  int64     `parquet:"cik,dict"`
	FilingDate           civil.Day `parquet:"filing_date,date,dict"`
	Accession            string    `parquet:"accession,dict"`
	RowNo                int32     `parquet:"row_no,delta,uncompressed"`       // 1-based position of the row in its filing's table
	SK                   int64     `parquet:"infotable_sk,delta,uncompressed"` // the SEC's INFOTABLE_SK
	NameOfIssuer         string    `parquet:"name_of_issuer,dict"`
	TitleOfClass         string    `parquet:"title_of_class,dict"`
	CUSIP                string    `parquet:"cusip,dict"`                   // as filed
	FIGI                 string    `parquet:"figi,dict"`                    // "" when blank
	Value                int64     `parquet:"value,delta,uncompressed"`     // as filed
	ValueUSD             int64     `parquet:"value_usd,delta,uncompressed"` // whole dollars by the filing date of the row's own filing
	Shares               int64     `parquet:"shares,delta,uncompressed"`    // SSHPRNAMT
	ShPrn                string    `parquet:"sh_prn,dict"`
	PutCall              string    `parquet:"put_call,dict"` // "", PUT or CALL
	InvestmentDiscretion string    `parquet:"investment_discretion,dict"`
	OtherManager         string    `parquet:"other_manager,dict"` // as filed; "" when blank
	VotingSole           int64     `parquet:"voting_sole,delta,uncompressed"`
	VotingShared         int64     `parquet:"voting_shared,delta,uncompressed"`
	VotingNone           int64     `parquet:"voting_none,delta,uncompressed"`
}

// A Meta describes one partition (its _partition.json).
type Meta struct {
	Format     int    `json:"format"`      // FormatVersion
	Window     string `json:"window"`      // window name
	From       string `json:"from"`        // first filing date covered, YYYY-MM-DD
	To         string `json:"to"`          // last filing date covered, YYYY-MM-DD
	Redaction  string `json:"redaction"`   // name of the redaction rule applied at import
	Filings    int    `json:"filings"`     // submissions
	Rows       int64  `json:"rows"`        // information-table rows stored
	Redacted   int64  `json:"redacted"`    // rows removed by redaction
	SourceSize int64  `json:"source_size"` // bytes of the imported zip
	ID         string `json:"id"`          // content hash of the import: changes when the partition is replaced
	// Sizes are the bytes of each table's part file, by table name, checked
	// when the partition is listed (absent from partitions imported before
	// they were recorded).
	Sizes map[string]int64 `json:"sizes,omitempty"`
}
