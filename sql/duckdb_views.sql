-- DuckDB views over an edgar13f bulk store. Replace STORE_DIR with the
-- store's directory (the one holding filings/, holdings/, holdings_by_cusip/).
--
-- Only committed windows are read: a window's commit record
-- (_partitions/<window>.json, layout version 2) is written after its three
-- table partitions are in place and moved aside before they are replaced,
-- so a window being imported is never seen half-imported.
CREATE OR REPLACE VIEW committed_windows AS
    SELECT "window" FROM read_json('STORE_DIR/_partitions/*.json',
        columns = {'format': 'INTEGER', 'window': 'VARCHAR'})
    WHERE "format" = 2;
CREATE OR REPLACE VIEW filings AS
    SELECT * FROM read_parquet('STORE_DIR/filings/*/*.parquet', hive_partitioning = true)
    WHERE "window" IN (SELECT "window" FROM committed_windows);
CREATE OR REPLACE VIEW holdings AS
    SELECT * FROM read_parquet('STORE_DIR/holdings/*/*.parquet', hive_partitioning = true)
    WHERE "window" IN (SELECT "window" FROM committed_windows);
CREATE OR REPLACE VIEW holdings_by_cusip AS
    SELECT * FROM read_parquet('STORE_DIR/holdings_by_cusip/*/*.parquet', hive_partitioning = true)
    WHERE "window" IN (SELECT "window" FROM committed_windows);
