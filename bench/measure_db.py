"""Database benchmarks for Roster (run by `make bench-db`; never by `make test`).

Starts a throwaway PostgreSQL (initdb + pg_ctl on a private socket, as the
tests do) and an SQLite file under .build/bench-db, then:
  * generates PEOPLE people (default 1M) with `roster-gen --seed 42` and times
    `roster import` into each database (medians of IMPORT_RUNS fresh imports),
    beside each database's own floor in the same run (PostgreSQL: `COPY` of
    the same rows, and the trigram index alone; SQLite: the rows copied into
    a bare table);
  * makes MULTIPLIER× as many rows (default 10 → 10M) by SQL from those
    (INSERT … SELECT with the person key suffixed and positions shifted), with
    the browse index and the company summary, but no trigram index (building
    one over 10M rows would take longer than the whole run);
  * measures on both tables, medians of RUNS runs: a keyset window in the
    middle vs `OFFSET n/2 LIMIT 50` vs "fetch all then page" (the whole
    ordered table to the client, as psql/pgcli do before showing a page;
    PostgreSQL: COPY of the ordered rows to /dev/null); the overview from
    the summary table vs a live GROUP BY; a search that matches nobody;
  * the real binary on each table when `roster TARGET --list` works (the
    database browse path): `--list` throughput and peak RSS, and first frame
    in tmux through bench/measure.py's harness.
Writes the figures into bench/RESULTS.md, section "Databases" (make bench keeps it).
"""
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402  (the same harness and machine line as make bench)

ROOT = measure.ROOT
BIN = measure.BIN
DATA = os.path.join(ROOT, ".build/bench-db")
PEOPLE = int(os.environ.get("BENCH_DB_PEOPLE", "1000000"))
MULTIPLIER = int(os.environ.get("BENCH_DB_MULTIPLIER", "10"))
RUNS = int(os.environ.get("BENCH_DB_RUNS", "5"))
# Presses of j per launch of the app in tmux (CI's smoke run uses a few).
J_PRESSES = int(os.environ.get("BENCH_DB_KEYS", "100"))
# Saves by another process whose arrival on screen is timed (live updates).
LIVE_SAVES = int(os.environ.get("BENCH_DB_LIVE", "40"))
# Fresh `roster import`s of the same people into each database (the median is reported).
IMPORT_RUNS = int(os.environ.get("BENCH_DB_IMPORT_RUNS", "3"))
KEYS = "company_key, last_key, first_key, position, person_key"
ROW = "person_key, first_name, last_name, email, balance, company"
NO_MATCH = "%qqxzjv%"


def log(text):
    print(text, file=sys.stderr, flush=True)


class Postgres:
    """A throwaway server: trust auth on a private socket, durability off."""

    def __init__(self):
        versions = sorted((int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit()), reverse=True)
        self.bin = f"/usr/lib/postgresql/{versions[0]}/bin"
        self.directory = tempfile.mkdtemp(prefix="roster-pg-bench-", dir="/tmp")
        self.as_postgres = ["/usr/sbin/runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if self.as_postgres:
            subprocess.run(["chown", "postgres:postgres", self.directory], check=True)
        self.run([f"{self.bin}/initdb", "-D", self.directory + "/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--no-locale", "--no-sync"])
        settings = (f"-k {self.directory} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                    "-c full_page_writes=off -c shared_buffers=512MB -c maintenance_work_mem=512MB -c work_mem=64MB "
                    "-c max_wal_size=4GB -c jit=off")
        self.run([f"{self.bin}/pg_ctl", "-D", self.directory + "/data", "-l", self.directory + "/log", "-w", "-o",
                  settings, "start"])
        self.psql_sql("CREATE DATABASE bench", database="postgres")
        self.target = f"host={self.directory} user=postgres dbname=bench"

    def run(self, argv):
        subprocess.run(self.as_postgres + argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       cwd="/tmp")

    def psql_sql(self, sql, database="bench", capture=False):
        result = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", self.directory, "-U", "postgres",
                                 "-d", database, "-c", sql], check=True, capture_output=True, text=True)
        return result.stdout

    def timed(self, sql, runs):
        """Milliseconds of each of `runs` runs of `sql`, output discarded (psql \\timing)."""
        script = "\\timing on\n\\o /dev/null\n" + (sql.rstrip(";") + ";\n") * runs
        result = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", self.directory, "-U", "postgres",
                                 "-d", "bench"], input=script, check=True, capture_output=True, text=True)
        times = [float(line.split()[1]) for line in result.stdout.splitlines() if line.startswith("Time: ")]
        assert len(times) == runs, result.stdout + result.stderr
        return times

    def stop(self):
        subprocess.run(self.as_postgres + [f"{self.bin}/pg_ctl", "-D", self.directory + "/data", "-m", "immediate", "-w",
                                           "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/tmp")
        shutil.rmtree(self.directory, ignore_errors=True)


def imports(roster, source, pg, sqlite_path):
    """`roster import` of the same people, IMPORT_RUNS fresh runs into each
    database: the first into `people` (kept for the rest of the run), the
    others into a table or file of their own, dropped after. Each list is
    of (wall seconds, peak RSS MiB, exit status)."""
    pg_runs, sqlite_runs = [], []
    for run in range(IMPORT_RUNS):
        table = "people" if run == 0 else "people_again"
        log(f"importing {PEOPLE:,} people into PostgreSQL ({run + 1} of {IMPORT_RUNS}) ...")
        pg_runs.append(measure.run_measured([roster, "import", source, "--into", pg.target, "--table", table]))
        if run > 0:
            pg.psql_sql("DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables "
                        "WHERE tablename LIKE 'people\\_again%' LOOP EXECUTE format('DROP TABLE %I CASCADE', t); END LOOP; END $$")
        path = sqlite_path if run == 0 else os.path.join(DATA, "people-again.db")
        log(f"importing {PEOPLE:,} people into SQLite ({run + 1} of {IMPORT_RUNS}) ...")
        sqlite_runs.append(measure.run_measured([roster, "import", source, "--into", path]))
        if run > 0:
            for leftover in [path, path + "-wal", path + "-shm", path + "-journal"]:
                if os.path.exists(leftover):
                    os.remove(leftover)
    assert all(status == 0 for _, _, status in pg_runs + sqlite_runs), "import failed"
    return pg_runs, sqlite_runs


def import_references(pg, sqlite_path):
    """Each database's own floor for an import, in this run, on the rows
    `roster import` made: PostgreSQL's `COPY` of them into a bare table of
    the same columns (medians of IMPORT_RUNS; psql's whole run) and the
    trigram index alone on that table (once); SQLite copying them into a
    bare table of a new file in one transaction (`INSERT … SELECT`)."""
    rows = os.path.join(DATA, "rows.copy")
    pg.psql_sql(f"\\copy people TO '{rows}'")
    copies = []
    for _ in range(IMPORT_RUNS):
        pg.psql_sql("DROP TABLE IF EXISTS copy_reference; CREATE TABLE copy_reference (LIKE people)")
        wall, _, status = measure.run_measured(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", pg.directory, "-U", "postgres",
                                                "-d", "bench", "-c", f"\\copy copy_reference FROM '{rows}'"])
        assert status == 0, "COPY failed"
        copies.append(wall)
    log("the trigram index alone ...")
    gin = pg.timed("CREATE INDEX copy_reference_search ON copy_reference USING gin (search_text gin_trgm_ops)", 1)[0] / 1000
    pg.psql_sql("DROP TABLE copy_reference")
    os.remove(rows)
    copy_path = sqlite_path + ".copy"
    sqlite_copies = []
    for _ in range(IMPORT_RUNS):
        if os.path.exists(copy_path):
            os.remove(copy_path)
        database = sqlite3.connect(copy_path, isolation_level=None)
        started = time.perf_counter()
        database.execute("ATTACH DATABASE ? AS imported", (sqlite_path,))
        database.execute("BEGIN")
        database.execute("CREATE TABLE copy_reference AS SELECT * FROM imported.people")
        database.execute("COMMIT")
        sqlite_copies.append(time.perf_counter() - started)
        database.close()
    os.remove(copy_path)
    return {"copy": statistics.median(copies), "gin": gin, "sqlite_copy": statistics.median(sqlite_copies)}


def columns_of(pg):
    return pg.psql_sql("SELECT string_agg(attname, ', ' ORDER BY attnum) FROM pg_attribute "
                       "WHERE attrelid = 'people'::regclass AND attnum > 0 AND NOT attisdropped").strip()


def totals_query(table):
    return (f"SELECT company_key, min(company), count(*), count(*) FILTER (WHERE is_active), count(balance_cents), "
            f"coalesce(sum(balance_cents >> 32), 0), coalesce(sum(balance_cents & 4294967295), 0), count(age), "
            f"coalesce(sum(age), 0) FROM {table} GROUP BY company_key")


def multiplied_select(columns, source, sqlite):
    """Every row of `source` MULTIPLIER times: person_key suffixed, position shifted."""
    shifted = []
    for column in columns.split(", "):
        if column == "person_key":
            shifted.append("person_key || '~' || k")
        elif column == "row_id":
            # PostgreSQL's row number (SQLite's is its own rowid): unique per copy.
            shifted.append("row_id + k * 1000000000000")
        elif column == "position":
            shifted.append(f"position + k * {PEOPLE}")
        else:
            shifted.append(column)
    if sqlite:
        series = f"(WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s WHERE k < {MULTIPLIER - 1}) SELECT k FROM s)"
    else:
        series = f"generate_series(0, {MULTIPLIER - 1}) AS s(k)"
    return f"SELECT {', '.join(shifted)} FROM {source}, {series}"


def build_big_postgres(pg, columns):
    big = f"people_x{MULTIPLIER}"
    started = time.perf_counter()
    pg.psql_sql(f"CREATE TABLE {big} (LIKE people INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")
    pg.psql_sql(f"INSERT INTO {big} ({columns}) {multiplied_select(columns, 'people', sqlite=False)}")
    pg.psql_sql(f"ALTER TABLE {big} ADD PRIMARY KEY (person_key)")
    pg.psql_sql(f"CREATE UNIQUE INDEX {big}_row_id ON {big} (row_id)")
    pg.psql_sql(f"CREATE INDEX {big}_browse ON {big} ({KEYS})")
    pg.psql_sql(f"CREATE TABLE {big}_companies (LIKE people_companies INCLUDING ALL)")
    pg.psql_sql(f"INSERT INTO {big}_companies SELECT company_key, min, count, count_active, balances, "
                f"(high::numeric * 4294967296 + low), ages, age_sum FROM (SELECT company_key, min(company), count(*), "
                f"count(*) FILTER (WHERE is_active) AS count_active, count(balance_cents) AS balances, "
                f"coalesce(sum(balance_cents >> 32), 0) AS high, coalesce(sum(balance_cents & 4294967295), 0) AS low, "
                f"count(age) AS ages, coalesce(sum(age), 0) AS age_sum FROM {big} GROUP BY company_key) t")
    pg.psql_sql(f"VACUUM ANALYZE {big}")
    return big, time.perf_counter() - started


def renamed(create, old, new):
    """A CREATE TABLE statement for `old` made for `new` (its name quoted or not)."""
    quoted = f'"{old}"'
    return create.replace(quoted, new, 1) if quoted in create else create.replace(old, new, 1)


def build_big_sqlite(path):
    big = f"people_x{MULTIPLIER}"
    started = time.perf_counter()
    db = sqlite3.connect(path)
    # SQLite's own columns: PostgreSQL's table has more (its row_id).
    columns = ", ".join(row[1] for row in db.execute("PRAGMA table_info(people)"))
    schema = db.execute("SELECT sql FROM sqlite_schema WHERE name = 'people'").fetchone()[0]
    summary = db.execute("SELECT sql FROM sqlite_schema WHERE name = 'people_companies'").fetchone()[0]
    db.execute(renamed(schema, "people", big))
    db.execute(renamed(summary, "people_companies", big + "_companies"))
    db.execute(f"INSERT INTO {big} ({columns}) {multiplied_select(columns, 'people', sqlite=True)}")
    db.execute(f"CREATE INDEX {big}_browse ON {big} ({KEYS})")
    db.execute(f"INSERT INTO {big}_companies SELECT company_key, spelling, headcount * {MULTIPLIER}, active * {MULTIPLIER}, "
               f"balances * {MULTIPLIER}, CAST(CAST(total_cents AS INTEGER) * {MULTIPLIER} AS TEXT), ages * {MULTIPLIER}, age_sum * {MULTIPLIER} FROM people_companies")
    db.commit()
    db.execute("ANALYZE")
    db.close()
    return big, time.perf_counter() - started


def middle_keys_postgres(pg, table, offset):
    row = pg.psql_sql(f"SELECT encode(company_key, 'hex'), encode(last_key, 'hex'), encode(first_key, 'hex'), position, "
                      f"quote_literal(person_key) FROM {table} ORDER BY {KEYS} OFFSET {offset} LIMIT 1").strip().split("|")
    return f"(decode('{row[0]}', 'hex'), decode('{row[1]}', 'hex'), decode('{row[2]}', 'hex'), {row[3]}, {row[4]})"


def measure_postgres(pg, table, count, runs):
    log(f"  PostgreSQL {table}: windows ...")
    middle = count // 2
    result = {}
    result["offset"] = statistics.median(pg.timed(f"SELECT {ROW} FROM {table} ORDER BY {KEYS} OFFSET {middle} LIMIT 50",
                                                  max(1, runs // 2)))
    keys = middle_keys_postgres(pg, table, middle)
    result["keyset"] = statistics.median(pg.timed(f"SELECT {ROW} FROM {table} WHERE ({KEYS}) > {keys} ORDER BY {KEYS} LIMIT 50",
                                                  runs * 4))
    result["keyset_back"] = statistics.median(pg.timed(
        f"SELECT {ROW} FROM {table} WHERE ({KEYS}) < {keys} ORDER BY company_key DESC, last_key DESC, first_key DESC, "
        f"position DESC, person_key DESC LIMIT 50", runs * 4))
    log(f"  PostgreSQL {table}: fetch all ...")
    result["fetch_all"] = statistics.median(pg.timed(f"COPY (SELECT {ROW} FROM {table} ORDER BY {KEYS}) TO STDOUT", 1))
    log(f"  PostgreSQL {table}: overview and search ...")
    result["summary"] = statistics.median(pg.timed(f"SELECT * FROM {table}_companies ORDER BY spelling", runs * 4))
    result["group_by"] = statistics.median(pg.timed(totals_query(table), max(1, runs // 2)))
    result["no_match"] = statistics.median(pg.timed(
        f"SELECT {ROW} FROM {table} WHERE search_text LIKE '{NO_MATCH}' ORDER BY {KEYS} LIMIT 50", max(1, runs // 2)))
    return result


def sqlite_timed(db, sql, runs, fetch=True):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        cursor = db.execute(sql)
        if fetch:
            for _ in cursor:
                pass
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure_sqlite(path, table, count, runs, has_fts):
    log(f"  SQLite {table} ...")
    db = sqlite3.connect(path)
    middle = count // 2
    result = {"offset": sqlite_timed(db, f"SELECT {ROW} FROM {table} ORDER BY {KEYS} LIMIT 50 OFFSET {middle}", max(1, runs // 2))}
    keys = db.execute(f"SELECT {KEYS} FROM {table} ORDER BY {KEYS} LIMIT 1 OFFSET {middle}").fetchone()
    keyset = f"SELECT {ROW} FROM {table} WHERE ({KEYS}) > (?, ?, ?, ?, ?) ORDER BY {KEYS} LIMIT 50"
    times = []
    for _ in range(runs * 4):
        started = time.perf_counter()
        list(db.execute(keyset, keys))
        times.append((time.perf_counter() - started) * 1000)
    result["keyset"] = statistics.median(times)
    result["keyset_back"] = result["keyset"]
    result["fetch_all"] = sqlite_timed(db, f"SELECT {ROW} FROM {table} ORDER BY {KEYS}", 1)
    result["summary"] = sqlite_timed(db, f"SELECT * FROM {table}_companies ORDER BY spelling", runs * 4)
    result["group_by"] = sqlite_timed(db, totals_query(table), max(1, runs // 2))
    if has_fts:
        result["no_match"] = sqlite_timed(db, f"SELECT {ROW} FROM {table} WHERE rowid IN (SELECT rowid FROM {table}_search "
                                              f"WHERE {table}_search MATCH '\"qqxzjv\"') ORDER BY {KEYS} LIMIT 50", runs)
    else:
        result["no_match"] = sqlite_timed(db, f"SELECT {ROW} FROM {table} WHERE search_text LIKE '{NO_MATCH}' "
                                              f"ORDER BY {KEYS} LIMIT 50", max(1, runs // 2))
    db.close()
    return result


def real_binary(target, table, count):
    """`roster TARGET --table T --list`: wall, peak RSS; None when the binary cannot browse a database yet."""
    roster = os.path.join(BIN, "roster")
    argv = [roster, target, "--table", table, "--list", "--no-state"]
    probe = subprocess.run(argv[:-2] + ["--list", "--filter", "zzzqqq", "--no-state"], capture_output=True, text=True)
    if probe.returncode != 0:
        return {"error": (probe.stderr.strip().splitlines() or ["exit %d" % probe.returncode])[0]}
    listing = [measure.run_measured(argv) for _ in range(3)]
    wall = statistics.median(w for w, _, _ in listing)
    result = {"list": wall, "list_rate": count / wall, "list_rss": statistics.median(r for _, r, _ in listing)}
    screens = [app_in_tmux(target, table, count, J_PRESSES) for _ in range(3)]
    result["first_frame"] = statistics.median(s["first_frame"] for s in screens)
    result["overview"] = statistics.median(s["overview"] for s in screens)
    keys = sorted(k for s in screens for k in s["keys"])
    result["key_p50"] = keys[len(keys) // 2]
    result["key_p99"] = keys[min(len(keys) - 1, len(keys) * 99 // 100)]
    return result


def live_updates(target, table, count, first_id, saves):
    """Two real processes: Roster B on the table in tmux, at its first
    frame; A is `roster update` changing the first person's email. Seconds
    from A's exit (the save committed) to B's screen showing the new email,
    with no key pressed (tmux polled every 2 ms, which the figures include)."""
    socket = f"roster-bench-live-{os.getpid()}-{time.monotonic_ns() % 100000}"
    roster = os.path.join(BIN, "roster")
    arrivals = []
    try:
        measure.tmux(socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "-s", "main",
                     f"env TERM=tmux-256color LANG=C.UTF-8 {roster} '{target}' --table {table} --no-state; sleep 600")
        measure.wait_for_screen(socket, [f"1/{count:,}"], poll=0.05)
        time.sleep(1)  # B's listener is made after the first frame
        for save in range(saves):
            email = f"live{save}.{os.getpid()}@bench.example"
            subprocess.run([roster, "update", target, first_id, f"email={email}", "--table", table], check=True,
                           stdout=subprocess.DEVNULL)
            arrivals.append(measure.wait_for_screen(socket, [email], limit=30, poll=0.002))
    finally:
        measure.tmux(socket, "kill-server")
    arrivals.sort()
    return {"p50": arrivals[len(arrivals) // 2], "p99": arrivals[min(len(arrivals) - 1, len(arrivals) * 99 // 100)],
            "max": arrivals[-1], "saves": saves}


def app_in_tmux(target, table, count, keys):
    """The real app on the table, in tmux at 100x30: launch to the first
    frame ("1/N"), Tab to the overview's first screen ("1/<companies>"),
    and each of `keys` presses of j to the status bar's next position
    (seconds; tmux polled every 2 ms, which the figures include)."""
    socket = f"roster-bench-db-{os.getpid()}-{time.monotonic_ns() % 100000}"
    roster = os.path.join(BIN, "roster")

    def screen():
        return measure.tmux(socket, "capture-pane", "-p", "-t", "main")

    def wait_for(test, limit=120):
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            text = screen()
            if test(text):
                return text
            time.sleep(0.002)
        raise RuntimeError("the screen never showed what was waited for:\n" + screen())

    marker = f"1/{count:,}"
    try:
        started = time.perf_counter()
        measure.tmux(socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "-s", "main",
                     f"env TERM=tmux-256color LANG=C.UTF-8 {roster} '{target}' --table {table} --no-state; sleep 600")
        wait_for(lambda text: marker in text and "loading" not in text)
        first_frame = time.perf_counter() - started
        started = time.perf_counter()
        measure.tmux(socket, "send-keys", "-t", "main", "Tab")
        wait_for(lambda text: marker not in text and re.search(r" 1/[0-9,]+", text) and "ounting" not in text)
        overview = time.perf_counter() - started
        measure.tmux(socket, "send-keys", "-t", "main", "Tab")
        wait_for(lambda text: marker in text)
        latencies = []
        for press in range(2, keys + 2):
            started = time.perf_counter()
            measure.tmux(socket, "send-keys", "-t", "main", "j")
            wait_for(lambda text, press=press: f"{press:,}/{count:,}" in text and "loading" not in text)
            latencies.append(time.perf_counter() - started)
        return {"first_frame": first_frame, "overview": overview, "keys": latencies}
    finally:
        measure.tmux(socket, "kill-server")


def main():
    started = time.perf_counter()
    os.makedirs(DATA, exist_ok=True)
    source = os.path.join(DATA, f"people-{PEOPLE}.json")
    if not os.path.exists(source):
        log(f"generating {source} ...")
        with open(source + ".tmp", "wb") as out:
            subprocess.run([os.path.join(BIN, "roster-gen"), "--people", str(PEOPLE), "--seed", "42"], stdout=out, check=True)
        os.rename(source + ".tmp", source)
    sqlite_path = os.path.join(DATA, "people.db")
    for leftover in [sqlite_path, sqlite_path + "-wal", sqlite_path + "-shm"]:
        if os.path.exists(leftover):
            os.remove(leftover)
    pg = Postgres()
    try:
        roster = os.path.join(BIN, "roster")
        pg_runs, sqlite_runs = imports(roster, source, pg, sqlite_path)
        pg_import = (statistics.median(w for w, _, _ in pg_runs), statistics.median(r for _, r, _ in pg_runs))
        sqlite_import = (statistics.median(w for w, _, _ in sqlite_runs), statistics.median(r for _, r, _ in sqlite_runs))
        log("the imports' references ...")
        references = import_references(pg, sqlite_path)
        columns = columns_of(pg)
        log(f"making {PEOPLE * MULTIPLIER:,} rows by SQL ...")
        pg_big, pg_build = build_big_postgres(pg, columns)
        sqlite_big, sqlite_build = build_big_sqlite(sqlite_path)
        results = {
            ("PostgreSQL", PEOPLE): measure_postgres(pg, "people", PEOPLE, RUNS),
            ("PostgreSQL", PEOPLE * MULTIPLIER): measure_postgres(pg, pg_big, PEOPLE * MULTIPLIER, RUNS),
            ("SQLite", PEOPLE): measure_sqlite(sqlite_path, "people", PEOPLE, RUNS, has_fts=True),
            ("SQLite", PEOPLE * MULTIPLIER): measure_sqlite(sqlite_path, sqlite_big, PEOPLE * MULTIPLIER, RUNS, has_fts=False),
        }
        log("the real binary ...")
        # The reference for `--list` over a database: the same people's file, in this run.
        file_listing = [measure.run_measured([roster, "--list", "--no-state", source]) for _ in range(3)]
        file_list = statistics.median(w for w, _, _ in file_listing)
        binary = {
            ("PostgreSQL", PEOPLE): real_binary(pg.target, "people", PEOPLE),
            ("PostgreSQL", PEOPLE * MULTIPLIER): real_binary(pg.target, pg_big, PEOPLE * MULTIPLIER),
            ("SQLite", PEOPLE): real_binary(sqlite_path, "people", PEOPLE),
            ("SQLite", PEOPLE * MULTIPLIER): real_binary(sqlite_path, sqlite_big, PEOPLE * MULTIPLIER),
        }
        log("live updates ...")
        first = f"SELECT person_key FROM people ORDER BY {KEYS} LIMIT 1"
        live = {
            "PostgreSQL": live_updates(pg.target, "people", PEOPLE, pg.psql_sql(first).strip(), LIVE_SAVES),
            "SQLite": live_updates(sqlite_path, "people", PEOPLE,
                                   sqlite3.connect(sqlite_path).execute(first).fetchone()[0], LIVE_SAVES),
        }
    finally:
        pg.stop()
    total = time.perf_counter() - started
    report = render(results, binary, live, pg_import, sqlite_import, pg_build, sqlite_build, total, file_list)
    report += targets(binary, pg_import, sqlite_import, references, file_list)
    print(report)
    # BENCH_RESULTS: where to write (CI's smoke run keeps the committed file as it is).
    results = os.environ.get("BENCH_RESULTS", os.path.join(ROOT, "bench/RESULTS.md"))
    kept = open(results).read() if os.path.exists(results) else "# Benchmarks\n"
    with open(results, "w") as out:
        notes = measure.database_notes(kept)
        out.write(measure.without_database_section(kept).rstrip("\n") + "\n\n" + report.rstrip("\n") + "\n"
                  + ("\n" + notes if notes else ""))


def targets(binary, pg_import, sqlite_import, references, file_list):
    """The database targets at PEOPLE people, beside this run's references."""
    def verdict(value, limit):
        return "met" if value <= limit else "**not met**"

    lines = [
        "",
        f"Targets at {PEOPLE:,} people, this run's medians ({IMPORT_RUNS} fresh imports each; `--list` medians of 3) "
        "against the references measured in the same run:",
        "",
        "| what | this run | target | | reference, this run |",
        "|---|---:|---:|---|---|",
        f"| `roster import` into PostgreSQL | {pg_import[0]:.1f} s | ≤ 90 s | {verdict(pg_import[0], 90)} "
        f"| `COPY` of the same rows into a bare table {references['copy']:.1f} s; the trigram index alone on it "
        f"{references['gin']:.1f} s |",
        f"| `roster import` into SQLite | {sqlite_import[0]:.1f} s | ≤ 90 s | {verdict(sqlite_import[0], 90)} "
        f"| the same rows copied into a bare table of a new file {references['sqlite_copy']:.1f} s |",
    ]
    for database in ["PostgreSQL", "SQLite"]:
        r = binary.get((database, PEOPLE), {})
        if "list" in r:
            ratio = r["list"] / file_list
            lines.append(f"| `--list` of everyone, {database} | {r['list']:.2f} s | ≤ 3× the file's | {verdict(ratio, 3)} "
                         f"| the same people's JSON file, `--list` {file_list:.2f} s: {ratio:.1f}× |")
    return "\n".join(lines) + "\n"


def render(results, binary, live, pg_import, sqlite_import, pg_build, sqlite_build, total, file_list):
    big = PEOPLE * MULTIPLIER

    def ms(value):
        return f"{value:,.1f} ms" if value < 1000 else f"{value / 1000:,.2f} s"

    lines = [
        "## Databases (`make bench-db`)",
        "",
        f"Machine: {measure.machine()}; shared with other builds while it ran, so read the ratios more than the "
        f"absolute figures. Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {total / 60:.1f} min in all.",
        "",
        f"Data: {PEOPLE:,} people from `roster-gen --seed 42`, loaded with `roster import` (medians of {IMPORT_RUNS} fresh imports) "
        f"(PostgreSQL {pg_import[0]:.1f} s, peak RSS {pg_import[1]:.0f} MiB; SQLite {sqlite_import[0]:.1f} s, "
        f"{sqlite_import[1]:.0f} MiB; both with browse index, trigram search index and company summary; "
        "target at 1M: ≤ 90 s each). "
        f"The {big:,}-row tables are made **by SQL** from those ({MULTIPLIER} copies, person key suffixed, positions shifted; "
        f"browse index, primary key (PostgreSQL) and summary built after; **no trigram index**): "
        f"PostgreSQL {pg_build:.0f} s, SQLite {sqlite_build:.0f} s.",
        "",
        f"Medians of {RUNS * 4} runs (keyset, summary) or {max(1, RUNS // 2)} (OFFSET, GROUP BY, no-match search); "
        "fetch-all once. PostgreSQL times are psql's `\\timing` (server and transfer, one connection); SQLite's are "
        "in process (Python's sqlite3, the same library).",
        "",
        "| database | rows | keyset window (50, middle) | `OFFSET n/2 LIMIT 50` | fetch all then page | overview: summary table "
        "| overview: live `GROUP BY` | search matching nobody |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (database, rows), r in results.items():
        lines.append(
            f"| {database} | {rows:,} | {ms(r['keyset'])} | {ms(r['offset'])} ({r['offset'] / r['keyset']:,.0f}×) "
            f"| {ms(r['fetch_all'])} ({r['fetch_all'] / r['keyset']:,.0f}×) | {ms(r['summary'])} "
            f"| {ms(r['group_by'])} ({r['group_by'] / r['summary']:,.0f}×) | {ms(r['no_match'])} |")
    lines += [
        "",
        "Search matching nobody: `LIKE '%qqxzjv%'` on `search_text` with the keyset order and `LIMIT 50`; at "
        f"{PEOPLE:,} through the trigram index (pg_trgm GIN; SQLite FTS5 trigram), at {big:,} without one (a scan).",
        "",
        "Real binary (`roster TARGET --table T --list`, medians of 3; then the app in tmux, " f"{J_PRESSES} presses of `j`). "
        f"The reference: `roster FILE --list` of the same {PEOPLE:,} people's JSON file in this run, {file_list:.2f} s "
        "(median of 3); target: a database's `--list` of as many people ≤ 3× that.",
        "",
    ]
    for (database, rows), r in binary.items():
        if "error" in r:
            lines.append(f"- {database} {rows:,}: not measured — {r['error']}")
        else:
            lines.append(f"- {database} {rows:,}: `--list` {r['list']:.2f} s ({r['list_rate']:,.0f} people/s; "
                         f"{r['list'] / file_list * PEOPLE / rows:.1f}× the file's per person), "
                         f"peak RSS {r['list_rss']:.0f} MiB; in tmux: first frame {r['first_frame'] * 1000:,.0f} ms, "
                         f"`Tab` to the overview {r['overview'] * 1000:,.0f} ms, `j` to the next frame "
                         f"p50 {r['key_p50'] * 1000:.1f} ms, p99 {r['key_p99'] * 1000:.1f} ms (medians of 3 launches; "
                         "tmux polled every 2 ms)")
    lines += [
        "",
        f"Live updates ({PEOPLE:,} people; two real processes): Roster B on the table in tmux, no key pressed; A is "
        "`roster update` changing the first person's email; from A's exit (committed) to B's screen showing it "
        "(PostgreSQL: B's listener wakes on the notification and reads the change log; SQLite: `PRAGMA data_version` "
        "twice a second). Target: ≤ 1 s at p99.",
        "",
    ]
    for database, r in live.items():
        lines.append(f"- {database}: p50 {r['p50'] * 1000:,.0f} ms, p99 {r['p99'] * 1000:,.0f} ms, "
                     f"max {r['max'] * 1000:,.0f} ms ({r['saves']} saves)")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
