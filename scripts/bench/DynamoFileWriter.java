import com.almworks.sqlite4java.SQLiteConnection;
import com.almworks.sqlite4java.SQLiteStatement;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bench's bulk writer into a DynamoDB Local database file (`-dbPath`; `scripts/bench/file-writer.ts` drives it):
 * rows of one table written straight into its SQLite file with the sqlite4java that DynamoDB Local ships, as
 * DynamoDB Local's own PutItem leaves them (`test/bench-seed.test.ts` compares the rows of both, column by column):
 * keys and index keys as UTF-8 blobs, `hashValue`/`rangeValue` the salted SHA-1 of the key values, `hashRangeValue`
 * the salted SHA-1 of both, `itemSize` and `ObjectJSON` (the item in DynamoDB's JSON) as given.
 *
 * Usage: `java -cp <DynamoDBLocal_lib>/sqlite4java.jar DynamoFileWriter.java <db file> <table> [rebuild=<rows>|dump]`.
 * `dump` writes nothing: it prints every row of the table, ordered by key, one a line, tab separated, blobs in hex
 * and the item's JSON as text (`test/bench-seed.test.ts` compares two tables' rows with it).
 * It first prints one line: the attribute names of the table's index columns, in order (`indexKey_0`, ...), tab
 * separated. It then reads rows from standard input, one a line, tab separated: PK, SK, itemSize, one value per index
 * column (empty: the item has no such attribute), and the item's JSON (JSON escapes tabs and line ends). At the end of
 * the input it commits and prints `written <rows> <CPU ms of this process>`. `rebuild=<rows>`: about that many rows come; when they are
 * at least 500,000 and more than the table holds, it drops the table's secondary indexes before writing and builds
 * them again after (sorting once instead of millions of B-tree inserts; readers of the table meanwhile find no index).
 */
public class DynamoFileWriter {
  /** DynamoDB Local's salt of every key hash. */
  private static final byte[] SALT = "LocalDdb".getBytes(StandardCharsets.UTF_8);
  /** Rows sorted and committed together (about 0.5 GB of heap at the seeds' row sizes). */
  private static final int ROWS_PER_CHUNK = 400_000;
  private static final long REBUILD_AT = 500_000;

  public static void main(String[] args) throws Exception {
    SQLiteConnection db = new SQLiteConnection(new File(args[0]));
    String table = args[1];
    long expected = args.length > 2 && args[2].startsWith("rebuild=") ? Long.parseLong(args[2].substring(8)) : 0;
    db.open(false);
    db.setBusyTimeout(120_000);
    db.exec("PRAGMA cache_size=-1048576");
    db.exec("PRAGMA synchronous=OFF");
    db.exec("PRAGMA journal_mode=MEMORY");

    List<String> columns = indexColumns(db, table);
    if (args.length > 2 && args[2].equals("dump")) {
      dump(db, table, columns.size());
      db.dispose();
      return;
    }
    System.out.println(String.join("\t", columns));
    System.out.flush();

    List<String> indexes = new ArrayList<>();
    if (expected >= REBUILD_AT && expected > maxRowid(db, table)) {
      SQLiteStatement q = db.prepare("SELECT name, sql FROM sqlite_master WHERE type='index' AND tbl_name=? AND sql IS NOT NULL");
      q.bind(1, table);
      List<String> names = new ArrayList<>();
      while (q.step()) {
        names.add(q.columnString(0));
        indexes.add(q.columnString(1));
      }
      q.dispose();
      for (String n : names) db.exec("DROP INDEX \"" + n.replace("\"", "\"\"") + "\"");
    }

    StringBuilder sql = new StringBuilder("INSERT OR REPLACE INTO \"" + table.replace("\"", "\"\"") + "\" (hashKey, rangeKey, hashValue, rangeValue, itemSize, ObjectJSON, hashRangeValue");
    for (int i = 0; i < columns.size(); i++) sql.append(", indexKey_").append(i);
    sql.append(") VALUES (?, ?, ?, ?, ?, ?, ?");
    for (int i = 0; i < columns.size(); i++) sql.append(", ?");
    sql.append(")");
    SQLiteStatement put = db.prepare(sql.toString());

    MessageDigest sha1 = MessageDigest.getInstance("SHA1");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 20);
    long read = 0;
    long written = 0;
    // Rows are inserted a chunk at a time, sorted by key: the key's B-tree (which cannot be dropped) then takes its
    // inserts in order instead of at random pages. The sort is stable, so of two rows with one key the later wins.
    List<String[]> chunk = new ArrayList<>(ROWS_PER_CHUNK);
    for (String line; ; ) {
      line = in.readLine();
      if (line != null && line.isEmpty()) continue;
      if (line != null) {
        String[] f = line.split("\t", -1);
        if (f.length != 4 + columns.size()) throw new IllegalArgumentException("row " + (read + 1) + ": " + f.length + " fields, expected " + (4 + columns.size()));
        read++;
        chunk.add(f);
      }
      if (chunk.size() < ROWS_PER_CHUNK && line != null) continue;
      // (UTF-16 order: the key B-tree's byte order but for rare characters; the order only serves locality.)
      chunk.sort((a, b) -> {
        int c = a[0].compareTo(b[0]);
        return c != 0 ? c : a[1].compareTo(b[1]);
      });
      db.exec("BEGIN IMMEDIATE");
      for (String[] f : chunk) {
        byte[] pk = f[0].getBytes(StandardCharsets.UTF_8);
        byte[] sk = f[1].getBytes(StandardCharsets.UTF_8);
        byte[] h = digest(sha1, pk);
        byte[] r = digest(sha1, sk);
        sha1.update(SALT);
        sha1.update(h);
        byte[] hr = sha1.digest(r);
        put.bind(1, pk);
        put.bind(2, sk);
        put.bind(3, h);
        put.bind(4, r);
        put.bind(5, Long.parseLong(f[2]));
        put.bind(6, f[f.length - 1].getBytes(StandardCharsets.UTF_8));
        put.bind(7, hr);
        for (int i = 0; i < columns.size(); i++) {
          String v = f[3 + i];
          if (v.isEmpty()) put.bindNull(8 + i);
          else put.bind(8 + i, v.getBytes(StandardCharsets.UTF_8));
        }
        put.step();
        put.reset(true);
        written++;
      }
      db.exec("COMMIT");
      chunk.clear();
      if (line == null) break;
    }
    put.dispose();
    for (String create : indexes) db.exec(create);
    db.dispose();
    long cpu = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    System.out.println("written " + written + " " + cpu);
  }

  /** Prints the table's rows (see the usage above). */
  private static void dump(SQLiteConnection db, String table, int indexColumns) throws Exception {
    StringBuilder sql = new StringBuilder("SELECT typeof(hashKey), hex(hashKey), hex(rangeKey), hex(hashValue), hex(rangeValue), itemSize, hex(hashRangeValue)");
    for (int i = 0; i < indexColumns; i++) sql.append(", typeof(indexKey_").append(i).append("), hex(indexKey_").append(i).append(")");
    sql.append(", typeof(ObjectJSON), CAST(ObjectJSON AS TEXT) FROM \"").append(table.replace("\"", "\"\"")).append("\" ORDER BY hashKey, rangeKey");
    SQLiteStatement q = db.prepare(sql.toString());
    java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
    while (q.step()) {
      StringBuilder row = new StringBuilder();
      for (int c = 0; c < q.columnCount(); c++) {
        if (c > 0) row.append('\t');
        row.append(q.columnNull(c) ? "" : q.columnString(c));
      }
      out.println(row);
    }
    out.flush();
    q.dispose();
  }

  /** About the rows the table holds (its largest rowid; deletes aside). */
  private static long maxRowid(SQLiteConnection db, String table) throws Exception {
    SQLiteStatement q = db.prepare("SELECT coalesce(max(rowid), 0) FROM \"" + table.replace("\"", "\"\"") + "\"");
    q.step();
    long n = q.columnLong(0);
    q.dispose();
    return n;
  }

  private static byte[] digest(MessageDigest sha1, byte[] value) {
    sha1.update(SALT);
    return sha1.digest(value);
  }

  /** The attribute names of the table's `indexKey_<i>` columns, from the table's metadata DynamoDB Local keeps. */
  private static List<String> indexColumns(SQLiteConnection db, String table) throws Exception {
    SQLiteStatement q = db.prepare("SELECT TableInfo FROM dm WHERE TableName=?");
    q.bind(1, table);
    if (!q.step()) throw new IllegalArgumentException("table " + table + " not found in " + db.getDatabaseFile());
    String info = new String(q.columnBlob(0), StandardCharsets.UTF_8);
    q.dispose();
    // {"DynamoDBAttribute":{"AttributeName":"GSI1PK",...},...,"SQLiteColumnName":"indexKey_0",...}
    Matcher m = Pattern.compile("\"AttributeName\":\"([^\"]+)\"[^{}]*\\}[^{}]*\"SQLiteColumnName\":\"indexKey_(\\d+)\"").matcher(info);
    List<String> columns = new ArrayList<>();
    while (m.find()) {
      int i = Integer.parseInt(m.group(2));
      while (columns.size() <= i) columns.add(null);
      if (columns.get(i) != null && !columns.get(i).equals(m.group(1))) throw new IllegalStateException("indexKey_" + i + " names two attributes");
      columns.set(i, m.group(1));
    }
    for (int i = 0; i < columns.size(); i++) if (columns.get(i) == null) throw new IllegalStateException("indexKey_" + i + " not described");
    return columns;
  }
}
