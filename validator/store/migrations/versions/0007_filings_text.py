"""The filings' words, indexed: the office's search (``q``) finds a filing by a word of its
file name or of its text without reading any filing's bytes.

``submissions_text`` holds each filing's words, kept by the database itself (triggers), in
the transaction that records or purges the filing, whichever program writes it:

- SQLite: a full-text table (FTS5, its ``unicode61`` words) over ``submissions``' own
  columns (``content='submissions'``: the text is not stored twice), its ``rowid`` the
  filing's id;
- PostgreSQL: a table of ``tsvector`` (the ``simple`` configuration: words as written,
  lower-cased, no stemming), one row per filing, under a GIN index. Its words are split
  where SQLite's are (at every character that is not a letter or a digit), so the same
  search finds the same filings in both. Bytes that are not UTF-8 text give only the
  file name's words.

A filing's file name and bytes never change after it is recorded: the words are written
when it is recorded and taken away when it is purged. A later migration that remakes the
``submissions`` table on SQLite (as 0005 did) drops these triggers with it and must make
them again.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

SQLITE = [
    "CREATE VIRTUAL TABLE submissions_text USING fts5("
    "filename, content, content='submissions', content_rowid='id')",
    "INSERT INTO submissions_text (rowid, filename, content) "
    "SELECT id, filename, CAST(content AS TEXT) FROM submissions",
    """CREATE TRIGGER submissions_text_recorded AFTER INSERT ON submissions BEGIN
  INSERT INTO submissions_text (rowid, filename, content)
  VALUES (new.id, new.filename, CAST(new.content AS TEXT));
END""",
    """CREATE TRIGGER submissions_text_purged AFTER DELETE ON submissions BEGIN
  INSERT INTO submissions_text (submissions_text, rowid, filename, content)
  VALUES ('delete', old.id, old.filename, CAST(old.content AS TEXT));
END""",
]

#: A filing's words: its file name's and its text's; only its file name's where its bytes
#: are not UTF-8 text (a NUL byte, another encoding) or its words more than a ``tsvector``
#: holds (1 MB), so that recording a filing never fails for its words.
POSTGRESQL_WORDS = """
CREATE FUNCTION submissions_words(filename text, content bytea) RETURNS tsvector
LANGUAGE plpgsql AS $$
BEGIN
  RETURN to_tsvector('simple', regexp_replace(
    filename || ' ' || convert_from(content, 'UTF8'), '[^[:alnum:]]+', ' ', 'g'));
EXCEPTION WHEN others THEN
  RETURN to_tsvector('simple', regexp_replace(filename, '[^[:alnum:]]+', ' ', 'g'));
END $$
"""

POSTGRESQL = [
    POSTGRESQL_WORDS,
    "CREATE TABLE submissions_text ("
    "id integer PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE, "
    "words tsvector NOT NULL)",
    "INSERT INTO submissions_text (id, words) "
    "SELECT id, submissions_words(filename, content) FROM submissions",
    "CREATE INDEX submissions_text_words ON submissions_text USING gin (words)",
    """CREATE FUNCTION submissions_text_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO submissions_text (id, words)
  VALUES (NEW.id, submissions_words(NEW.filename, NEW.content));
  RETURN NEW;
END $$""",
    "CREATE TRIGGER submissions_text_recorded AFTER INSERT ON submissions "
    "FOR EACH ROW EXECUTE FUNCTION submissions_text_recorded()",
]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for statement in POSTGRESQL if dialect == "postgresql" else SQLITE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER submissions_text_recorded ON submissions")
        op.execute("DROP FUNCTION submissions_text_recorded()")
        op.execute("DROP TABLE submissions_text")
        op.execute("DROP FUNCTION submissions_words(text, bytea)")
        return
    op.execute("DROP TRIGGER submissions_text_purged")
    op.execute("DROP TRIGGER submissions_text_recorded")
    op.execute("DROP TABLE submissions_text")
