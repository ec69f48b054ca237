-- One fact for every company at once, as known on a date: the rule of
-- package frames (Store.Frame) over the frames store, read through the
-- views of frames_views.sql.
--
-- Parameters (positional):
--   $1 as_of   DATE       facts filed on or before it, and no other, count
--   $2 tags    VARCHAR    'taxonomy:Name,...' in order, comma-separated (an
--                         alias's list; ties go to the earlier tag):
--                         frames.Concept gives it
--   $3 unit    VARCHAR    e.g. 'USD', 'USD/shares', 'shares'
--   $4 period  VARCHAR    'CY2023', 'CY2023Q4' or 'CY2023Q4I' (upper case)
--
-- One row per company in the frame, by CIK. Day counts are end - start + 1;
-- a year holds durations of 335-395 days whose midpoint (start + (end -
-- start) / 2, rounded down) is in the calendar year, a quarter durations
-- of 70-110 days whose midpoint is in the quarter, an instant period
-- instants within 45 days of the quarter's last day.
WITH params AS (
    SELECT $1::DATE AS as_of, string_split($2::VARCHAR, ',') AS tags, $3::VARCHAR AS unit,
           CAST(substr($4, 3, 4) AS INTEGER) AS yr,
           CASE WHEN length($4) >= 8 THEN CAST(substr($4, 8, 1) AS INTEGER) END AS q,
           length($4) = 9 AS instant
),
bounds AS (
    SELECT *,
           CASE WHEN q IS NULL THEN make_date(yr, 1, 1) ELSE make_date(yr, 3 * q - 2, 1) END AS p_from,
           CASE WHEN q IS NULL THEN make_date(yr, 12, 31) ELSE last_day(make_date(yr, 3 * q, 1)) END AS p_to,
           CASE WHEN q IS NULL THEN 365 WHEN instant THEN 0 ELSE 91 END AS nominal,
           CASE WHEN q IS NULL THEN 335 ELSE 70 END AS min_days,
           CASE WHEN q IS NULL THEN 395 ELSE 110 END AS max_days
    FROM params
),
v AS ( -- every company's facts of the tags, in the unit, filed by as_of, that fit
    SELECT f.cik, f.taxonomy || ':' || f.tag AS tag, f.start, f."end", f.value_text, f.value, f.accn, f.form, f.filed,
           list_position(b.tags, f.taxonomy || ':' || f.tag) AS tag_rank,
           abs(f."end" - b.p_to) AS end_diff,
           CASE WHEN f.start IS NULL THEN 0 ELSE abs((f."end" - f.start) + 1 - b.nominal) END AS day_diff
    FROM frame_facts f, bounds b
    WHERE list_contains(b.tags, f.taxonomy || ':' || f.tag)
      AND f.unit = b.unit
      AND f.filed <= b.as_of
      AND CASE WHEN b.instant THEN f.start IS NULL AND abs(f."end" - b.p_to) <= 45
               ELSE f.start IS NOT NULL
                    AND (f."end" - f.start) + 1 BETWEEN b.min_days AND b.max_days
                    AND f.start + CAST(((f."end" - f.start) // 2) AS INTEGER) BETWEEN b.p_from AND b.p_to
          END
),
chosen AS ( -- the period closest to the calendar period
    SELECT cik, start, "end" FROM (
        SELECT cik, start, "end", row_number() OVER (PARTITION BY cik
            ORDER BY end_diff, day_diff, "end" DESC, start DESC NULLS LAST) AS rn
        FROM v)
    WHERE rn = 1
),
p AS (
    SELECT v.* FROM v JOIN chosen c ON v.cik = c.cik AND v."end" = c."end" AND v.start IS NOT DISTINCT FROM c.start
),
known AS ( -- the value as known: greatest (filed, accn), then the earlier tag
    SELECT * FROM (
        SELECT *, row_number() OVER (PARTITION BY cik ORDER BY filed DESC, accn DESC, tag_rank, value_text) AS rn FROM p)
    WHERE rn = 1
),
firstrep AS ( -- the first reported: smallest (filed, accn) of the same tag
    SELECT * FROM (
        SELECT p.*, row_number() OVER (PARTITION BY p.cik ORDER BY p.filed, p.accn, p.value_text) AS rn
        FROM p JOIN known k ON p.cik = k.cik AND p.tag = k.tag)
    WHERE rn = 1
)
SELECT lpad(CAST(k.cik AS VARCHAR), 10, '0') AS cik,
       e.entity_name,
       k.tag,
       k.start AS period_start,
       k."end" AS period_end,
       k.value_text AS value,
       k.value AS value_double,
       k.accn AS accession_number,
       k.form,
       k.filed,
       f.value_text AS first_reported_value,
       f.accn AS first_reported_accession,
       f.filed AS first_reported_filed,
       (k.value_text <> f.value_text AND k.value <> f.value) AS restated
FROM known k
JOIN firstrep f ON f.cik = k.cik
LEFT JOIN frame_entities e ON e.cik = k.cik
ORDER BY k.cik;
