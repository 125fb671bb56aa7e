// The import batch as it arrives: one JSON string per batch (see importBatchDataSchema). Parsed
// and checked here, so a malformed batch is refused with a reason before anything is stored.
import { importBatchDataSchema } from '../../../shared/ipc/channels/contacts.ts';
import type { ImportBatchData } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';

export function decodeBatch(data: string): ImportBatchData {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new DeskFailure('invalid_request', 'The import batch is not valid JSON.', 'data');
  }
  const parsed = importBatchDataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new DeskFailure('invalid_request', `The import batch is not valid${where}: ${issue?.message ?? 'unknown problem'}.`, 'data');
  }
  const batch = parsed.data;
  for (let i = 1; i < batch.rows.length; i++) {
    if ((batch.rows[i] as number) <= (batch.rows[i - 1] as number)) {
      throw new DeskFailure('invalid_request', `The import batch is not in file order (row ${batch.rows[i]}).`, 'data');
    }
  }
  for (const [index] of batch.rejects) {
    if (index >= batch.rows.length) throw new DeskFailure('invalid_request', 'The import batch names a rejected row it does not have.', 'data');
  }
  return batch;
}
