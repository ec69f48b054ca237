-- DuckDB views over an edgar13f frames store (package frames). Replace
-- FRAMES_DIR with the store's directory (frames.Store.Dir: the one holding
-- facts/, entities/, tags/ and _snapshot.json).
--
-- An import replaces the three table directories by renames and commits by
-- writing _snapshot.json last; a query that runs during those renames may
-- fail (files gone) and can be run again. The views read only a store
-- whose commit record is present, of layout version 1.
CREATE OR REPLACE VIEW frame_snapshot AS
    SELECT * FROM read_json('FRAMES_DIR/_snapshot.json',
        columns = {'format': 'INTEGER', 'id': 'VARCHAR', 'data_through': 'VARCHAR', 'companies': 'BIGINT', 'facts': 'BIGINT'})
    WHERE "format" = 1;
CREATE OR REPLACE VIEW frame_facts AS
    SELECT * FROM read_parquet('FRAMES_DIR/facts/*.parquet')
    WHERE EXISTS (SELECT 1 FROM frame_snapshot);
CREATE OR REPLACE VIEW frame_entities AS
    SELECT * FROM read_parquet('FRAMES_DIR/entities/*.parquet')
    WHERE EXISTS (SELECT 1 FROM frame_snapshot);
CREATE OR REPLACE VIEW frame_tags AS
    SELECT * FROM read_parquet('FRAMES_DIR/tags/*.parquet')
    WHERE EXISTS (SELECT 1 FROM frame_snapshot);
