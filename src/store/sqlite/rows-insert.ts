import type { Statement } from "better-sqlite3";
import type { Db } from "./database.js";

/** Rows one statement inserts at most; more are inserted in several. */
const MAX_ROWS = 8;

/**
 * An INSERT of several rows in one statement: a closing turn writes its steps, its model calls
 * and its exchange, and each statement run costs more than the rows it adds (binding, the
 * B-tree's descent). The statement for each number of rows is prepared when first needed.
 */
export class RowsInsert<Row extends readonly unknown[]> {
  private readonly statements: Statement[] = [];
  private readonly insert: string;
  private readonly row: string;

  constructor(
    private readonly db: Db,
    table: string,
    columns: readonly string[],
  ) {
    this.insert = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
    this.row = `(${columns.map(() => "?").join(", ")})`;
  }

  run(rows: readonly Row[]): void {
    for (let from = 0; from < rows.length; from += MAX_ROWS) {
      const count = Math.min(MAX_ROWS, rows.length - from);
      const values: unknown[] = [];
      for (let i = from; i < from + count; i++) values.push(...rows[i]!);
      this.statementFor(count).run(values);
    }
  }

  private statementFor(count: number): Statement {
    let statement = this.statements[count];
    if (!statement) {
      statement = this.db.prepare(this.insert + Array.from({ length: count }, () => this.row).join(", "));
      this.statements[count] = statement;
    }
    return statement;
  }
}
