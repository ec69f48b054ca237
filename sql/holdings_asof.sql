-- Effective 13F holdings as they could be known on a date, over an
-- edgar13f bulk store (SEC Form 13F Data Sets in Parquet).
--
-- Parameters (positional, in this order):
--   1. as_of   DATE    knowledge date: only filings with filing_date <= as_of count
--   2. period  DATE    period of report (a calendar quarter end)
--   3. cik     BIGINT  one manager, or NULL for every manager (the panel)
--
-- Needs the views filings and holdings (see README.md for DuckDB, Spark and
-- Trino). Returns every row of each manager's effective holdings: the rows of
-- the base (the last original or restatement) then those of each NEW
-- HOLDINGS amendment filed after it, each filing's rows in filed order,
-- exactly as filed, with value_usd. A manager with no base (nothing filed
-- yet, only a notice, or only new-holdings amendments) has no rows.
--
-- The amendment rule: V = the visible 13F-HR and 13F-HR/A filings of the
-- manager for the period, sorted by (filing date, amendment number with none
-- first, accession); base = the last ORIGINAL (13F-HR) or RESTATEMENT
-- (13F-HR/A whose amendment type is not NEW HOLDINGS, an unspecified type
-- counting as a restatement); supplements = the NEW HOLDINGS of V after base.
WITH params AS (
    SELECT CAST(? AS DATE) AS as_of, CAST(? AS DATE) AS period, CAST(? AS BIGINT) AS cik
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
      AND (p.cik IS NULL OR f.cik = p.cik)
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
    SELECT o.cik, o.accession, o.seq - b.base_seq AS source_rank,
           bo.accession AS base_accession
    FROM ordered o
    JOIN base b ON b.cik = o.cik
    JOIN ordered bo ON bo.cik = b.cik AND bo.seq = b.base_seq
    WHERE o.seq = b.base_seq OR (o.seq > b.base_seq AND o.kind = 'NEW HOLDINGS')
)
SELECT s.cik, s.base_accession, h.accession, h.filing_date, s.source_rank, h.row_no,
       h.name_of_issuer, h.title_of_class, h.cusip, h.figi, h.value, h.value_usd,
       h.shares, h.sh_prn, h.put_call, h.investment_discretion, h.other_manager,
       h.voting_sole, h.voting_shared, h.voting_none
FROM sources s
CROSS JOIN params p
JOIN holdings h ON h.accession = s.accession AND h.cik = s.cik AND h.period = p.period
ORDER BY s.cik, s.source_rank, h.row_no;
