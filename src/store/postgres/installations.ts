import type pg from "pg";
import type { InstallationStore, InstallationRow } from "../installation-store.js";

interface Row {
  platform: string;
  key: string;
  teamId: string | null;
  enterpriseId: string | null;
  sealed: string;
  expiresAt: string | number | null;
}

const COLUMNS = `platform, install_key AS key, team_id AS "teamId", enterprise_id AS "enterpriseId", sealed, expires_at AS "expiresAt"`;

export class PostgresInstallations implements InstallationStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(row: InstallationRow): Promise<void> {
    const now = Date.now();
    await this.pool.query(
      `INSERT INTO platform_installations (platform, install_key, team_id, enterprise_id, sealed, expires_at, installed_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (platform, install_key) DO UPDATE SET team_id = EXCLUDED.team_id, enterprise_id = EXCLUDED.enterprise_id,
         sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at`,
      [row.platform, row.key, row.teamId ?? null, row.enterpriseId ?? null, row.sealed, row.expiresAt ?? null, now],
    );
  }

  async get(platform: string, key: string): Promise<InstallationRow | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM platform_installations WHERE platform = $1 AND install_key = $2`, [platform, key]);
    return rows[0] && fromRow(rows[0]);
  }

  async delete(platform: string, key: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM platform_installations WHERE platform = $1 AND install_key = $2`, [platform, key]);
    return (rowCount ?? 0) > 0;
  }

  async all(): Promise<InstallationRow[]> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM platform_installations ORDER BY platform, install_key`);
    return rows.map(fromRow);
  }

  async reseal(platform: string, key: string, expected: string, sealed: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE platform_installations SET sealed = $1, updated_at = $2 WHERE platform = $3 AND install_key = $4 AND sealed = $5`,
      [sealed, Date.now(), platform, key, expected],
    );
    return (rowCount ?? 0) > 0;
  }
}

function fromRow(row: Row): InstallationRow {
  return {
    platform: row.platform,
    key: row.key,
    ...(row.teamId !== null ? { teamId: row.teamId } : {}),
    ...(row.enterpriseId !== null ? { enterpriseId: row.enterpriseId } : {}),
    sealed: row.sealed,
    // BIGINT arrives as a string.
    ...(row.expiresAt !== null ? { expiresAt: Number(row.expiresAt) } : {}),
  };
}
