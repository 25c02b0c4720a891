import type { InstallationStore, InstallationRow } from "../installation-store.js";
import type { Db } from "./database.js";

interface Row {
  platform: string;
  key: string;
  teamId: string | null;
  enterpriseId: string | null;
  sealed: string;
  expiresAt: number | null;
}

const COLUMNS = `platform, install_key AS key, team_id AS teamId, enterprise_id AS enterpriseId, sealed, expires_at AS expiresAt`;

export class SqliteInstallations implements InstallationStore {
  private readonly upsert;
  private readonly select;
  private readonly remove;
  private readonly selectAll;
  private readonly compareAndSet;

  constructor(db: Db) {
    this.upsert = db.prepare<[string, string, string | null, string | null, string, number | null, number, number]>(
      `INSERT INTO platform_installations (platform, install_key, team_id, enterprise_id, sealed, expires_at, installed_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, install_key) DO UPDATE SET team_id = excluded.team_id, enterprise_id = excluded.enterprise_id,
         sealed = excluded.sealed, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
    );
    this.select = db.prepare<[string, string], Row>(`SELECT ${COLUMNS} FROM platform_installations WHERE platform = ? AND install_key = ?`);
    this.remove = db.prepare<[string, string]>(`DELETE FROM platform_installations WHERE platform = ? AND install_key = ?`);
    this.selectAll = db.prepare<[], Row>(`SELECT ${COLUMNS} FROM platform_installations ORDER BY platform, install_key`);
    this.compareAndSet = db.prepare<[string, number, string, string, string]>(
      `UPDATE platform_installations SET sealed = ?, updated_at = ? WHERE platform = ? AND install_key = ? AND sealed = ?`,
    );
  }

  async put(row: InstallationRow): Promise<void> {
    const now = Date.now();
    this.upsert.run(row.platform, row.key, row.teamId ?? null, row.enterpriseId ?? null, row.sealed, row.expiresAt ?? null, now, now);
  }

  async get(platform: string, key: string): Promise<InstallationRow | undefined> {
    const row = this.select.get(platform, key);
    return row && fromRow(row);
  }

  async delete(platform: string, key: string): Promise<boolean> {
    return this.remove.run(platform, key).changes > 0;
  }

  async all(): Promise<InstallationRow[]> {
    return this.selectAll.all().map(fromRow);
  }

  async reseal(platform: string, key: string, expected: string, sealed: string): Promise<boolean> {
    return this.compareAndSet.run(sealed, Date.now(), platform, key, expected).changes > 0;
  }
}

function fromRow(row: Row): InstallationRow {
  return {
    platform: row.platform,
    key: row.key,
    ...(row.teamId !== null ? { teamId: row.teamId } : {}),
    ...(row.enterpriseId !== null ? { enterpriseId: row.enterpriseId } : {}),
    sealed: row.sealed,
    ...(row.expiresAt !== null ? { expiresAt: row.expiresAt } : {}),
  };
}
