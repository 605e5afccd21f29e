"""The data version: one number that changes whenever data the site's pages show is written.

Pages, fragments and answers are cached under it (the cache framework's `version` argument) and their ETags are
made from it, so a write shows on the next request of every site process, and a client is told 304 until then.

How it changes: the database bumps it. A table of one row holds the number, and a trigger on each watched table
(each app names its own in `watch()`: runs, submissions, the catalogue, task validations, the board's settings)
bumps it in the transaction of every insert, update or delete. So the number changes when, and only when, such a
write commits, whoever made it: a model's save(), QuerySet.update() or bulk_create() (verification, curation and
uploads write that way), the admin, another process, SQL typed by hand. Reading it is one primary-key lookup.

Not chosen:
- Django signals bumping a number in the cache: QuerySet.update() and bulk_create() send none, and most of the
  writes that matter are made with them.
- Deriving the version from the data (counts and latest times over runs and submissions): exact, but an
  aggregate over every run on each request, about 230 ms with 200,000 runs.

Details:
- The number becomes max(number + 1, the time in microseconds): it only grows, also across a database restored
  from a backup, so a cache key or an ETag made earlier never comes back naming other data.
- SQLite runs one writer at a time, so a row trigger bumps at once. On PostgreSQL the bump is a deferred
  constraint trigger, run at commit once the transaction holds its other row locks (two writers never wait on
  each other through the one row: no deadlock), once a transaction (a bulk write fires it for every row), plus
  a statement trigger for TRUNCATE. So there, a transaction's own writes show in the number only once it
  commits: nothing is cached from inside one (requests do not run in a transaction).
- The table and triggers are made again after every `migrate` (post_migrate: `install`), not by a migration:
  Django rebuilds an SQLite table for most schema changes, dropping its triggers.
"""
from django.db import DEFAULT_DB_ALIAS, connections, transaction

TABLE = "gameworld_data_version"
_watched_tables = set()

SQLITE_NOW_US = "CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER)"
POSTGRESQL_NOW_US = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"
POSTGRESQL_BUMP = f"""
    CREATE OR REPLACE FUNCTION {TABLE}_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('gameworld.data_version_bumped', true) IS DISTINCT FROM 'yes' THEN
            PERFORM set_config('gameworld.data_version_bumped', 'yes', true);
            UPDATE {TABLE} SET number = GREATEST(number + 1, {POSTGRESQL_NOW_US}) WHERE id = 1;
        END IF;
        RETURN NULL;
    END $$"""


def watch(*models):
    """Name models whose writes change what the pages show (each app in its AppConfig.ready())."""
    _watched_tables.update(model._meta.db_table for model in models)


def current(using=DEFAULT_DB_ALIAS):
    """The data version: an integer that grows with every committed write to a watched table."""
    with connections[using].cursor() as cursor:
        cursor.execute(f"SELECT number FROM {TABLE} WHERE id = 1")
        return cursor.fetchone()[0]


def install(using=DEFAULT_DB_ALIAS, **kwargs):
    """Make the version's table and the triggers of the watched tables that exist (a post_migrate receiver)."""
    connection = connections[using]
    statements = {"sqlite": _sqlite_statements, "postgresql": _postgresql_statements}.get(connection.vendor)
    if statements is None:
        raise NotImplementedError(f"no data version triggers for {connection.vendor}: use SQLite or PostgreSQL")
    tables = sorted(_watched_tables & set(connection.introspection.table_names()))
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for statement in statements(tables, connection.ops.quote_name):
            cursor.execute(statement)


def _sqlite_statements(tables, quote):
    yield f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1), number INTEGER NOT NULL)"
    yield f"INSERT OR IGNORE INTO {TABLE} (id, number) VALUES (1, {SQLITE_NOW_US})"
    for table in tables:
        for event in ("INSERT", "UPDATE", "DELETE"):
            trigger = quote(f"{TABLE}_{table}_{event.lower()}")
            yield f"DROP TRIGGER IF EXISTS {trigger}"
            yield (f"CREATE TRIGGER {trigger} AFTER {event} ON {quote(table)} BEGIN "
                   f"UPDATE {TABLE} SET number = MAX(number + 1, {SQLITE_NOW_US}) WHERE id = 1; END")


def _postgresql_statements(tables, quote):
    yield f"CREATE TABLE IF NOT EXISTS {TABLE} (id integer PRIMARY KEY CHECK (id = 1), number bigint NOT NULL)"
    yield f"INSERT INTO {TABLE} (id, number) VALUES (1, {POSTGRESQL_NOW_US}) ON CONFLICT (id) DO NOTHING"
    yield POSTGRESQL_BUMP
    for table in tables:
        yield f"DROP TRIGGER IF EXISTS {TABLE} ON {quote(table)}"
        yield (f"CREATE CONSTRAINT TRIGGER {TABLE} AFTER INSERT OR UPDATE OR DELETE ON {quote(table)} "
               f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {TABLE}_bump()")
        yield f"DROP TRIGGER IF EXISTS {TABLE}_truncate ON {quote(table)}"  # row triggers miss a TRUNCATE
        yield (f"CREATE TRIGGER {TABLE}_truncate AFTER TRUNCATE ON {quote(table)} "
               f"FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_bump()")
