import pg from 'pg';
import pgvector from 'pgvector';
import { announceSkip, serviceAvailability, startTestService } from './testing/index.js';
import type { TestService } from './testing/index.js';

/**
 * The design test of the sharded deployment (docs/scale-out.md): Citus distributes every table by `doc_id`; Citus
 * cannot be installed here, so two PostgreSQL instances stand behind `postgres_fdw` hash partitions of `doc_id` —
 * rows written through the coordinator land on the shard their document hashes to, a document's rows stay together,
 * and one query on the coordinator (full text, and pgvector kNN) is answered from both instances.
 */
const availability = serviceAvailability('postgres');
if (!availability.ok) announceSkip('@doctree/store-postgres (postgres_fdw sharding)', availability.reason);

(availability.ok ? describe : describe.skip)('two PostgreSQL instances behind postgres_fdw hash partitions by doc_id', () => {
  let coordinatorService: TestService | undefined;
  let shardService: TestService | undefined;
  let coordinator: pg.Client;
  let shard: pg.Client;

  const table = (name: string) => `CREATE TABLE ${name} (
      collection text NOT NULL, doc_id text NOT NULL, node_id text NOT NULL, body text NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED, embedding vector(3) NOT NULL,
      PRIMARY KEY (collection, doc_id, node_id))`;

  beforeAll(async () => {
    [coordinatorService, shardService] = await Promise.all([startTestService('postgres'), startTestService('postgres')]);
    coordinator = new pg.Client({ connectionString: coordinatorService.url });
    shard = new pg.Client({ connectionString: shardService.url });
    await Promise.all([coordinator.connect(), shard.connect()]);
    await shard.query('CREATE EXTENSION IF NOT EXISTS vector');
    await shard.query(table('nodes_p1'));
    const { hostname, port, pathname } = new URL(shardService.url);
    await coordinator.query('CREATE EXTENSION IF NOT EXISTS vector');
    await coordinator.query('CREATE EXTENSION IF NOT EXISTS postgres_fdw');
    await coordinator.query(`CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '${hostname}', port '${port}', dbname '${pathname.slice(1)}', extensions 'vector')`);
    await coordinator.query(`CREATE USER MAPPING FOR CURRENT_USER SERVER shard1 OPTIONS (user 'postgres')`);
    await coordinator.query(`CREATE TABLE nodes (
      collection text NOT NULL, doc_id text NOT NULL, node_id text NOT NULL, body text NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED, embedding vector(3) NOT NULL) PARTITION BY HASH (doc_id)`);
    await coordinator.query(`${table('nodes_p0')}`);
    await coordinator.query('ALTER TABLE nodes ATTACH PARTITION nodes_p0 FOR VALUES WITH (MODULUS 2, REMAINDER 0)');
    await coordinator.query(`CREATE FOREIGN TABLE nodes_p1 PARTITION OF nodes FOR VALUES WITH (MODULUS 2, REMAINDER 1) SERVER shard1 OPTIONS (table_name 'nodes_p1')`);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([coordinator?.end(), shard?.end()]);
    await Promise.allSettled([coordinatorService?.stop(), shardService?.stop()]);
  }, 30_000);

  it('routes each document to one shard and answers full-text and vector queries across both', async () => {
    const docs = Array.from({ length: 8 }, (_, i) => `report-${i}`);
    for (const [i, doc] of docs.entries()) {
      await coordinator.query('BEGIN');
      for (let n = 0; n < 3; n++) {
        const body = n === 0 ? `pump maintenance schedule of plant ${i}` : `dividend note ${n} of ${doc}`;
        const vector = n === 0 ? [1, 0.1 * i, 0] : [0, 1, 0.1 * n];
        await coordinator.query('INSERT INTO nodes (collection, doc_id, node_id, body, embedding) VALUES ($1, $2, $3, $4, $5::vector)', ['reports', doc, `n${n}`, body, pgvector.toSql(vector)]);
      }
      await coordinator.query('COMMIT');
    }
    // Rows are spread over both instances by doc_id, and a document never straddles them.
    const local = await coordinator.query<{ doc_id: string; n: string }>('SELECT doc_id, count(*) AS n FROM ONLY nodes_p0 GROUP BY doc_id');
    const remote = await shard.query<{ doc_id: string; n: string }>('SELECT doc_id, count(*) AS n FROM nodes_p1 GROUP BY doc_id');
    expect(local.rows.length).toBeGreaterThan(0);
    expect(remote.rows.length).toBeGreaterThan(0);
    expect([...local.rows, ...remote.rows].map((r) => r.doc_id).sort()).toEqual([...docs].sort());
    expect([...local.rows, ...remote.rows].every((r) => Number(r.n) === 3)).toBe(true);
    const onShard = new Set(remote.rows.map((r) => r.doc_id));

    // Full text: one query on the coordinator finds the matching node of every document, on both instances.
    const text = await coordinator.query<{ doc_id: string }>(`SELECT doc_id FROM nodes WHERE collection = 'reports' AND tsv @@ to_tsquery('english', 'pump & maintenance') ORDER BY ts_rank(tsv, to_tsquery('english', 'pump & maintenance')) DESC, doc_id`);
    expect(text.rows.map((r) => r.doc_id).sort()).toEqual([...docs].sort());
    // Vector kNN: the nearest nodes come from both instances, in distance order.
    const q = [1, 0.35, 0];
    const cosineDistance = (v: number[]) => 1 - (v[0]! * q[0]! + v[1]! * q[1]!) / (Math.hypot(...v) * Math.hypot(...q));
    const expected = docs.map((doc, i) => ({ doc, d: cosineDistance([1, 0.1 * i, 0]) })).sort((a, b) => a.d - b.d).slice(0, 4).map((x) => x.doc);
    const knn = await coordinator.query<{ doc_id: string; distance: number }>(`SELECT doc_id, (embedding <=> $1::vector)::float8 AS distance FROM nodes WHERE collection = 'reports' ORDER BY embedding <=> $1::vector, doc_id LIMIT 4`, [pgvector.toSql(q)]);
    expect(knn.rows.map((r) => r.doc_id)).toEqual(expected);
    expect(knn.rows.some((r) => onShard.has(r.doc_id))).toBe(true);
    expect(knn.rows.some((r) => !onShard.has(r.doc_id))).toBe(true);
    // The coordinator's plan reads the shard through postgres_fdw (the work Citus would push to its workers).
    const plan = await coordinator.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT doc_id FROM nodes WHERE collection = 'reports' AND tsv @@ to_tsquery('english', 'pump')`);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Foreign Scan on nodes_p1/);
  }, 60_000);
});
