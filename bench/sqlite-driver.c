/* sqlite-driver.c -- a deterministic SQL workload for the ipp benchmark.
 *
 * Usage: sqlite-driver [N]     (N = number of rows in the main table,
 *                               default 20000)
 *
 * Builds an in-memory database with a fixed PRNG, runs inserts, indexes,
 * joins, aggregates, updates, deletes and transactions, and prints a
 * checksum of every query's result.  The output depends only on N (and on
 * the SQLite version), never on time, addresses or the environment, so the
 * outputs of differently instrumented builds can be compared byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"
#include "splitmix64.h"
#include "bench-thread.h"

static sqlite3 *db;

/* A fixed 64-bit PRNG (splitmix64). */
static unsigned long long rng_state = 0x1234567887654321ULL;
static unsigned long long rnd(void)
{
    return splitmix64(&rng_state);
}

static void die(const char *what)
{
    fprintf(stderr, "sqlite-driver: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static void exec(const char *sql)
{
    char *err = 0;
    if (sqlite3_exec(db, sql, 0, 0, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite-driver: %s: %s\n", sql, err ? err : "?");
        exit(1);
    }
}

static sqlite3_stmt *prep(const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, 0) != SQLITE_OK)
        die(sql);
    return st;
}

/* FNV-1a over the text of every column of every row. */
static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
    const unsigned char *s = p;
    while (n--) {
        h ^= *s++;
        h *= 0x100000001B3ULL;
    }
    return h;
}

/* Run a query, print its row count and checksum under a label. */
static void query(const char *label, const char *sql)
{
    sqlite3_stmt *st = prep(sql);
    unsigned long long h = 0xCBF29CE484222325ULL;
    long rows = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int i, n = sqlite3_column_count(st);
        for (i = 0; i < n; i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            int len = sqlite3_column_bytes(st, i);
            if (t)
                h = fnv(h, t, (size_t)len);
            else
                h = fnv(h, "\1NULL", 5);
            h = fnv(h, "|", 1);
        }
        rows++;
    }
    if (rc != SQLITE_DONE)
        die(sql);
    sqlite3_finalize(st);
    printf("%-14s rows=%-7ld sum=%016llx\n", label, rows, h);
}

static const char *words[] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    "hotel", "india", "juliet", "kilo", "lima", "mike", "november",
    "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
    "victor", "whiskey", "xray", "yankee", "zulu"
};
#define NWORDS (sizeof words / sizeof words[0])

static void random_name(char *buf, size_t size)
{
    unsigned long long r = rnd();
    snprintf(buf, size, "%s-%s-%u", words[r % NWORDS],
             words[(r >> 8) % NWORDS], (unsigned)((r >> 16) % 1000));
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], 0, 10) : 20000;
    long i, ncust, nord;
    sqlite3_stmt *st;
    char name[64];

    if (n < 10) {
        fprintf(stderr, "usage: %s [N >= 10]\n", argv[0]);
        return 2;
    }
    bench_thread_maybe();
    ncust = n / 10;
    nord = n;

    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        die("open");
    printf("sqlite %s, N=%ld\n", sqlite3_libversion(), n);

    exec("CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
         " region INTEGER, balance REAL)");
    exec("CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT, price INTEGER,"
         " category TEXT)");
    exec("CREATE TABLE orders(id INTEGER PRIMARY KEY, cust INTEGER,"
         " item INTEGER, qty INTEGER, day INTEGER, note TEXT)");

    /* Customers: one transaction, one prepared statement. */
    exec("BEGIN");
    st = prep("INSERT INTO customer(id,name,region,balance) VALUES(?,?,?,?)");
    for (i = 1; i <= ncust; i++) {
        random_name(name, sizeof name);
        sqlite3_bind_int64(st, 1, i);
        sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, (int)(rnd() % 12));
        sqlite3_bind_double(st, 4, (double)(rnd() % 1000000) / 100.0);
        if (sqlite3_step(st) != SQLITE_DONE)
            die("insert customer");
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec("COMMIT");

    /* Items. */
    exec("BEGIN");
    st = prep("INSERT INTO item(label,price,category) VALUES(?,?,?)");
    for (i = 0; i < 500; i++) {
        random_name(name, sizeof name);
        sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 2, (int)(rnd() % 10000) + 1);
        sqlite3_bind_text(st, 3, words[rnd() % 8], -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE)
            die("insert item");
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec("COMMIT");

    /* Orders: the bulk of the rows, in batches of 1000 per transaction. */
    st = prep("INSERT INTO orders(cust,item,qty,day,note) VALUES(?,?,?,?,?)");
    for (i = 0; i < nord; i++) {
        unsigned long long r = rnd();
        if (i % 1000 == 0)
            exec("BEGIN");
        sqlite3_bind_int64(st, 1, (long long)(r % (unsigned long long)ncust) + 1);
        sqlite3_bind_int(st, 2, (int)((r >> 20) % 500) + 1);
        sqlite3_bind_int(st, 3, (int)((r >> 32) % 20) + 1);
        sqlite3_bind_int(st, 4, (int)((r >> 40) % 365));
        if ((r >> 50) % 4 == 0) {
            sqlite3_bind_null(st, 5);
        } else {
            random_name(name, sizeof name);
            sqlite3_bind_text(st, 5, name, -1, SQLITE_TRANSIENT);
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            die("insert order");
        sqlite3_reset(st);
        if (i % 1000 == 999 || i == nord - 1)
            exec("COMMIT");
    }
    sqlite3_finalize(st);

    query("count", "SELECT count(*), sum(qty), min(day), max(day) FROM orders");
    query("scan-filter", "SELECT id, qty FROM orders WHERE note LIKE '%echo%'"
                         " ORDER BY id");

    exec("CREATE INDEX orders_cust ON orders(cust)");
    exec("CREATE INDEX orders_day ON orders(day, item)");
    exec("CREATE INDEX customer_region ON customer(region, name)");

    query("by-region",
          "SELECT c.region, count(*), sum(o.qty * i.price)"
          " FROM orders o JOIN customer c ON c.id = o.cust"
          " JOIN item i ON i.id = o.item GROUP BY c.region ORDER BY c.region");
    query("top-cust",
          "SELECT c.name, sum(o.qty) AS q FROM customer c"
          " JOIN orders o ON o.cust = c.id GROUP BY c.id"
          " ORDER BY q DESC, c.id LIMIT 25");
    query("category",
          "SELECT i.category, count(DISTINCT o.cust), avg(o.qty)"
          " FROM item i JOIN orders o ON o.item = i.id"
          " GROUP BY i.category ORDER BY 1");
    query("day-range",
          "SELECT day, count(*), sum(qty) FROM orders"
          " WHERE day BETWEEN 100 AND 140 GROUP BY day ORDER BY day");

    /* Point lookups through the indexes, with a prepared statement. */
    {
        unsigned long long h = 0;
        long k;
        st = prep("SELECT count(*), total(qty) FROM orders WHERE cust = ?");
        for (k = 0; k < 2 * n; k++) {
            sqlite3_bind_int64(st, 1, (long long)(rnd() % (unsigned long long)ncust) + 1);
            if (sqlite3_step(st) != SQLITE_ROW)
                die("lookup");
            h = h * 31 + (unsigned long long)sqlite3_column_int64(st, 0) * 7
                + (unsigned long long)sqlite3_column_double(st, 1);
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
        printf("%-14s rows=%-7ld sum=%016llx\n", "lookups", 2 * n, h);
    }

    /* Small joins through the indexes, parameterised by day and region. */
    {
        unsigned long long h = 0;
        long k;
        st = prep("SELECT count(*), total(o.qty * i.price), max(c.name)"
                  " FROM orders o JOIN item i ON i.id = o.item"
                  " JOIN customer c ON c.id = o.cust"
                  " WHERE o.day = ? AND c.region = ?");
        for (k = 0; k < n / 2; k++) {
            const unsigned char *t;
            sqlite3_bind_int(st, 1, (int)(rnd() % 365));
            sqlite3_bind_int(st, 2, (int)(rnd() % 12));
            if (sqlite3_step(st) != SQLITE_ROW)
                die("join lookup");
            h = h * 31 + (unsigned long long)sqlite3_column_int64(st, 0) * 7
                + (unsigned long long)sqlite3_column_double(st, 1);
            t = sqlite3_column_text(st, 2);
            if (t)
                h = fnv(h, t, strlen((const char *)t));
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
        printf("%-14s rows=%-7ld sum=%016llx\n", "join-lookups", n / 2, h);
    }

    /* Updates and deletes inside a transaction, then a rolled-back one. */
    exec("BEGIN");
    exec("UPDATE customer SET balance = balance * 1.05 + region"
         " WHERE region IN (1, 3, 5, 7)");
    exec("UPDATE orders SET qty = qty + 1, note = upper(note)"
         " WHERE day % 7 = 3");
    exec("DELETE FROM orders WHERE qty > 18 AND day > 300");
    exec("COMMIT");
    query("after-update",
          "SELECT count(*), sum(qty), sum(length(note)) FROM orders");
    query("balances",
          "SELECT region, printf('%.2f', sum(balance)) FROM customer"
          " GROUP BY region ORDER BY region");

    exec("BEGIN");
    exec("DELETE FROM orders WHERE cust % 3 = 0");
    exec("UPDATE item SET price = price * 2");
    exec("ROLLBACK");
    query("after-rollbk",
          "SELECT count(*), sum(o.qty * i.price) FROM orders o"
          " JOIN item i ON i.id = o.item");

    /* A subquery, a window function, a string-heavy sort and a CTE. */
    query("subquery",
          "SELECT id, name FROM customer WHERE id IN"
          " (SELECT cust FROM orders GROUP BY cust HAVING count(*) > 14)"
          " ORDER BY id");
    query("window",
          "SELECT cust, day, sum(qty) OVER (PARTITION BY cust ORDER BY day, id"
          " ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders"
          " WHERE cust <= 200 ORDER BY cust, day, id");
    query("sort-text",
          "SELECT note, count(*) FROM orders WHERE note IS NOT NULL"
          " GROUP BY note ORDER BY count(*) DESC, note LIMIT 50");
    query("cte",
          "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s"
          " WHERE x < 1000) SELECT sum(x * x % 97), count(*) FROM s");

    exec("DROP INDEX orders_day");
    exec("VACUUM");
    query("integrity", "PRAGMA integrity_check");

    sqlite3_close(db);
    /* Flush now: under valgrind, gprof's SIGPROF can kill the process in
       its exit handlers (see run.sh), and the output must be complete. */
    fflush(stdout);
    return 0;
}
