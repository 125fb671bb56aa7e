import { describe, expect, it } from 'vitest';
import { campaignSettingsSchema } from '../../../../shared/ipc/channels/campaigns.ts';
import {
  campaignTimeToPicker,
  defaultSettings,
  errorFor,
  labelFor,
  pickerToCampaignTime,
  splitNumbers,
} from './settingsForm.ts';

describe('campaign settings form', () => {
  it('starts from settings the contract accepts', () => {
    expect(campaignSettingsSchema.safeParse(defaultSettings()).success).toBe(true);
  });

  it('turns the picker value into DD/MM/YYYY, HH:MM and back', () => {
    expect(pickerToCampaignTime('2026-11-24T09:30')).toBe('24/11/2026, 09:30');
    expect(campaignTimeToPicker('24/11/2026, 09:30')).toBe('2026-11-24T09:30');
    expect(pickerToCampaignTime('')).toBe('');
    expect(campaignTimeToPicker('tomorrow')).toBe('');
  });

  it('finds the error of a field or of a field under it, and names the input', () => {
    const errors = [
      { field: 'numberSource.fromNumbers', message: 'Choose caller numbers or a pool' },
      { field: 'call.windowEnd', message: 'must be after the start' },
    ];
    expect(errorFor(errors, 'numberSource')).toBe('Choose caller numbers or a pool');
    expect(errorFor(errors, 'call.windowEnd')).toBe('must be after the start');
    expect(errorFor(errors, 'call.windowStart')).toBeUndefined();
    expect(labelFor('numberSource.fromNumbers')).toBe('Caller numbers');
    expect(labelFor('call.windowEnd')).toBe('Daily window to');
    expect(labelFor('mapping')).toBe('Variables');
    expect(labelFor('whatever.else')).toBe('whatever.else');
  });

  it('splits typed caller numbers on commas and lines', () => {
    expect(splitNumbers(' +919876543210, \n+919876543211,,')).toEqual(['+919876543210', '+919876543211']);
  });
});
