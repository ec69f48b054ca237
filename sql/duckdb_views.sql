-- DuckDB views over an edgar13f bulk store. Replace STORE_DIR with the
-- store's directory (the one holding filings/, holdings/, holdings_by_cusip/).
CREATE OR REPLACE VIEW filings AS
    SELECT * FROM read_parquet('STORE_DIR/filings/*/*.parquet', hive_partitioning = true);
CREATE OR REPLACE VIEW holdings AS
    SELECT * FROM read_parquet('STORE_DIR/holdings/*/*.parquet', hive_partitioning = true);
CREATE OR REPLACE VIEW holdings_by_cusip AS
    SELECT * FROM read_parquet('STORE_DIR/holdings_by_cusip/*/*.parquet', hive_partitioning = true);
