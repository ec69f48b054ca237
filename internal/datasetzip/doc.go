// Package datasetzip reads the SEC Form 13F Data Sets: one zip per window of
// filing dates holding every 13F filing of the window as tab-separated
// tables (SUBMISSION, COVERPAGE, SUMMARYPAGE, INFOTABLE, OTHERMANAGER,
// OTHERMANAGER2, SIGNATURE).
//
// # Windows
//
// Files are keyed by filing date: calendar quarters 2013q2 to 2023q4
// ("2023q4_form13f.zip"), then the two-month 01jan2024-29feb2024, then
// three-month windows starting in March, June, September and December
// ("01mar2026-31may2026_form13f.zip"), with no gaps and no overlaps. A
// window mixes report periods: late filings and amendments of old quarters
// sit in the window of their filing date. [ParseWindow], [WindowOf] and
// [Window.Next] implement the calendar; [ParseLandingPage] reads the SEC
// page that links every zip (the links are taken from the page because the
// files live under more than one folder).
//
// # Format
//
// Members are matched by base name (they sit at the zip root or under a
// folder). Each table has one header line, checked column by column
// against [Columns]; lines end in LF (a CR before it is dropped); fields
// are split on tabs. A field containing '"' is wrapped in quotes with inner
// quotes doubled: a field that starts and ends with '"' is unwrapped and
// its `""` pairs turned into `"`; any other field, one with an unmatched
// quote included, is kept as it is. (encoding/csv is not used: with such a
// field it swallows the rest of the file.) Every row must have the
// header's number of fields. Dates are DD-MON-YYYY ("30-JUN-2025").
//
// Every error about a window's bytes is an [*Error] naming the window and,
// where it applies, the table and line: a corrupt or truncated zip (the
// member CRC is checked as it is read to its end), a missing table, an
// unknown header, a wrong field count, a malformed value.
//
// # Normalisation to the per-manager XML form
//
// The tables carry the fields of the filing's XML documents, but written
// differently. Readers here give them the form the XML path gives:
//
//   - PUTCALL is "Put"/"Call" in the tables and putCall is matched
//     case-insensitively by the XML path: both become "PUT"/"CALL"; blank
//     is "" (no option). Any other value is an error, as in the XML path.
//   - SSHPRNAMTTYPE becomes "SH"/"PRN" (upper case); anything else is an
//     error.
//   - INVESTMENTDISCRETION is upper-cased (SOLE, DFND, OTR).
//   - Blank columns are "" for text (FIGI, TITLEOFCLASS, OTHERMANAGER,
//     AMENDMENTTYPE, ...) and 0 for the voting columns, as absent elements
//     are in the XML path. VALUE and SSHPRNAMT are required.
//   - OTHERMANAGER is kept as filed. The tables show "0" on many
//     single-manager rows, but real XML tables carry a literal
//     <otherManager>0</otherManager> too and the XML path keeps it, so
//     turning "0" into "" would make the two sources disagree; a blank is
//     "" in both.
//   - Numbers may carry a decimal fraction, rounded half away from zero as
//     the XML path rounds; values are 64-bit (dollar-era values overflow 32
//     bits). VALUE is kept as filed (thousands before 2023-01-03, dollars
//     since); [ValueUSD] gives whole dollars by the row's own filing date.
//   - ISAMENDMENT is blank or "N" on originals and "Y" on amendments: only
//     "Y" is true. AMENDMENTNO blank is 0. AMENDMENTTYPE is upper-cased
//     with runs of white space collapsed, as the cover parser does.
//   - CIK is zero-padded in recent files and not in 2013 files: it is read
//     as a number.
//   - The period of report is REPORTCALENDARORQUARTER of the cover page,
//     else PERIODOFREPORT of SUBMISSION.
//   - Text fields lose surrounding white space, as XML text does.
//   - INFOTABLE_SK is the SEC's surrogate key, unique in a window and not a
//     line number; rows of one filing are kept in their order in the
//     table.
//   - Notices (13F-NT, 13F-NT/A) appear in SUBMISSION, COVERPAGE and
//     SIGNATURE only: they have no SUMMARYPAGE row and no INFOTABLE rows.
package datasetzip
