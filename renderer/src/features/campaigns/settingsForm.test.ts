import { describe, expect, it } from 'vitest';
import { campaignSettingsSchema } from '../../../../shared/ipc/channels/campaigns.ts';
import {
  campaignTimeToPicker,
  defaultSettings,
  errorFor,
  labelFor,
  pickerToCampaignTime,
  schemaProblems,
  splitNumbers,
  withStaleAcknowledgement,
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

describe('settings problems the schema finds', () => {
  it('names every refused value at once in plain words and keeps the rest checkable', () => {
    const s = defaultSettings();
    const bad = {
      ...s,
      concurrency: 150,
      call: { ...s.call, retryCount: -1, windowStart: '9h' },
    };
    const { errors, checkable } = schemaProblems(bad);
    expect(errors).toEqual([
      { field: 'call.windowStart', message: 'Daily window from must be a time such as 09:30' },
      { field: 'call.retryCount', message: 'Retries must be a whole number of at least 0' },
      { field: 'concurrency', message: 'Concurrency must be a whole number of at most 100' },
    ]);
    expect(errors.map((e) => e.message).join(' ')).not.toMatch(/expected|Too small|Too big/);
    expect(campaignSettingsSchema.safeParse(checkable).success).toBe(true);
    expect(checkable.concurrency).toBe(s.concurrency);
    expect(checkable.name).toBe(s.name);
  });

  it('drops the calling-hours acknowledgement when the window, purpose, country or zone changes', () => {
    const s = { ...defaultSettings(), hoursAcknowledged: true };
    expect(withStaleAcknowledgement(s, { name: 'x' })).toEqual({ name: 'x' });
    expect(withStaleAcknowledgement(s, { purpose: 'promotional' })).toEqual({
      purpose: 'promotional',
      hoursAcknowledged: false,
    });
    expect(withStaleAcknowledgement(s, { call: { ...s.call, windowEnd: '22:00' } }).hoursAcknowledged).toBe(
      false,
    );
  });
});
