package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/datasets"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// The commands answered from SEC's Form 13F Data Sets.
func init() {
	commands = append(commands,
		command{
			name: "holders", args: "CUSIP", positional: 1, required: []string{"period"},
			about: "Print every manager holding a security (by CUSIP) for --period as known on --as-of,\n" +
				"largest value first, from SEC's Form 13F Data Sets. The windows the question needs\n" +
				"are imported first (about 100 MB each from EDGAR; more than one is asked for first, see\n" +
				"--yes and \"edgar13f datasets\").",
			examples: "  edgar13f holders 037833100 --period 2023-09-30 --as-of 2024-05-15\n" +
				"  edgar13f holders 037833100 --period 2023-09-30 --max 20 --format csv\n",
			flags: func(fs *flag.FlagSet, o *opts) {
				fs.StringVar(&o.period, "period", "", "period of report, a quarter end YYYY-MM-DD (required)")
				fs.IntVar(&o.limit, "max", 0, "most holders printed (1-500, default 100)")
				fs.BoolVar(&o.showProgress, "progress", false, "report imports on stderr even when it is not a terminal")
				yesFlag(fs, o)
			},
			run: runHolders,
		},
		command{
			name: "panel", args: "", positional: 0, required: []string{"period"},
			about: "Stream every manager's holdings for --period as known on --as-of, from SEC's Form 13F\n" +
				"Data Sets, one row per information-table row. --format parquet writes an Apache\n" +
				"Parquet file to standard output (redirect it to a file).",
			examples: "  edgar13f panel --period 2023-09-30 --as-of 2024-05-15 --format csv > panel.csv\n" +
				"  edgar13f panel --period 2023-09-30 --as-of 2024-05-15 --format parquet > panel.parquet\n",
			flags: func(fs *flag.FlagSet, o *opts) {
				fs.StringVar(&o.period, "period", "", "period of report, a quarter end YYYY-MM-DD (required)")
				fs.BoolVar(&o.showProgress, "progress", false, "report imports on stderr even when it is not a terminal")
				yesFlag(fs, o)
			},
			run: runPanel,
		},
		command{
			name: "datasets", args: "sync", positional: 1,
			about: "Import SEC's Form 13F Data Sets windows (one zip of about 100 MB per window of filing\n" +
				"dates) into the cache directory as Parquet, for holders and panel: every window\n" +
				"published that overlaps --from through --to and is not imported yet. A progress bar\n" +
				"is drawn on stderr on a terminal (or with --progress).",
			examples: "  edgar13f datasets sync --from 2023-01-01\n  edgar13f datasets sync --from 2024-01-01 --to 2024-12-31 --progress\n",
			flags: func(fs *flag.FlagSet, o *opts) {
				fs.StringVar(&o.from, "from", "", "first filing date to cover, YYYY-MM-DD (required)")
				fs.StringVar(&o.to, "to", "", "last filing date to cover (default: every window published)")
				fs.BoolVar(&o.showProgress, "progress", false, "draw the progress bar even when stderr is not a terminal")
				yesFlag(fs, o)
			},
			run: runSync,
		},
	)
}

// yesFlag defines --yes.
func yesFlag(fs *flag.FlagSet, o *opts) {
	fs.BoolVar(&o.yes, "yes", false, "download the Data Sets windows needed without asking (needed to download more than one from EDGAR when stdin is not a terminal)")
}

// windowBytes is about the size of one window's zip on EDGAR.
const windowBytes = 100 << 20

// ask is the import plan check of o for command name: a download of more
// than one window from EDGAR (not from a mirror tree) is said first, and
// needs a "y" on a terminal, or --yes.
func ask(name string, o *opts) datasets.ImportOption {
	return datasets.ConfirmImport(func(ws []datasets.Window) error {
		if o.fixture != "" || o.yes || len(ws) < 2 {
			return nil
		}
		return askImport(name, ws, os.Stdin, os.Stderr, isTerminal(os.Stdin) && isTerminal(os.Stderr))
	})
}

// askImport says what name is about to download and asks on out for a
// "y" read from in when interactive; otherwise it fails, saying how to
// go on.
func askImport(name string, ws []datasets.Window, in io.Reader, out io.Writer, interactive bool) error {
	first, last := ws[0], ws[len(ws)-1]
	plan := fmt.Sprintf("%s needs %d Form 13F Data Sets windows that are not imported yet (%s to %s, filings of %s to %s), about %s from EDGAR",
		name, len(ws), first.Name, last.Name, first.From, last.To, size(int64(len(ws))*windowBytes))
	if !interactive {
		if name == "datasets sync" { // the import itself
			return usagef("%s: run again with --yes to download them", plan)
		}
		return usagef("%s: run again with --yes to download them, or import them first with \"edgar13f datasets sync --from %s --to %s --yes\"",
			plan, first.From, last.To)
	}
	fmt.Fprintf(out, "%s. Download them? [y/N] ", plan)
	line, _ := bufio.NewReader(in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		return nil
	}
	return errors.New("nothing downloaded: the windows were not confirmed")
}

// size writes a byte count as MB or GB.
func size(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MB", n>>20)
}

// bar draws import progress on o.progress (nil: nothing), redrawing only
// when the line changes; a new window or stage is a new step.
func bar(o *opts) datasets.ImportOption {
	last := ""
	return datasets.ReportProgress(func(p edgar13f.Progress) {
		if o.progress == nil {
			return
		}
		const width = 20
		frac := 0.0
		if p.Total > 0 {
			frac = float64(p.Done) / float64(p.Total)
		}
		if p.Stage == "done" {
			frac = 1
		}
		n := int(frac * width)
		line := fmt.Sprintf("[%s%s] window %d/%d %s %s %3.0f%%", strings.Repeat("#", n), strings.Repeat(" ", width-n),
			p.Index, p.Count, p.Window, p.Stage, 100*frac)
		if line != last {
			o.progress.show(fmt.Sprintf("%d %s", p.Index, p.Stage), line, true)
			last = line
		}
	})
}

// endBar ends the progress report.
func endBar(o *opts) {
	if o.progress != nil {
		o.progress.end()
	}
}

func runSync(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	if args[0] != "sync" {
		return nil, usagef("unknown datasets command %q (want sync)", args[0])
	}
	if o.from == "" {
		return nil, usagef("missing --from")
	}
	from, err := edgar13f.ParseDate(o.from)
	if err != nil {
		return nil, usagef("--from must be a date YYYY-MM-DD, not %q", o.from)
	}
	var to edgar13f.Date
	if o.to != "" {
		if to, err = edgar13f.ParseDate(o.to); err != nil {
			return nil, usagef("--to must be a date YYYY-MM-DD, not %q", o.to)
		}
	}
	d, err := datasets.Open(c)
	if err != nil {
		return nil, err
	}
	res, err := d.Sync(ctx, from, to, bar(o), ask("datasets sync", o))
	endBar(o)
	if err != nil {
		return nil, err
	}
	cov, err := d.Coverage(ctx)
	return synced{res, cov}, err
}

// usagef reports a malformed argument as the library does.
func usagef(format string, a ...any) error {
	return edgar13f.Decline(edgar13f.InvalidArgument, format, a...)
}

func runHolders(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var hopts []datasets.HoldersOption
	if o.set["max"] {
		hopts = append(hopts, datasets.Limit(o.limit))
	}
	// The first Holders checks the arguments: a malformed question
	// imports nothing.
	l, err := wire.Importing[*datasets.Store, *datasets.HolderList]{
		Store: func() (*datasets.Store, error) { return datasets.Open(c) },
		Ask: func(ctx context.Context, d *datasets.Store) (*datasets.HolderList, error) {
			return d.Holders(ctx, args[0], o.periodDate, o.asOfDate, hopts...)
		},
		NeedsImport: wire.DatasetsNeedImport,
		Sync:        syncFor("holders", o),
	}.Answer(ctx)
	if err != nil {
		return nil, err
	}
	return holders{l}, nil
}

func runPanel(ctx context.Context, c *edgar13f.Client, o *opts, _ []string) (result, error) {
	return wire.Importing[*datasets.Store, result]{
		Store: func() (*datasets.Store, error) { return datasets.Open(c) },
		// A malformed period is declined before anything is imported.
		Check: func(ctx context.Context, d *datasets.Store) error {
			return checkPanel(ctx, d, o.periodDate, o.asOfDate)
		},
		Ask: func(ctx context.Context, d *datasets.Store) (result, error) {
			cov, err := d.Coverage(ctx)
			if err == nil {
				err = cov.Check(o.periodDate, o.asOfDate)
			}
			if err != nil {
				return nil, err
			}
			return panel{o.periodDate, o.asOfDate, cov, d.Panel(ctx, o.periodDate, o.asOfDate)}, nil
		},
		NeedsImport: wire.DatasetsNeedImport,
		Sync:        syncFor("panel", o),
	}.Answer(ctx)
}

// syncFor is the Sync of command name's question: the windows it needs,
// imported with o's progress bar and plan check.
func syncFor(name string, o *opts) func(context.Context, *datasets.Store) error {
	return func(ctx context.Context, d *datasets.Store) error {
		_, err := d.SyncFor(ctx, o.periodDate, o.asOfDate, bar(o), ask(name, o))
		endBar(o)
		return err
	}
}

// checkPanel declines a malformed panel question: the first pair of a
// panel on a store that cannot answer yet is the coverage error, and the
// checks of the arguments come before it.
func checkPanel(ctx context.Context, d *datasets.Store, period, asOf edgar13f.Date) error {
	var ce *datasets.CoverageError
	for _, err := range d.Panel(ctx, period, asOf) {
		if err != nil && !errors.As(err, &ce) {
			return err
		}
		break
	}
	return nil
}

type synced struct {
	res []datasets.ImportResult
	cov datasets.Coverage
}

func (s synced) table(w io.Writer) error {
	g := &grid{head: []string{"WINDOW", "FILINGS", "ROWS", "REDACTED", "ZIP_BYTES", "STORE_BYTES"}, right: []bool{false, true, true, true, true, true}}
	for _, r := range s.res {
		g.add(r.Window.Name, num(int64(r.Filings)), num(r.Rows), num(r.Redacted), num(r.ZipBytes), num(r.Bytes))
	}
	fmt.Fprintf(w, "Imported %d windows; %d in the store, %s.\n", len(s.res), len(s.cov.Windows), span(s.cov.DataFrom, s.cov.DataThrough))
	if len(s.res) == 0 {
		return nil
	}
	return g.write(w)
}

func (s synced) rows() [][]string {
	var rows [][]string
	for _, r := range s.res {
		rows = append(rows, []string{r.Window.Name, r.Window.From.String(), r.Window.To.String(), strconv.Itoa(r.Filings),
			strconv.FormatInt(r.Rows, 10), strconv.FormatInt(r.Redacted, 10), strconv.FormatInt(r.ZipBytes, 10), strconv.FormatInt(r.Bytes, 10)})
	}
	return rows
}

func (s synced) csv(w io.Writer) error {
	return writeCSV(w, []string{"window", "from", "to", "filings", "rows", "redacted", "zip_bytes", "store_bytes"}, s.rows())
}

func (s synced) json(w io.Writer) error {
	var b strings.Builder
	b.WriteString(`{"status":"ok"`)
	for _, d := range []struct {
		key  string
		date edgar13f.Date
	}{{"data_from", s.cov.DataFrom}, {"data_through", s.cov.DataThrough}} {
		fmt.Fprintf(&b, ",%q:", d.key)
		if d.date.IsZero() {
			b.WriteString("null")
		} else {
			b.WriteString(strconv.Quote(d.date.String()))
		}
	}
	b.WriteString(`,"imported":[`)
	for i, r := range s.rows() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"window":%q,"from":%q,"to":%q,"filings":%s,"rows":%s,"redacted":%s,"zip_bytes":%s,"store_bytes":%s}`,
			r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])
	}
	b.WriteString("]}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// span describes the imported span.
func span(from, through edgar13f.Date) string {
	if through.IsZero() {
		return "nothing imported"
	}
	return fmt.Sprintf("data from %s through %s", from, through)
}

type holders struct{ l *datasets.HolderList }

func (h holders) json(w io.Writer) error { return wire.WriteHolders(w, h.l) }

func (h holders) table(w io.Writer) error {
	l := h.l
	fmt.Fprintf(w, "Holders of %s for %s as of %s: %d (%s%s).\n", l.CUSIP, l.Period, l.AsOf, l.TotalHolders,
		span(l.DataFrom, l.DataThrough), map[bool]string{true: "", false: "; NOT complete for this date"}[l.Complete])
	if len(l.Holders) == 0 {
		return nil
	}
	g := &grid{head: []string{"CIK", "MANAGER", "BASE", "FILED", "PUT/CALL", "SH/PRN", "SHARES", "VALUE_USD", "ROWS"},
		right: []bool{false, false, false, false, false, false, true, true, true}}
	for _, x := range l.Holders {
		g.add(x.CIK, x.ManagerName, x.Base.Accession, x.Base.FilingDate.String(), string(x.PutCall), string(x.ShPrn),
			num(x.Shares), num(x.ValueUSD), strconv.Itoa(len(x.Holdings)))
	}
	return g.write(w)
}

func (h holders) csv(w io.Writer) error {
	var rows [][]string
	for _, x := range h.l.Holders {
		var srcs []string
		for _, s := range x.Sources {
			srcs = append(srcs, s.Accession)
		}
		rows = append(rows, []string{x.CIK, x.ManagerName, x.Base.Accession, strings.Join(srcs, " "), x.Base.FilingDate.String(),
			string(x.PutCall), string(x.ShPrn), strconv.FormatInt(x.Shares, 10), strconv.FormatInt(x.ValueUSD, 10), strconv.Itoa(len(x.Holdings))})
	}
	return writeCSV(w, []string{"cik", "manager_name", "accession_number", "source_accessions", "filing_date", "put_call", "sh_prn", "shares", "value_usd", "rows"}, rows)
}

// panel is a streamed answer: each format reads the rows as it writes.
type panel struct {
	period, asOf edgar13f.Date
	cov          datasets.Coverage
	rows         iter.Seq2[datasets.PanelRow, error]
}

func (p panel) json(w io.Writer) error { return wire.WritePanel(w, p.period, p.asOf, p.cov, p.rows) }

// panelColumns are the columns of the table and CSV forms.
var panelColumns = []string{"cik", "base_accession", "accession_number", "filing_date", "cusip", "name_of_issuer", "title_of_class",
	"value", "value_usd", "shares_or_principal_amount", "sh_prn", "put_call"}

func panelCells(r *datasets.PanelRow) []string {
	return []string{r.CIK, r.Base, r.Accession, r.FilingDate.String(), r.CUSIP, r.NameOfIssuer, r.TitleOfClass,
		strconv.FormatInt(r.Value, 10), strconv.FormatInt(r.ValueUSD, 10), strconv.FormatInt(r.SharesOrPrincipal, 10), string(r.ShPrn), string(r.PutCall)}
}

// panelTable are the columns of the table form: a heading, the width of
// its cells (widened to the heading's) and whether they align right.
var panelTable = []struct {
	head  string
	width int
	right bool
}{
	{"CIK", 10, false}, {"BASE ACCESSION", 20, false}, {"ACCESSION", 20, false}, {"FILED", 10, false}, {"CUSIP", 9, false},
	{"ISSUER", 30, false}, {"CLASS", 12, false}, {"VALUE", 19, true}, {"VALUE ($)", 19, true}, {"AMOUNT", 15, true},
	{"SH/PRN", 6, false}, {"PUT/CALL", 8, false},
}

// panelLine is one line of the table form: each cell cut or padded to its
// column, two spaces between columns.
func panelLine(cells []string) string {
	var b strings.Builder
	for i, c := range panelTable {
		w := max(c.width, utf8.RuneCountInString(c.head))
		cell := []rune(cells[i])
		if len(cell) > w {
			cell = cell[:w]
		}
		pad := strings.Repeat(" ", w-len(cell))
		if i > 0 {
			b.WriteString("  ")
		}
		if c.right {
			b.WriteString(pad + string(cell))
		} else {
			b.WriteString(string(cell) + pad)
		}
	}
	return strings.TrimRight(b.String(), " ") + "\n"
}

// table writes fixed-width lines as the rows stream (a panel is never
// held whole, so columns are not measured), amounts with thousands
// separators.
func (p panel) table(w io.Writer) error {
	fmt.Fprintf(w, "Panel for %s as of %s (%s%s).\n", p.period, p.asOf, span(p.cov.DataFrom, p.cov.DataThrough),
		map[bool]string{true: "", false: "; NOT complete for this date"}[p.cov.Complete(p.period, p.asOf)])
	head := make([]string, len(panelTable))
	for i, c := range panelTable {
		head[i] = c.head
	}
	if _, err := io.WriteString(w, panelLine(head)); err != nil {
		return err
	}
	for r, err := range p.rows {
		if err != nil {
			return err
		}
		cells := []string{r.CIK, r.Base, r.Accession, r.FilingDate.String(), r.CUSIP, r.NameOfIssuer, r.TitleOfClass,
			num(r.Value), num(r.ValueUSD), num(r.SharesOrPrincipal), string(r.ShPrn), string(r.PutCall)}
		if _, err := io.WriteString(w, panelLine(cells)); err != nil {
			return err
		}
	}
	return nil
}

func (p panel) csv(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(panelColumns)
	for r, err := range p.rows {
		if err != nil {
			return err
		}
		if err := cw.Write(panelCells(&r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// parquetRow is one row of an exported panel.
type parquetRow struct {
	CIK                  int64  `parquet:"cik"`
	ManagerName          string `parquet:"manager_name,dict"`
	BaseAccession        string `parquet:"base_accession,dict"`
	Accession            string `parquet:"accession_number,dict"`
	FilingDate           int32  `parquet:"filing_date,date"`
	NameOfIssuer         string `parquet:"name_of_issuer,dict"`
	TitleOfClass         string `parquet:"title_of_class,dict"`
	CUSIP                string `parquet:"cusip,dict"`
	FIGI                 string `parquet:"figi,optional,dict"`
	Value                int64  `parquet:"value"`
	ValueUSD             int64  `parquet:"value_usd"`
	Shares               int64  `parquet:"shares_or_principal_amount"`
	ShPrn                string `parquet:"sh_prn,dict"`
	PutCall              string `parquet:"put_call,optional,dict"`
	InvestmentDiscretion string `parquet:"investment_discretion,dict"`
	OtherManager         string `parquet:"other_manager,optional,dict"`
	VotingSole           int64  `parquet:"voting_authority_sole"`
	VotingShared         int64  `parquet:"voting_authority_shared"`
	VotingNone           int64  `parquet:"voting_authority_none"`
}

// parquet streams the panel into an Apache Parquet file on w, in row
// groups of 64Ki rows, Snappy-compressed.
func (p panel) parquet(w io.Writer) error {
	pw := parquet.NewGenericWriter[parquetRow](w, parquet.Compression(&snappy.Codec{}), parquet.MaxRowsPerRowGroup(64<<10),
		parquet.KeyValueMetadata("period", p.period.String()), parquet.KeyValueMetadata("as_of", p.asOf.String()),
		parquet.KeyValueMetadata("data_from", p.cov.DataFrom.String()),
		parquet.KeyValueMetadata("data_through", p.cov.DataThrough.String()),
		parquet.KeyValueMetadata("complete", strconv.FormatBool(p.cov.Complete(p.period, p.asOf))))
	buf := make([]parquetRow, 0, 1024)
	flush := func() error {
		_, err := pw.Write(buf)
		buf = buf[:0]
		return err
	}
	for r, err := range p.rows {
		if err != nil {
			return err
		}
		cik, _ := strconv.ParseInt(r.CIK, 10, 64)
		f := r.FilingDate
		buf = append(buf, parquetRow{CIK: cik, ManagerName: r.ManagerName, BaseAccession: r.Base, Accession: r.Accession,
			FilingDate:   int32(time.Date(f.Year, f.Month, f.Day, 0, 0, 0, 0, time.UTC).Unix() / 86400),
			NameOfIssuer: r.NameOfIssuer, TitleOfClass: r.TitleOfClass, CUSIP: r.CUSIP, FIGI: r.FIGI, Value: r.Value, ValueUSD: r.ValueUSD,
			Shares: r.SharesOrPrincipal, ShPrn: string(r.ShPrn), PutCall: string(r.PutCall), InvestmentDiscretion: r.InvestmentDiscretion,
			OtherManager: r.OtherManager, VotingSole: r.VotingSole, VotingShared: r.VotingShared, VotingNone: r.VotingNone})
		if len(buf) == cap(buf) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return pw.Close()
}
