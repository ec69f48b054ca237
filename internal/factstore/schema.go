// Package factstore keeps EDGAR's XBRL company facts (the companyfacts
// JSON of every filer, from the bulk companyfacts.zip or the per-company
// API) as Apache Parquet files laid out for engines (DuckDB, Spark, Trino)
// and for point-in-time lookups from Go (package frames applies the rule).
//
// # Layout
//
// A store is a directory holding one snapshot, replaced whole by each
// import:
//
//	<dir>/facts/part-<n>.parquet   one row per fact occurrence ([Fact])
//	<dir>/entities/part-0.parquet  one row per company ([Entity])
//	<dir>/tags/part-0.parquet      one row per (taxonomy, tag, unit) ([Tag])
//	<dir>/_snapshot.json           the commit record ([Meta])
//
// facts is cut into parts by a hash of taxonomy:tag (the number of parts
// grows with the size of the source, about one per 64 MiB of JSON), and
// each part is sorted by (taxonomy, tag, unit, cik, end, start, filed,
// accn) in row groups of 32Ki rows: a question about one tag reads one
// part, and of it only the row groups whose tag statistics hold the tag.
// An engine reads facts/*.parquet. value_text is the value exactly as
// filed (the JSON number's text); value is the same number as a float.
//
// # Import
//
// [Store.Import] reads the members (one companyfacts JSON each) one at a
// time, and each member one token at a time with encoding/json's Decoder:
// no JSON document is ever held in memory whole. Facts are spilled in a
// compact encoding to one file per part; then each part is sorted in
// memory and written. The snapshot is built under <dir>/.staging and
// moved into place by the journal of package parquetdir (the one the Form
// 13F Data Sets store uses): a reader sees the old snapshot or the new
// one, and a crash at any point leaves one of them whole.
//
// # Damage
//
// When a snapshot is first read, its files are checked against the sizes
// its commit record gives and for the Parquet magic bytes and footer
// length at their ends; a damaged snapshot is moved aside into
// <dir>/.quarantine/ (commit record first) and the store is then empty
// until the next import.
package factstore

import (
	"path/filepath"

	"github.com/edgar13f/edgar13f/internal/civil"
)

// The tables of a store.
const (
	FactsTable    = "facts"
	EntitiesTable = "entities"
	TagsTable     = "tags"
)

var tables = []string{FactsTable, EntitiesTable, TagsTable}

const (
	metaFile     = "_snapshot.json"
	snapshotName = "snapshot"
)

// FormatVersion is the layout version recorded in the commit record; a
// snapshot of another version is not read.
const FormatVersion = 1

// PartPath returns the path of part n of table under dir.
func PartPath(dir, table string, n int) string {
	return filepath.Join(dir, table, partName(n))
}

func partName(n int) string {
	const digits = "0123456789"
	b := []byte("part-00000.parquet")
	for i := 9; i >= 5 && n > 0; i-- {
		b[i] = digits[n%10]
		n /= 10
	}
	return string(b)
}

// A Fact is one fact occurrence: a row of facts. The same fact reported
// by several filings (a comparative, a restatement) is one row per filing.
type Fact struct {
	Taxonomy  string    `parquet:"taxonomy,dict"` // us-gaap, ifrs-full, dei, srt, ...
	Tag       string    `parquet:"tag,dict"`      // the element name, e.g. NetIncomeLoss
	Unit      string    `parquet:"unit,dict"`     // USD, USD/shares, shares, pure, ...
	CIK       int64     `parquet:"cik"`
	Start     civil.Day `parquet:"start,date,optional"` // null (0) for an instant
	End       civil.Day `parquet:"end,date"`
	ValueText string    `parquet:"value_text"` // the value exactly as filed
	Value     float64   `parquet:"value"`      // the same value as a float
	Accession string    `parquet:"accn,dict"`
	FY        int32     `parquet:"fy,optional"`      // fiscal year of the filing; null (0) when absent
	FP        string    `parquet:"fp,dict,optional"` // FY, Q1, ...; null ("") when absent
	Form      string    `parquet:"form,dict"`
	Filed     civil.Day `parquet:"filed,date"`
}

// An Entity is one company of the snapshot: a row of entities.
type Entity struct {
	CIK        int64  `parquet:"cik"`
	EntityName string `parquet:"entity_name"` // as EDGAR gives it today (not point in time)
}

// A Tag is one (taxonomy, tag, unit) of the snapshot: a row of tags.
type Tag struct {
	Taxonomy   string    `parquet:"taxonomy,dict"`
	Tag        string    `parquet:"tag"`
	Unit       string    `parquet:"unit,dict"`
	Facts      int64     `parquet:"facts"`            // fact occurrences
	FirstFiled civil.Day `parquet:"first_filed,date"` // the earliest filed date of them
	Part       int32     `parquet:"part"`             // the facts part that holds them
}

// Meta is the commit record of a snapshot.
type Meta struct {
	Format      int              `json:"format"`       // FormatVersion
	ID          string           `json:"id"`           // content hash: changes with every import of other content
	Source      string           `json:"source"`       // what was imported: a zip's name or "companyfacts API"
	SourceBytes int64            `json:"source_bytes"` // uncompressed JSON bytes read
	Companies   int              `json:"companies"`
	Facts       int64            `json:"facts"`
	Parts       int              `json:"parts"`        // files of facts
	DataThrough string           `json:"data_through"` // latest filed date, YYYY-MM-DD ("" when no facts)
	Sizes       map[string]int64 `json:"sizes"`        // bytes of every file, by path relative to the store
}
