import { query, type Queryable } from './connection.js';

/**
 * Take `count` numbers from a sequence head (sequence_heads, foundation migration): the row stays locked until the
 * transaction ends, so numbers are gapless and handed out in commit order. Returns the first number taken.
 */
export async function takeNumbers(client: Queryable, head: string, count: number): Promise<number> {
  const [row] = await query<{ seq: number }>(
    client,
    'UPDATE sequence_heads SET seq = seq + $2 WHERE name = $1 RETURNING seq',
    [head, count],
  );
  if (!row) throw new Error(`No sequence head ${head}`);
  return row.seq - count + 1;
}
