package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"strconv"
	"strings"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
	"github.com/edgar13f/edgar13f/frames"
)

// The commands answered from XBRL company facts, every company at once
// (package frames).
func init() {
	commands = append(commands,
		command{
			name: "frame", args: "CONCEPT PERIOD", positional: 2,
			about: "Print one XBRL fact for every company at once as known on --as-of: for each company the\n" +
				"value of the period closest to PERIOD among its facts filed by then, as first reported\n" +
				"and whether it was restated. CONCEPT is an alias (net_income, revenue, eps_diluted,\n" +
				"total_assets, ...) or a tag (us-gaap:NetIncomeLoss); PERIOD is CY2023 (a year), CY2023Q4\n" +
				"(a quarter) or CY2023Q4I (an instant). With nothing imported, EDGAR's companyfacts.zip\n" +
				"is imported first (about 1.3 GB; asked for first, see --yes and \"edgar13f frames\").\n" +
				"--format parquet writes an Apache Parquet file to standard output.",
			examples: "  edgar13f frame net_income CY2009 --as-of 2010-02-01\n" +
				"  edgar13f frame total_assets CY2023Q4I --as-of 2024-11-30 --order value_desc --max 10 --format csv\n",
			flags: func(fs *flag.FlagSet, o *opts) {
				fs.StringVar(&o.unit, "unit", "", "unit of the values (default USD; USD/shares per share; shares for share counts)")
				fs.IntVar(&o.limit, "max", 0, "most companies printed after ordering (1-10000, default 100)")
				fs.StringVar(&o.order, "order", "", "cik (default) or value_desc")
				fs.BoolVar(&o.showProgress, "progress", false, "report an import on stderr even when it is not a terminal")
				framesYesFlag(fs, o)
			},
			run: runFrame,
		},
		command{
			name: "frames", args: "sync", positional: 1,
			about: "Import XBRL company facts for \"edgar13f frame\" into the cache directory as Parquet:\n" +
				"EDGAR's bulk companyfacts.zip (about 1.3 GB), or with --companies the companyfacts\n" +
				"API documents of those companies only. Each import replaces the one before.",
			examples: "  edgar13f frames sync --yes\n  edgar13f frames sync --companies 320193,1045810\n",
			flags: func(fs *flag.FlagSet, o *opts) {
				fs.Var(listFlag{&o.companies, "CIK"}, "companies", "import only these companies' facts (CIKs, repeat or separate with commas)")
				fs.BoolVar(&o.showProgress, "progress", false, "draw the progress bar even when stderr is not a terminal")
				framesYesFlag(fs, o)
			},
			run: runFramesSync,
		},
	)
}

// framesYesFlag defines --yes for the frames commands.
func framesYesFlag(fs *flag.FlagSet, o *opts) {
	fs.BoolVar(&o.yes, "yes", false, "download EDGAR's companyfacts.zip (about 1.3 GB) without asking (needed when stdin is not a terminal)")
}

// confirmFrames asks before downloading the bulk file from EDGAR (not from
// a mirror tree), as ask does for the Data Sets.
func confirmFrames(name string, o *opts) frames.ImportOption {
	return frames.ConfirmImport(func(what string) error {
		if o.fixture != "" || o.yes || !strings.Contains(what, "GB") {
			return nil
		}
		return askFrames(name, what, os.Stdin, os.Stderr, isTerminal(os.Stdin) && isTerminal(os.Stderr))
	})
}

// askFrames says what name is about to download and asks for a "y" when
// interactive; otherwise it fails, saying how to go on.
func askFrames(name, what string, in io.Reader, out io.Writer, interactive bool) error {
	if !interactive {
		if name == "frames sync" { // the import itself
			return usagef("%s needs %s: run again with --yes to download it", name, what)
		}
		return usagef("%s needs %s: run again with --yes to download it, or import it first with \"edgar13f frames sync --yes\"", name, what)
	}
	fmt.Fprintf(out, "%s needs %s. Download it? [y/N] ", name, what)
	line, _ := bufio.NewReader(in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		return nil
	}
	return errors.New("nothing downloaded: the download was not confirmed")
}

// framesBar draws import progress on o.progress (nil: nothing).
func framesBar(o *opts) frames.ImportOption {
	last := ""
	return frames.ReportProgress(func(p edgar13f.Progress) {
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
		line := fmt.Sprintf("[%s%s] %s %s %3.0f%%", strings.Repeat("#", n), strings.Repeat(" ", width-n), p.Window, p.Stage, 100*frac)
		if line != last {
			o.progress.show(p.Stage, line, true)
			last = line
		}
	})
}

func runFrame(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	var fopts []frames.Option
	if o.set["unit"] {
		fopts = append(fopts, frames.Unit(o.unit))
	}
	if o.set["max"] {
		fopts = append(fopts, frames.Limit(o.limit))
	}
	if o.set["order"] {
		fopts = append(fopts, frames.Order(o.order))
	}
	f, err := wire.Importing[*frames.Store, *frames.Frame]{
		Store: func() (*frames.Store, error) { return frames.Open(c) },
		Ask: func(ctx context.Context, s *frames.Store) (*frames.Frame, error) {
			return s.Frame(ctx, args[0], args[1], o.asOfDate, fopts...)
		},
		NeedsImport: wire.FramesNeedImport,
		Sync: func(ctx context.Context, s *frames.Store) error {
			_, err := s.Sync(ctx, framesBar(o), confirmFrames("frame", o))
			endBar(o)
			return err
		},
	}.Answer(ctx)
	if err != nil {
		return nil, err
	}
	return frameResult{f}, nil
}

func runFramesSync(ctx context.Context, c *edgar13f.Client, o *opts, args []string) (result, error) {
	if args[0] != "sync" {
		return nil, usagef("unknown frames command %q (want sync)", args[0])
	}
	s, err := frames.Open(c)
	if err != nil {
		return nil, err
	}
	var r frames.ImportResult
	if len(o.companies) > 0 {
		r, err = s.SyncCompanies(ctx, o.companies, framesBar(o))
	} else {
		r, err = s.Sync(ctx, framesBar(o), confirmFrames("frames sync", o))
	}
	endBar(o)
	if err != nil {
		return nil, err
	}
	return framesSynced{r}, nil
}

type framesSynced struct{ r frames.ImportResult }

func (s framesSynced) cells() []string {
	return []string{s.r.Source, strconv.Itoa(s.r.Companies), strconv.FormatInt(s.r.Facts, 10), strconv.FormatInt(s.r.JSONBytes, 10),
		strconv.FormatInt(s.r.Bytes, 10), s.r.DataThrough.String()}
}

var framesSyncedColumns = []string{"source", "companies", "facts", "json_bytes", "store_bytes", "data_through"}

func (s framesSynced) table(w io.Writer) error {
	_, err := fmt.Fprintf(w, "Imported %s: %s companies, %s facts (%s bytes of JSON, %s bytes stored); data through %s.\n",
		s.r.Source, num(int64(s.r.Companies)), num(s.r.Facts), num(s.r.JSONBytes), num(s.r.Bytes), s.r.DataThrough)
	return err
}

func (s framesSynced) csv(w io.Writer) error {
	return writeCSV(w, framesSyncedColumns, [][]string{s.cells()})
}

func (s framesSynced) json(w io.Writer) error {
	c := s.cells()
	_, err := fmt.Fprintf(w, `{"status":"ok","source":%q,"companies":%s,"facts":%s,"json_bytes":%s,"store_bytes":%s,"data_through":%q}`+"\n",
		c[0], c[1], c[2], c[3], c[4], c[5])
	return err
}

type frameResult struct{ f *frames.Frame }

func (r frameResult) json(w io.Writer) error { return wire.WriteFrame(w, r.f) }

// rows are the frame's companies as export rows.
func (r frameResult) rows() iter.Seq2[frames.PanelRow, error] {
	return func(yield func(frames.PanelRow, error) bool) {
		for _, c := range r.f.Companies {
			if !yield(frames.PanelRow{Concept: r.f.Concept, Period: r.f.Period, Unit: r.f.Unit, AsOf: r.f.AsOf, Company: c}, nil) {
				return
			}
		}
	}
}

func (r frameResult) csv(w io.Writer) error {
	_, err := frames.WriteCSV(w, r.rows())
	return err
}

func (r frameResult) parquet(w io.Writer) error {
	_, err := frames.WriteParquet(w, r.rows())
	return err
}

// decimal formats a decimal text with thousands separators in its whole
// part.
func decimal(v string) string {
	whole, frac, hasFrac := strings.Cut(v, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return v
	}
	s := num(n)
	if whole == "-0" {
		s = "-0"
	}
	if hasFrac {
		s += "." + frac
	}
	return s
}

func (r frameResult) table(w io.Writer) error {
	f := r.f
	shown := ""
	if f.Truncated {
		shown = fmt.Sprintf(", %d shown", len(f.Companies))
	}
	fmt.Fprintf(w, "%s for %s in %s as of %s: %d companies%s (data through %s%s).\n", f.Concept, f.Period, f.Unit, f.AsOf,
		f.TotalCompanies, shown, f.DataThrough, map[bool]string{true: "", false: "; NOT complete for this date"}[f.Complete])
	if len(f.Companies) == 0 {
		return nil
	}
	g := &grid{head: []string{"CIK", "ENTITY", "TAG", "START", "END", "VALUE", "ACCESSION", "FORM", "FILED", "FIRST REPORTED", "RESTATED"},
		right: []bool{false, false, false, false, false, true, false, false, false, true, false}}
	for _, c := range f.Companies {
		start := ""
		if !c.PeriodStart.IsZero() {
			start = c.PeriodStart.String()
		}
		g.add(c.CIK, c.EntityName, c.Tag, start, c.PeriodEnd.String(), decimal(c.Value), c.Accession, c.Form, c.Filed.String(),
			decimal(c.FirstReportedValue), map[bool]string{true: "yes", false: ""}[c.Restated])
	}
	return g.write(w)
}
