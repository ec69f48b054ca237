-- Every holder of a security for a period, as it could be known on a date,
-- over an edgar13f bulk store (SEC Form 13F Data Sets in Parquet).
--
-- Parameters (positional, in this order):
--   1. as_of   DATE     knowledge date: only filings with filing_date <= as_of count
--   2. period  DATE     period of report (a calendar quarter end)
--   3. cusip   VARCHAR  the CUSIP, compared case-insensitively
--
-- Needs the views filings and holdings_by_cusip (see README.md). Each
-- manager's effective holdings are resolved as in holdings_asof.sql; the
-- answer has one row per (CIK, put/call, SH/PRN) among the rows holding the
-- CUSIP: manager name and base as on the base filing, the number of source
-- filings (base plus new-holdings supplements), summed shares and value_usd,
-- and the number of rows. Ordered by value_usd descending, then CIK,
-- put/call (none first), SH/PRN.
WITH params AS (
    SELECT CAST(? AS DATE) AS as_of, CAST(? AS DATE) AS period, UPPER(CAST(? AS VARCHAR)) AS cusip_key
),
visible AS (
    SELECT f.cik, f.accession, f.filing_date, f.manager_name,
           CASE WHEN f.form = '13F-HR' THEN 0 ELSE f.amendment_no END AS amendment_key,
           CASE WHEN f.form = '13F-HR' THEN 'ORIGINAL'
                WHEN f.amendment_type = 'NEW HOLDINGS' THEN 'NEW HOLDINGS'
                ELSE 'RESTATEMENT' END AS kind
    FROM filings f
    CROSS JOIN params p
    WHERE f.filing_date <= p.as_of
      AND f.period = p.period
      AND f.form IN ('13F-HR', '13F-HR/A')
      AND f.cik IN (SELECT h.cik FROM holdings_by_cusip h CROSS JOIN params q
                    WHERE h.cusip_key = q.cusip_key AND h.period = q.period AND h.filing_date <= q.as_of)
),
ordered AS (
    SELECT v.*,
           ROW_NUMBER() OVER (PARTITION BY v.cik ORDER BY v.filing_date, v.amendment_key, v.accession) AS seq
    FROM visible v
),
base AS (
    SELECT cik, MAX(seq) AS base_seq
    FROM ordered
    WHERE kind <> 'NEW HOLDINGS'
    GROUP BY cik
),
sources AS (
    SELECT o.cik, o.accession, b.base_seq,
           bo.accession AS base_accession, bo.filing_date AS base_filing_date, bo.manager_name
    FROM ordered o
    JOIN base b ON b.cik = o.cik
    JOIN ordered bo ON bo.cik = b.cik AND bo.seq = b.base_seq
    WHERE o.seq = b.base_seq OR (o.seq > b.base_seq AND o.kind = 'NEW HOLDINGS')
),
source_counts AS (
    SELECT cik, COUNT(*) AS sources FROM sources GROUP BY cik
)
SELECT s.cik, s.manager_name, s.base_accession, s.base_filing_date, c.sources,
       h.put_call, h.sh_prn,
       SUM(h.shares) AS shares, SUM(h.value_usd) AS value_usd, COUNT(*) AS row_count
FROM sources s
CROSS JOIN params p
JOIN source_counts c ON c.cik = s.cik
JOIN holdings_by_cusip h
  ON h.accession = s.accession AND h.cik = s.cik AND h.period = p.period AND h.cusip_key = p.cusip_key
GROUP BY s.cik, s.manager_name, s.base_accession, s.base_filing_date, c.sources, h.put_call, h.sh_prn
ORDER BY value_usd DESC, s.cik, h.put_call, h.sh_prn;
