import { describe, expect, it } from 'vitest';
import { poolDetail } from './numberPools.ts';

describe('number pools by name', () => {
  it('names a pool by its numbers’ shared display name, with its numbers', async () => {
    const numbers = [
      { number: '+918049112233', numberPoolId: 'p1', label: 'India outbound 2233' },
      { number: '+918049112234', numberPoolId: 'p1', label: 'India outbound 2234' },
      { number: '+14158675309', numberPoolId: 'p2', label: null },
    ];
    expect(poolDetail('p1', numbers)).toEqual({
      id: 'p1',
      name: 'India outbound',
      numbers: ['+918049112233', '+918049112234'],
    });
    expect(poolDetail('p2', numbers)).toEqual({
      id: 'p2',
      name: 'Pool of 1 number',
      numbers: ['+14158675309'],
    });
  });
});
