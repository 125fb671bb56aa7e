import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/index.ts';
import { explainApiError, isAmbiguous, isOffline } from './explainError.ts';

const err = (status: number | undefined, kind: ApiError['kind'], message: string, fields: string[] = []) =>
  new ApiError({ kind, message, operation: 'makeCallAsync', ...(status ? { status } : {}), fields });

describe('explainApiError', () => {
  it('says what 402, 409 and 422 mean, with the service’s own words', () => {
    expect(explainApiError(err(402, 'rejected', 'Insufficient credits'))).toBe(
      'Not enough credits for this campaign: Insufficient credits. Add credits to the workspace, then launch again.',
    );
    expect(explainApiError(err(409, 'rejected', 'Campaign already started'))).toBe(
      'The service says the list is not ready, failed, or was already started: Campaign already started',
    );
    expect(
      explainApiError(err(422, 'rejected', 'Field required', ['call_config', 'campaign_end_time'])),
    ).toBe('The service refused the request; fields to fix: call_config, campaign_end_time (Field required)');
    expect(explainApiError(err(422, 'rejected', 'Give exactly one of from_numbers or number_pool_id'))).toBe(
      'The service refused the request: Give exactly one of from_numbers or number_pool_id',
    );
  });

  it('tells an unclear start (no answer, 5xx, cut body) from a refusal', () => {
    expect(isAmbiguous(err(undefined, 'timeout', 't'))).toBe(true);
    expect(isAmbiguous(err(undefined, 'unreachable', 'reset'))).toBe(true);
    expect(isAmbiguous(err(503, 'server', 'x'))).toBe(true);
    expect(isAmbiguous(err(200, 'invalid_response', 'cut'))).toBe(true);
    expect(isAmbiguous(err(400, 'rejected', 'bad'))).toBe(false);
    expect(isAmbiguous(err(402, 'rejected', 'credits'))).toBe(false);
    expect(isOffline(err(503, 'server', 'x'))).toBe(false);
    expect(isOffline(err(undefined, 'unreachable', 'x'))).toBe(true);
  });
});
