// Who a review mark names: the name set in the app (setting `review.reviewer`), else the
// computer's user name, else "reviewer".
import { userInfo } from 'node:os';
import { z } from 'zod';
import type { DbClient } from '../db/client.ts';

export const REVIEWER_SETTING = 'review.reviewer';

function osUser(): string {
  try {
    return userInfo().username || 'reviewer';
  } catch {
    return 'reviewer'; // no passwd entry (some containers)
  }
}

export async function reviewerName(db: DbClient): Promise<string> {
  const stored = z
    .string()
    .min(1)
    .safeParse(await db.call('settings.get', { key: REVIEWER_SETTING }));
  return stored.success ? stored.data : osUser();
}
