import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/sqlite/database.js";
import { RowsInsert } from "../../src/store/sqlite/rows-insert.js";

describe("src/store/sqlite/rows-insert.ts", () => {
  it("inserts every row, in order, in statements of several rows", () => {
    const db = openDatabase(":memory:");
    db.exec("CREATE TABLE notes (seq INTEGER PRIMARY KEY, text TEXT, size INTEGER)");
    const insert = new RowsInsert<[number, string | null, number]>(db, "notes", ["seq", "text", "size"]);
    let next = 1;
    for (const count of [0, 1, 8, 9, 20]) {
      const rows = Array.from({ length: count }, (): [number, string | null, number] => [next, next % 3 === 0 ? null : `note ${next}`, next++ * 10]);
      insert.run(rows);
    }
    const stored = db.prepare("SELECT seq, text, size FROM notes ORDER BY seq").all() as { seq: number; text: string | null; size: number }[];
    expect(stored).toHaveLength(38);
    expect(stored.map((row) => row.seq)).toEqual(Array.from({ length: 38 }, (_, i) => i + 1));
    expect(stored[2]).toEqual({ seq: 3, text: null, size: 30 });
    expect(stored[37]).toEqual({ seq: 38, text: "note 38", size: 380 });
  });
});
