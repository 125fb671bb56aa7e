// Small helpers the client's tests share.
import { formatCampaignTime, instantToZoned } from '../../../../shared/domain/dates.ts';
import { ApiError } from '../apiError.ts';

/** The ApiError a call fails with (throws when it succeeds or fails otherwise). */
export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

/** `DD/MM/YYYY, HH:MM` in Asia/Kolkata, `hours` from real now (a frozen sandbox clock starts there). */
export const campaignTimeIn = (hours: number): string =>
  formatCampaignTime(instantToZoned(Date.now() + hours * 3_600_000, 'Asia/Kolkata'));
